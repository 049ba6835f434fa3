package dev.stretto.cli;

import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.StderrMessages;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

/**
 * SIGTERM, SIGINT and SIGHUP end the session normally. MCP hosts close the proxy's stdin and
 * send SIGTERM a moment later; that is the usual end of a session, so it must leave the log
 * complete and no process of the server's behind.
 *
 * <p>The JVM turns those signals into a shutdown, which runs this hook: it interrupts the
 * thread running the session ({@code Proxy.run}), which then stops reading, writes out the log,
 * ends the server and everything it started, and returns; the hook waits for that, at most
 * {@link #SESSION_WAIT}, and the JVM exits with 128 + the signal's number. Should the session not
 * finish in time (a disk that stalls), the hook still ends every process the proxy started
 * before the JVM exits. After a session that ended by itself, the hook has nothing to do.
 *
 * <p>With {@code --listen} the interrupted thread is the listener's: it stops every session the
 * same way, and once it has, the process exits with 0 (the end a service manager asked for),
 * not with 128 + the signal.
 */
final class SignalShutdown {

    /** How long the hook waits for the session to stop. */
    static final Duration SESSION_WAIT = Duration.ofSeconds(5);

    /** How long it waits for a listener to stop its sessions (it gives them 30 s itself). */
    static final Duration LISTENER_WAIT = Duration.ofSeconds(40);

    private final Thread session;
    private final CountDownLatch sessionDone = new CountDownLatch(1);
    private volatile boolean signalled;
    private volatile boolean listening;
    private volatile ProxyMessages messages = StderrMessages.at(ProxyMessages.Level.INFO);

    private SignalShutdown(Thread session) {
        this.session = session;
    }

    /** Installs the hook for the session that runs on {@code session}, the calling thread. */
    static SignalShutdown install(Thread session) {
        SignalShutdown shutdown = new SignalShutdown(session);
        Runtime.getRuntime().addShutdownHook(new Thread(shutdown::onShutdown, "stretto-shutdown"));
        return shutdown;
    }

    /** Where the hook's own message goes: the command's handler, once the arguments are read. */
    void messages(ProxyMessages messages) {
        this.messages = messages;
    }

    /**
     * The command serves hosts over HTTP ({@code --listen}): a signal ends every session and the
     * listener, and then the process with status 0, the end a service manager asked for.
     */
    void listening() {
        listening = true;
    }

    /** The session has returned (or thrown): the hook has nothing more to wait for. */
    void sessionEnded() {
        sessionDone.countDown();
    }

    /** Whether a signal ended the session: the JVM then exits with 128 + its number. */
    boolean signalled() {
        return signalled;
    }

    private void onShutdown() {
        if (sessionDone.getCount() == 0) {
            return;
        }
        signalled = true;
        session.interrupt();
        Duration wait = listening ? LISTENER_WAIT : SESSION_WAIT;
        try {
            if (sessionDone.await(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                if (listening) {
                    StderrMessages.flush(ProxyMain.STDERR_STALL);
                    Runtime.getRuntime().halt(0);
                }
                return;
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        messages.message(ProxyMessages.Level.WARN, "the session did not stop within " + wait.toSeconds()
                + " s of the signal; ending the server's processes now");
        ProcessHandle.current().descendants().forEach(ProcessHandle::destroyForcibly);
        StderrMessages.flush(ProxyMain.STDERR_STALL);
    }
}
