package dev.stretto.proxy;

import dev.stretto.trace.log.Source;

/**
 * Watches a session as it runs: each line that crosses the proxy, and the end. Give it to
 * {@link ProxyConfig.Builder#listener}; both methods do nothing by default.
 *
 * <p>Lines come in the session log's order, with the log's {@code t_ms}, whether or not the
 * session is recorded, and are called off the forwarding path: on the session's log writer
 * thread, one at a time, after the line was read and handed on. A listener that is slow makes
 * the proxy wait once 1,024 lines (or 64 MB) are queued for it; no line is ever dropped
 * or reordered for it. A listener that throws from {@link #line} is reported once on stderr
 * and gets no more lines (the session goes on, and {@link #ended} is still called).
 */
public interface SessionListener {

    /**
     * One line as it crossed the wire.
     *
     * @param tMs  when the proxy read it, in ms since the session started (the log's
     *             {@code t_ms}: never decreases from one call to the next)
     * @param from who wrote it: the host ({@link Source#CLIENT}, on its way to the server),
     *             the server ({@link Source#SERVER}, on its way to the host), the proxy itself
     *             ({@link Source#PROXY}), or the conversation ({@link Source#CONTEXT}, active mode)
     * @param line the line's bytes exactly as they crossed, without the {@code '\n'} (a
     *             {@code '\r'} before it stays); not scrubbed of secrets, as a log is. Shared:
     *             do not modify it.
     */
    default void line(long tMs, Source from, byte[] line) {
    }

    /**
     * The session has ended: its log is complete and its server is gone. Called once, on the
     * thread that ran {@link Proxy#run}, after the last {@link #line} and just before {@code
     * run} returns the same result (or, for a result of {@link EndReason#INTERRUPTED}, throws a
     * {@link SessionInterruptedException} carrying it). Not called when the session did not
     * start. An exception thrown here is reported on stderr and otherwise ignored.
     *
     * @param result how the session went
     */
    default void ended(SessionResult result) {
    }
}
