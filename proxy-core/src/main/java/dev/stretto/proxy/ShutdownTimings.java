package dev.stretto.proxy;

import java.time.Duration;
import java.util.Objects;

/**
 * How long the end of a session waits for each party. The shutdown ladder, for a child server
 * that does not exit on its own once its input is closed (or once it has closed its output):
 * wait {@code grace}, then send SIGTERM to the child and all its descendants, wait {@code
 * termGrace}, then SIGKILL whatever is still alive. And, for a host that stops reading the
 * proxy's output once the server is done: the lines it has not taken are given up when it has
 * taken nothing for {@code hostStall}, so that the session still ends.
 *
 * @param grace     how long the server may take to exit by itself
 * @param termGrace how long it may take to exit after SIGTERM
 * @param hostStall how long the host may take no output at all, at the end of the session
 */
public record ShutdownTimings(Duration grace, Duration termGrace, Duration hostStall) {

    // Declared before DEFAULT, which uses it.
    private static final Duration DEFAULT_HOST_STALL = Duration.ofSeconds(5);

    /** Two seconds each for the ladder, as common MCP clients wait; five for the host. */
    public static final ShutdownTimings DEFAULT = new ShutdownTimings(Duration.ofSeconds(2), Duration.ofSeconds(2));

    /**
     * Checks the timings.
     *
     * @throws IllegalArgumentException when a timing is negative
     */
    public ShutdownTimings {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(termGrace, "termGrace");
        Objects.requireNonNull(hostStall, "hostStall");
        if (grace.isNegative() || termGrace.isNegative() || hostStall.isNegative()) {
            throw new IllegalArgumentException("shutdown timings must not be negative");
        }
    }

    /**
     * The ladder's timings, with the default wait for the host (five seconds).
     *
     * @param grace     how long the server may take to exit by itself
     * @param termGrace how long it may take to exit after SIGTERM
     */
    public ShutdownTimings(Duration grace, Duration termGrace) {
        this(grace, termGrace, DEFAULT_HOST_STALL);
    }
}
