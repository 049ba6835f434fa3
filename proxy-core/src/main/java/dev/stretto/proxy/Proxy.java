package dev.stretto.proxy;

import dev.stretto.proxy.active.ActiveMode;
import dev.stretto.proxy.active.ActiveSession;
import dev.stretto.proxy.flow.wire.FlowLogFile;
import dev.stretto.proxy.judge.ConfirmLogFile;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.record.LogWriter;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.record.Retention;
import dev.stretto.proxy.record.SessionId;
import dev.stretto.proxy.record.SessionLogFile;
import dev.stretto.proxy.session.HostInput;
import dev.stretto.proxy.session.Session;
import dev.stretto.proxy.http.HttpUpstream;
import dev.stretto.proxy.upstream.ChildProcessUpstream;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.log.LogHeader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Instant;
import java.util.function.Function;
import org.tinylog.Logger;

/**
 * Runs one proxy session: the entry point for the CLI and for programs that embed the proxy.
 *
 * <pre>{@code
 * ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("npx", "-y", "some-mcp-server"))
 *         .record(Path.of("/var/log/agent"))
 *         .domain("orders")
 *         .host(HostEnvironment.of(System.getenv(), -1))
 *         .build();
 * int status = Proxy.run(config, hostIn, hostOut);
 * }</pre>
 *
 * <p>The proxy forwards every line from {@code hostIn} to the server and every line from the
 * server to {@code hostOut}, byte for byte, and with a record directory also writes each
 * line to a new session log. Its own messages go through tinylog (the CLI prints them on
 * stderr as {@code stretto-proxy: ...}); nothing but the protocol is written to
 * {@code hostOut}. Nothing here calls {@code System.exit}, reads environment variables or
 * keeps static state, so several sessions may run in one process.
 */
public final class Proxy {

