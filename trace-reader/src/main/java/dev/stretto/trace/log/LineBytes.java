package dev.stretto.trace.log;

/**
 * A line's bytes (without its {@code '\n'}) as a program holds them: in one array, or in
 * pieces in order, as a long line was read. {@link EntryWriter} and {@link LineClassifier}
 * read a line where it lies, so that a line of many megabytes is never copied into one array
 * to be logged.
 */
public interface LineBytes {

    /** {@return how many pieces hold the line (1 for a line in one array)} */
    int pieceCount();

    /**
     * Piece {@code i}; its first {@link #pieceLength(int)} bytes are the line's.
     *
     * @param i which piece, from 0
     * @return the piece, not to be modified
     */
    byte[] piece(int i);

    /**
     * How many bytes of {@link #piece(int)} belong to the line.
     *
     * @param i which piece, from 0
     * @return the number of bytes
     */
    int pieceLength(int i);

    /**
     * The bytes of {@code b}, whole, as a line.
     *
     * @param b the line's bytes
     * @return the line
     */
    static LineBytes of(byte[] b) {
        return new LineBytes() {
            @Override
            public int pieceCount() {
                return 1;
            }

            @Override
            public byte[] piece(int i) {
                return b;
            }

            @Override
            public int pieceLength(int i) {
                return b.length;
            }
        };
    }
}
