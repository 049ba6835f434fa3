package dev.stretto.proxy;

/** Why a session ended; part of its {@link SessionResult}. */
public enum EndReason {

    /**
     * The host closed its input (the end of {@code hostIn}) and the server then finished: the
     * usual end. The exit status is the server's. Finished by itself, or ended by the proxy
     * when it took longer than {@link ShutdownTimings#grace()}: {@link SessionResult#serverEnd()}
     * says which.
     */
    HOST_CLOSED,

    /**
     * The server ended first, while the host's input was still open: a child exited (or was
     * killed), an in-process server's output ended. The exit status is the server's. A child
     * that closed its output but kept running was ended by the proxy ({@link
     * SessionResult#serverEnd()}).
     */
    SERVER_EXITED,

    /**
     * The thread running the session was interrupted, as the CLI does on SIGTERM, SIGINT and
     * SIGHUP: the session stopped, with its log complete and the server ended. {@link
     * Proxy#run} throws a {@link SessionInterruptedException} then, which carries the result;
     * a {@link SessionListener} gets it too. Its exit status is 130 (what shells report for a
     * command stopped by SIGINT).
     */
    INTERRUPTED,

    /**
     * The proxy itself failed during the session (a thread of the session threw): the exit
     * status is 125 and {@link SessionResult#failure()} says what went wrong.
     */
    FAILED
}
