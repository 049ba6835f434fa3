package dev.stretto.proxy.io;

import dev.stretto.trace.log.LineBytes;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.List;
import java.util.Objects;

/**
 * One line as it crossed a pipe: its bytes without the {@code '\n'} (a {@code '\r'} before it
 * stays part of the line), and whether it had that terminator. Only the last line of a
 * stream can lack one.
 *
 * <p>A line's bytes are held once, and shared by everything that handles the line (the
 * forwarding path, the log, the actor): a line is never modified once made, and readers of
 * it must not modify what it gives them either. Most lines are one array. A long line (longer
 * than {@link LineReader}'s buffer) is a list of chunks, as it was read, so that it is never
 * copied into one array on its way: {@link #writeTo}, {@link #piece} and {@link #stream}
 * read it where it is; only {@link #bytes()} joins the chunks, for the few readers that need
 * one array.
 */
public final class Line implements LineBytes {
    private static final byte[][] NONE = new byte[0][];

    // The line, when it is one array; otherwise null and the chunks hold it.
    private final byte[] bytes;
    // A long line's chunks: each holds pieceLength(i) bytes of the line from its start.
    private final byte[][] chunks;
    private final int lastLength;
    private final long length;
    private final boolean terminated;

    /**
     * A line held in one array.
     *
     * @param bytes      the line's bytes, without its {@code '\n'}; the line keeps the array
     * @param terminated false only for a last line that ended at end of stream
     * @throws NullPointerException when {@code bytes} is null
     */
    public Line(byte[] bytes, boolean terminated) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.chunks = NONE;
        this.lastLength = bytes.length;
        this.length = bytes.length;
        this.terminated = terminated;
    }

    private Line(byte[][] chunks, int lastLength, long length, boolean terminated) {
        this.bytes = null;
        this.chunks = chunks;
        this.lastLength = lastLength;
        this.length = length;
        this.terminated = terminated;
    }

    /**
     * A line held in chunks, in order: every chunk is used whole except the last, of which the
     * first {@code lastLength} bytes are the line's. The line keeps the arrays.
     */
    public static Line ofChunks(List<byte[]> chunks, int lastLength, boolean terminated) {
        if (chunks.size() == 1) {
            byte[] only = chunks.getFirst();
            return new Line(lastLength == only.length ? only : java.util.Arrays.copyOf(only, lastLength), terminated);
        }
        long length = lastLength;
        for (int i = 0; i < chunks.size() - 1; i++) {
            length += chunks.get(i).length;
        }
        return new Line(chunks.toArray(NONE), lastLength, length, terminated);
    }

    /** False only for a last line that ended at end of stream. */
    public boolean terminated() {
        return terminated;
    }

    /** How many bytes the line has (its terminator not counted). */
    public long length() {
        return length;
    }

    /** Whether the line has no bytes at all. */
    public boolean isEmpty() {
        return length == 0;
    }

    /** How many pieces the line is held in: 1 for most lines. */
    @Override
    public int pieceCount() {
        return bytes != null ? 1 : chunks.length;
    }

    /** Piece {@code i} of the line; its first {@link #pieceLength(int)} bytes belong to the line. */
    @Override
    public byte[] piece(int i) {
        return bytes != null ? bytes : chunks[i];
    }

    /** How many bytes of {@link #piece(int)} belong to the line. */
    @Override
    public int pieceLength(int i) {
        if (bytes != null) {
            return bytes.length;
        }
        return i == chunks.length - 1 ? lastLength : chunks[i].length;
    }

    /**
     * The line's bytes in one array: the line's own array when it is held in one (do not modify
     * it), otherwise a new array with the chunks joined.
     *
     * @throws OutOfMemoryError when the line is longer than an array can be
     */
    public byte[] bytes() {
        if (bytes != null) {
            return bytes;
        }
        if (length > Integer.MAX_VALUE - 16) {
            throw new OutOfMemoryError("a line of " + length + " bytes does not fit in one array");
        }
        byte[] all = new byte[(int) length];
        int at = 0;
        for (int i = 0; i < chunks.length; i++) {
            int n = pieceLength(i);
            System.arraycopy(chunks[i], 0, all, at, n);
            at += n;
        }
        return all;
    }

    /** Writes the line's bytes (not its terminator) to {@code out}. */
    public void writeTo(OutputStream out) throws IOException {
        if (bytes != null) {
            out.write(bytes);
            return;
        }
        for (int i = 0; i < chunks.length; i++) {
            out.write(chunks[i], 0, pieceLength(i));
        }
    }

    /** The line's bytes (not its terminator) as a stream, read where they are. */
    public InputStream stream() {
        return new InputStream() {
            private int chunk;
            private int at;

            @Override
            public int read() {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xFF;
            }

            @Override
            public int read(byte[] b, int off, int len) {
                while (chunk < pieceCount() && at == pieceLength(chunk)) {
                    chunk++;
                    at = 0;
                }
                if (chunk == pieceCount()) {
                    return len == 0 ? 0 : -1;
                }
                int n = Math.min(len, pieceLength(chunk) - at);
                System.arraycopy(piece(chunk), at, b, off, n);
                at += n;
                return n;
            }
        };
    }
}
