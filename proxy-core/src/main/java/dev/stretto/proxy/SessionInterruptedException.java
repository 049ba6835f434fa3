package dev.stretto.proxy;

import java.util.Objects;

/**
 * What {@link Proxy#run} throws when the thread running the session was interrupted: the
 * session stopped, with its log complete and its server ended, and this says how it went, as
 * the result of a session that ran to its end would.
 */
public final class SessionInterruptedException extends InterruptedException {

    // Not serialized: a result holds paths and a failure, which need not be serializable.
    private final transient SessionResult result;

    /**
     * The exception for a session that stopped with {@code result}.
     *
     * @param result the result, of {@link EndReason#INTERRUPTED}
     */
    public SessionInterruptedException(SessionResult result) {
        super("the session " + result.sessionId() + " was stopped: its thread was interrupted");
        this.result = Objects.requireNonNull(result, "result");
    }

    /**
     * How the stopped session went: {@link EndReason#INTERRUPTED}, exit status 130, the lines
     * that crossed until it stopped, its log, and how its server was ended ({@link
     * SessionResult#serverEnd()}). The same result a {@link SessionListener} gets.
     *
     * @return the result; null only in an exception that was serialized and read back
     */
    public SessionResult result() {
        return result;
    }
}
