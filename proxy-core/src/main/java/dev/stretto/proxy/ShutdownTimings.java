package dev.stretto.proxy;

import java.time.Duration;
import java.util.Objects;

/**
 * The steps of the shutdown ladder for a child server that does not exit on its own once its
 * input is closed (or once it has closed its output): wait {@code grace}, then send SIGTERM
 * to the child and all its descendants, wait {@code termGrace}, then SIGKILL whatever is
 * still alive.
 *
 * @param grace     how long the server may take to exit by itself
 * @param termGrace how long it may take to exit after SIGTERM
 */
public record ShutdownTimings(Duration grace, Duration termGrace) {

    /** Two seconds each, as common MCP clients wait. */
    public static final ShutdownTimings DEFAULT = new ShutdownTimings(Duration.ofSeconds(2), Duration.ofSeconds(2));

    /** @throws IllegalArgumentException when a timing is negative */
    public ShutdownTimings {
        Objects.requireNonNull(grace, "grace");
        Objects.requireNonNull(termGrace, "termGrace");
        if (grace.isNegative() || termGrace.isNegative()) {
            throw new IllegalArgumentException("shutdown timings must not be negative");
        }
    }
}
