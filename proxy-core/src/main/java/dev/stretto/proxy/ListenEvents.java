package dev.stretto.proxy;

/**
 * What watches an {@link McpListener}'s sessions come and go; give it to {@link
 * ListenConfig.Builder#events}. Every method does nothing by default. Called on the listener's
 * threads, several at once for different sessions; one session's calls come in order. An
 * exception thrown here is reported among the listener's messages and otherwise ignored.
 */
public interface ListenEvents {

    /**
     * A session has started: its server is running, and the host's {@code initialize} is on
     * its way to it.
     *
     * @param session the session
     */
    default void started(ListenSession session) {
    }

    /**
     * A session could not start (its configuration or its server could not be made); the
     * host's {@code initialize} was answered with an error, and no log is left.
     *
     * @param session the session that did not start
     * @param failure why
     */
    default void refused(ListenSession session, ProxyStartException failure) {
    }

    /**
     * A session has ended: its log is complete and its server is gone. The host's DELETE, the
     * session's idle time ({@link ListenConfig#idle()}), its server's own end and the listener's
     * {@link McpListener#stop()} end sessions.
     *
     * @param session the session
     * @param result  how it went, as {@link Proxy#run} returns it ({@link
     *                EndReason#HOST_CLOSED} after a DELETE or when it was idle, {@link
     *                EndReason#INTERRUPTED} when the listener stopped)
     */
    default void ended(ListenSession session, SessionResult result) {
    }
}
