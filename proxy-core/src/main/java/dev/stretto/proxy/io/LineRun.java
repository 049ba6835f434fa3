package dev.stretto.proxy.io;

/**
 * Whole lines read together, to be forwarded as they are in one write, when nothing is
 * recorded and so nothing needs them one by one: the bytes of {@code count} lines, each with
 * its terminator (but a last line of the stream without one), held as one {@link Line} so that
 * the writers of lines write them unchanged. Its {@code line}, written as any line is
 * ({@link Line#writeTo}, then {@code '\n'} when it is {@linkplain Line#terminated()
 * terminated}), gives back exactly the bytes of the lines. A line too long for a reader's
 * buffer is a run of its own, of one line, held in its chunks as read.
 *
 * @param line  the lines' bytes
 * @param count how many lines they are; at least 1
 */
public record LineRun(Line line, int count) {

    /** @throws IllegalArgumentException when {@code count} is below 1 */
    public LineRun {
        if (count < 1) {
            throw new IllegalArgumentException("a run holds at least one line");
        }
    }

    /** One line as a run of its own. */
    public static LineRun of(Line line) {
        return new LineRun(line, 1);
    }
}
