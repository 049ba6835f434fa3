package dev.stretto.proxy;

/**
 * How the server's side of a session ended: by itself, or ended by the proxy; part of its
 * {@link SessionResult}. When the proxy ended it, the exit status tells of what the proxy did
 * (a signal's status), not of how the server would have ended, and what the server would still
 * have written reached nobody.
 */
public enum ServerEnd {

    /**
     * It finished by itself: a child exited on its own (its status is the session's), an
     * in-process server ended its output, an HTTP server answered everything it was asked.
     */
    FINISHED,

    /**
     * The proxy asked a child to end, with SIGTERM to it and everything it started, and it did
     * within {@link ShutdownTimings#termGrace()}: because it had not exited {@link
     * ShutdownTimings#grace()} after its input closed (or kept running after it closed its
     * output), or because the session was stopped. Its status is what it exited with after
     * the signal: 143 (128 + 15) unless it handles SIGTERM.
     */
    TERMINATED,

    /**
     * The proxy killed a child with SIGKILL: it was still alive {@link
     * ShutdownTimings#termGrace()} after SIGTERM, or the session stopped or failed at once. Its
     * status is 137 (128 + 9).
     */
    KILLED,

    /**
     * The proxy stopped waiting for a server that had not finished: an in-process server whose
     * output had not ended {@link ShutdownTimings#grace()} after its input closed (or when the
     * session stopped) had both its streams closed; an HTTP server's exchanges still open when
     * the proxy gave up on them were answered by the proxy with errors. The status is 0, as
     * for every server that is no child.
     */
    CUT_OFF
}
