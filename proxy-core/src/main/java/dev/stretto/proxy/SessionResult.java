package dev.stretto.proxy;

import dev.stretto.trace.log.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.Objects;

/**
 * What a session tells its caller when it has ended: returned by {@link Proxy#run} and given
 * to {@link SessionListener#ended}.
 *
 * @param exitStatus            the status the CLI exits with: the server's own ({@code 128 + n}
 *                              when signal {@code n} ended a child, the proxy's SIGTERM or
 *                              SIGKILL included, which {@code serverEnd} tells; 0 for an HTTP
 *                              or in-process server), 125 when the proxy failed, 130 when
 *                              interrupted
 * @param endReason             why the session ended
 * @param serverEnd             how the server ended: by itself, or ended by the proxy (then
 *                              what it would still have written reached nobody)
 * @param failure               what failed, for {@link EndReason#FAILED}; otherwise null
 * @param sessionId             the session's id, which also names its log:
 *                              {@code <UTC start time>-<pid>}, with {@code -<n>} when another
 *                              session of this process took the same millisecond. A session
 *                              without a log file always has a {@code -<n>} no other session of
 *                              the JVM has.
 * @param logPath               the session log, or null when the session was not recorded to a
 *                              file (or its log could not be created)
 * @param lines                 how many lines crossed, by who wrote them
 * @param started               when the session started (by the configuration's clock)
 * @param duration              how long it ran, from the start of {@link Proxy#run} to its end
 * @param timeToFirstServerLine how long after the start the server's first line was read, or
 *                              null when the server wrote none
 */
public record SessionResult(int exitStatus, EndReason endReason, ServerEnd serverEnd, Throwable failure,
                            String sessionId, Path logPath, LineCounts lines, Instant started, Duration duration,
                            Duration timeToFirstServerLine) {

    /**
     * Checks that every component that must be there is.
     *
     * @throws NullPointerException when a component other than those that may be null is
     */
    public SessionResult {
        Objects.requireNonNull(endReason, "endReason");
        Objects.requireNonNull(serverEnd, "serverEnd");
        Objects.requireNonNull(sessionId, "sessionId");
        Objects.requireNonNull(lines, "lines");
        Objects.requireNonNull(started, "started");
        Objects.requireNonNull(duration, "duration");
    }

    /**
     * Lines that crossed the proxy, counted as they were forwarded (and recorded, when the
     * session is), by who wrote them: the same numbers as the session log's entries of each
     * {@code from}.
     *
     * @param fromClient lines the host wrote, passed to the server
     * @param fromServer lines the server wrote, passed to the host
     * @param fromProxy  lines the proxy wrote itself (the error answers of an HTTP upstream it
     *                   could not reach, for instance)
     * @param fromContext conversation lines recorded from a context file (active mode)
     */
    public record LineCounts(long fromClient, long fromServer, long fromProxy, long fromContext) {

        /**
         * The count of lines written by {@code from}.
         *
         * @param from who wrote them
         * @return how many lines
         */
        public long of(Source from) {
            return switch (from) {
                case CLIENT -> fromClient;
                case SERVER -> fromServer;
                case PROXY -> fromProxy;
                case CONTEXT -> fromContext;
            };
        }
    }
}
