package dev.stretto.proxy.flow;

/**
 * What learning and promoting say while they work: a line per phase with its counts ({@code
 * read 12 session logs from logs/}, {@code alpha 0.7 (90% between ...)}), and the long phases
 * as a count of units done out of a total, for a bar. {@code stretto learn} prints the lines on
 * stderr and draws the bars on a terminal; a program may log them, or give {@link #NONE}.
 * Called on the thread that learns or promotes.
 */
public interface Progress {

    /** Says nothing. */
    Progress NONE = line -> {
    };

    /**
     * One line about a phase, without a prefix.
     *
     * @param line what was done or found
     */
    void line(String line);

    /**
     * A long phase begins.
     *
     * @param label what it does ({@code asking System-One})
     * @param total how many units it takes
     */
    default void start(String label, int total) {
    }

    /**
     * The phase begun last has done {@code done} of its units.
     *
     * @param done the units done so far
     */
    default void update(int done) {
    }
}
