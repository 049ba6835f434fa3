package dev.stretto.proxy;

import dev.stretto.proxy.logging.Logger;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Objects;

/**
 * Runs one proxy session: the entry point for the CLI and for programs that embed the proxy.
 *
 * <pre>{@code
 * ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("npx", "-y", "some-mcp-server"))
 *         .record(Path.of("/var/log/agent"))
 *         .domain("orders")
 *         .build();                                            // PATH and HOME: the JVM's own
 * SessionResult result = Proxy.run(config, hostIn, hostOut);   // result.exitStatus(), ...
 * }</pre>
 *
 * <p>The proxy forwards every line from {@code hostIn} to the server and every line from the
 * server to {@code hostOut}, byte for byte, and with a record directory also writes each
 * line to a new session log. Its own messages go to the configuration's {@link ProxyMessages}
 * handler, by default to stderr as {@code stretto-proxy: ...}; nothing but the protocol is
 * written to {@code hostOut}, and nothing at all to {@code System.out}. Nothing here calls
 * {@code System.exit} or keeps static state (but for the one queue of the default handler to
 * stderr), so several sessions may run in one process; the environment is read only for a
 * configuration that gives no {@link HostEnvironment} ({@link HostEnvironment#current()}).
 */
public final class Proxy {

    private Proxy() {
    }

    /**
     * Runs {@code task} with {@code handler} taking the messages the proxy says on this thread
     * meanwhile (and on the threads the proxy starts from it): for what a program calls outside
     * a session, such as {@link Subreaper#enable()} and {@link Subreaper#reapOrphans()}, whose
     * messages otherwise go to stderr at {@link ProxyMessages.Level#INFO}. A session run inside
     * {@code task} still uses the handler of its own configuration.
     *
     * @param handler where the messages go
     * @param task    what to run
     */
    public static void runWith(ProxyMessages handler, Runnable task) {
        Logger.runWith(Objects.requireNonNull(handler, "handler"), Objects.requireNonNull(task, "task"));
    }

    /**
     * Runs a session until it ends: after {@code hostIn} ends and the server has finished
     * (output the server writes after that still reaches {@code hostOut}), or as soon as the
     * server ends while {@code hostIn} is still open. When this returns, the session log is
     * complete and closed and no process the server started is left running (of those the
     * proxy can find: see {@link ProxyConfig.Builder#subreaper}). Once the server is done,
     * lines {@code hostOut} takes none of for {@link ShutdownTimings#hostStall()} are given up.
     *
     * <p>Interrupting the calling thread stops the session: it reads nothing more, writes out
     * the log, ends the server, and throws a {@link SessionInterruptedException}, whose {@link
     * SessionInterruptedException#result() result()} says how the session went; every line
     * written to {@code hostOut} is in the log then. When it throws, a child server has exited
     * and been reaped ({@link ProcessHandle#isAlive()} is false), and everything it started is
     * dead: reaped too when the JVM is a child subreaper, else perhaps still a zombie until the
     * process that inherited it (init) collects it.
     *
     * <p>{@code hostIn} is read by a daemon thread, and {@code hostOut} written by one; when the
     * session ends, the reader stays blocked in its read until the stream ends or is closed,
     * and the writer in a write {@code hostOut} never takes, and then they stop. Neither stream
     * is closed here.
     *
     * @param config  the session: its server, its recording, what watches it
     * @param hostIn  what the host sends, one message a line
     * @param hostOut where the server's lines (and the proxy's answers in its place) go to the host
     * @return how the session went: {@link SessionResult#exitStatus()} is the server's status
     *         ({@code 128 + n} when signal {@code n} ended a child; 0 for an HTTP or in-process
     *         server), or 125 when the proxy failed during the session; {@link
     *         SessionResult#serverEnd()} says whether the server finished by itself or the proxy
     *         ended it
     * @throws ProxyStartException         when the session could not start (log not creatable,
     *                                     server not startable, a sink refused it); no log is
     *                                     left behind
     * @throws SessionInterruptedException when the calling thread was interrupted: the session
     *                                     stopped, with the log complete and the server ended;
     *                                     it carries the session's result
     */
    public static SessionResult run(ProxyConfig config, InputStream hostIn, OutputStream hostOut)
            throws ProxyStartException, SessionInterruptedException {
        PreviewCheck.require();
        // Only now may a class that uses preview features be loaded: ProxySession links to Session.
        // The session's messages go to its handler, on every thread of the session.
        try {
            return Logger.callWith(config.messages(), () -> ProxySession.run(config, hostIn, hostOut));
        } catch (ProxyStartException | SessionInterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }
}