    private Proxy() {
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
     * the log, ends the server, and throws {@link InterruptedException}; every line written to
     * {@code hostOut} is in the log then.
     *
     * <p>{@code hostIn} is read by a daemon thread, and {@code hostOut} written by one; when the
     * session ends, the reader stays blocked in its read until the stream ends or is closed,
     * and the writer in a write {@code hostOut} never takes, and then they stop. Neither stream
     * is closed here.
     *
     * @return the exit status: the server's ({@code 128 + n} when signal {@code n} ended a
     *         child), 0 for an HTTP server, 125 when the proxy failed during the session
     * @throws ProxyStartException  when the session could not start (log not creatable, server
     *                              not startable); no log is left behind
     * @throws InterruptedException when the calling thread was interrupted: the session stopped,
     *                              with the log complete and the server ended
     */
    public static int run(ProxyConfig config, InputStream hostIn, OutputStream hostOut)
            throws ProxyStartException, InterruptedException {
        Instant started = config.clock().instant();
        long startNanos = System.nanoTime();
        String sessionId = SessionId.of(started, ProcessHandle.current().pid());
        // Active mode: --context names a file in the host's world, as --record does.
        ActiveMode activeMode = config.active() == null || config.active().context() == null ? config.active()
                : config.active().withContext(hostPath(config.host(), config.active().context(), "context file", "file"));
        // Flows: --flow-log names a file in the host's world too, and so does --confirm-log.
        if (activeMode != null && activeMode.flow() != null && activeMode.flow().log() != null) {
            activeMode = activeMode.withFlow(activeMode.flow().withLog(hostPath(config.host(), activeMode.flow().log(),
                    "flow log", "file")));
        }
        if (activeMode != null && activeMode.judge() != null && activeMode.judge().log() != null) {
            activeMode = activeMode.withJudge(activeMode.judge().withLog(hostPath(config.host(),
                    activeMode.judge().log(), "confirm log", "file")));
        }

        Function<String, LogHeader> headerOf = id -> LogHeader.of(id, started.toEpochMilli(),
                config.upstream().loggedCommand(), config.domain(), config.agentModel(), config.host().hostSession());

        SessionLogFile logFile = null;
        LogWriter logWriter = null;
        if (config.recordDir() != null) {
            Path dir = hostPath(config.host(), config.recordDir(), "record directory", "directory");
            Retention.Outcome retention = config.retainDays() == null ? null
                    : Retention.apply(dir, config.retainDays(), started);
            try {
                logFile = SessionLogFile.create(dir, sessionId, id -> headerOf.apply(id).toJson());
            } catch (SessionLogFile.HeaderNotWritten e) {
                // A log without its header is no log: the session goes on unrecorded.
                Logger.error("cannot write the session log in {} ({}); this session is not recorded, forwarding"
                        + " goes on", dir, e.getMessage());
            } catch (IOException e) {
                throw new ProxyStartException("cannot create the session log in " + dir + ": " + Retention.describe(e), e);
            }
            if (logFile != null) {
                sessionId = logFile.session();
                logWriter = new LogWriter(logFile.path(), logFile.out(), System::nanoTime, startNanos,
                        config.upstream().secretValues());
                Logger.info("recording to {}", logFile.path());
            }
            if (retention != null) {
                int days = config.retainDays();
                Logger.info("--retain-days {}: deleted {} under {}", days, retention.deleted() == 1 ? "1 log file"
                        : retention.deleted() + " log files", dir);
                retention.problems().forEach(Logger::warn);
            }
        }
        // --retain-days also prunes the answers of the oracle the session asks (formats 11.1).
        OracleCache answers = activeMode == null || activeMode.oracle() == null ? null
                : activeMode.oracle().cacheInUse().orElse(null);
        if (config.retainDays() != null && answers != null) {
            Retention.Outcome pruned = answers.prune(config.retainDays(), started);
            Logger.info("--retain-days {}: deleted {} under {}", config.retainDays(), pruned.deleted() == 1
                    ? "1 oracle answer" : pruned.deleted() + " oracle answers", answers.directory());
            pruned.problems().forEach(Logger::warn);
        }

        // Flows: without --flow-log, the flow log goes next to the session log (none unrecorded);
        // the judge's confirm log likewise.
        if (activeMode != null && activeMode.flow() != null && activeMode.flow().log() == null && logFile != null) {
            activeMode = activeMode.withFlow(activeMode.flow().withLog(FlowLogFile.besideSessionLog(logFile.path())));
        }
        if (activeMode != null && activeMode.judge() != null && activeMode.judge().log() == null && logFile != null) {
            activeMode = activeMode.withJudge(activeMode.judge().withLog(ConfirmLogFile.besideSessionLog(logFile.path())));
        }

        Upstream upstream = upstreamFor(config);
        Recorder recorder = logWriter == null ? Recorder.NONE : logWriter;
        String name = "stretto-session-" + sessionId;
        // Active mode: the actor stamps lines on the log writer's clock, and names its episode by the header.
        ActiveSession active = activeMode == null ? null
                : new ActiveSession(activeMode, headerOf.apply(sessionId), System::nanoTime, startNanos);
        try (HostInput input = HostInput.start(hostIn, name + "-stdin")) {
            Session session = new Session(name, upstream, recorder, logWriter, input, hostOut,
                    config.shutdown().hostStall(), active);
            try {
                return session.run();
            } catch (IOException e) {
                if (logFile != null) {
                    logFile.discard();
                }
                String message = e instanceof dev.stretto.proxy.upstream.UpstreamStartException
                        ? e.getMessage() : "cannot start the server: " + Retention.describe(e);
                throw new ProxyStartException(message, e);
            }
        }
    }

    /**
     * The upstream for the configuration's {@link UpstreamSpec}: the one place where each
     * kind of server is turned into its {@link Upstream}. A new kind of spec gets its branch
     * here. (Not a pattern switch: its first bootstrap costs about 100 ms of start-up.)
     */
    static Upstream upstreamFor(ProxyConfig config) {
        UpstreamSpec spec = config.upstream();
        if (spec instanceof UpstreamSpec.Command c) {
            return new ChildProcessUpstream(c.argv(), config.host().path(), config.shutdown(), config.subreaper());
        }
        if (spec instanceof UpstreamSpec.Http h) {
            return new HttpUpstream(h.endpoint(), h.headers());
        }
        throw new IllegalArgumentException("no upstream for " + spec.getClass().getName());
    }

    /**
     * A path the host gave (the record directory, the context file, the flow log): see {@link
     * HostEnvironment#resolve}.
     *
     * @throws ProxyStartException for {@code ~user}, or a {@code ~} with no home known
     */
    static Path hostPath(HostEnvironment host, Path path, String what, String kind) throws ProxyStartException {
        try {
            return host.resolve(path, what, kind);
        } catch (IllegalArgumentException e) {
            throw new ProxyStartException(e.getMessage(), null);
        }
    }
}
