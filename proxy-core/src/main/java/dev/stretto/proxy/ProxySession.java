package dev.stretto.proxy;

import dev.stretto.proxy.active.ActiveMode;
import dev.stretto.proxy.active.ActiveSession;
import dev.stretto.proxy.active.ToolPolicy;
import dev.stretto.proxy.flow.FlowLog;
import dev.stretto.proxy.policy.ApprovalFiles;
import dev.stretto.proxy.io.IoMessages;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.record.LogFileSink;
import dev.stretto.proxy.record.LogWriter;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.record.Retention;
import dev.stretto.proxy.record.SessionId;
import dev.stretto.proxy.record.SessionLogFile;
import dev.stretto.proxy.host.HostInput;
import dev.stretto.proxy.session.Session;
import dev.stretto.proxy.http.HttpUpstream;
import dev.stretto.proxy.upstream.ChildProcessUpstream;
import dev.stretto.proxy.upstream.ChildReaper;
import dev.stretto.proxy.upstream.StreamUpstream;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.log.LogHeader;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import dev.stretto.proxy.logging.Logger;

/**
 * One run of {@link Proxy#run}, once {@link PreviewCheck} has passed: prepares the recording
 * (the log file, the program's sinks, the listener) and the upstream, runs the {@link Session},
 * and makes its {@link SessionResult}.
 */
final class ProxySession {

    /** The exit status of a session that was interrupted, as shells report a command stopped by SIGINT. */
    static final int INTERRUPTED_STATUS = 130;

    private ProxySession() {
    }

    /** See {@link Proxy#run}. */
    static SessionResult run(ProxyConfig config, InputStream hostIn, OutputStream hostOut)
            throws ProxyStartException, SessionInterruptedException {
        return run(config, null, hostIn, hostOut, () -> {
        });
    }

    /**
     * See {@link Proxy#run}: a session named {@code sessionName} (a listener's session; null for the
     * usual id), running {@code onStart} once its server has started.
     */
    static SessionResult run(ProxyConfig config, String sessionName, InputStream hostIn, OutputStream hostOut,
                             Runnable onStart) throws ProxyStartException, SessionInterruptedException {
        Instant started = config.clock().instant();
        long startNanos = System.nanoTime();
        long pid = ProcessHandle.current().pid();
        // With a log file, its name keeps the id unique (and plain, as the reference has it).
        String sessionId = sessionName != null ? sessionName
                : config.recordDir() != null ? SessionId.of(started, pid) : SessionId.unique(started, pid);
        // Active mode: --context names a file in the host's world, as --record does.
        ActiveMode activeMode = config.active() == null ? null : ActiveMode.of(config.active());
        if (activeMode != null && activeMode.context() != null) {
            activeMode = activeMode.withContext(hostPath(config.host(), activeMode.context(), "context file", "file"));
        }
        // Flows: --flow-log names a file in the host's world too, and so does --confirm-log.
        if (activeMode != null && activeMode.flow() != null && activeMode.flow().log() != null) {
            activeMode = activeMode.withFlow(activeMode.flow().withLog(hostPath(config.host(), activeMode.flow().log(),
                    "flow log", "file")));
        }
        if (activeMode != null && activeMode.judge() != null && activeMode.judge().log() != null) {
            activeMode = activeMode.withJudge(activeMode.judge().withLog(hostPath(config.host(),
                    activeMode.judge().log(), "confirm log", "file")));
        }

        List<RecordingSink> sinks = new ArrayList<>();
        Path logPath = null;
        if (config.recordDir() != null) {
            Path dir = hostPath(config.host(), config.recordDir(), "record directory", "directory");
            Retention.Outcome retention = config.retainDays() == null ? null
                    : Retention.apply(dir, config.retainDays(), started);
            SessionLogFile logFile;
            try {
                logFile = SessionLogFile.create(dir, sessionId);
            } catch (IOException e) {
                throw new ProxyStartException("cannot create the session log in " + dir + ": " + IoMessages.describe(e), e);
            }
            sessionId = logFile.session();
            // With --record-sync the header, the file and its directories are on disk before the server starts.
            LogFileSink fileSink = new LogFileSink(logFile, config.recordSync());
            try {
                fileSink.open(header(config, sessionId, started));
                sinks.add(fileSink);
                logPath = logFile.path();
            } catch (LogFileSink.HeaderNotWritten e) {
                // A log without its header is no log: the session goes on unrecorded.
                Logger.error("cannot write the session log in {} ({}); this session is not recorded, forwarding"
                        + " goes on", dir, e.getMessage());
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
        openSinks(config, sessionId, started, sinks);
        // Flows: without --flow-log, the flow log goes next to the session log (none unrecorded);
        // the judge's confirm log likewise.
        if (activeMode != null && activeMode.flow() != null && activeMode.flow().log() == null && logPath != null) {
            activeMode = activeMode.withFlow(activeMode.flow().withLog(FlowLog.besideSessionLog(logPath)));
        }
        if (activeMode != null && activeMode.judge() != null && activeMode.judge().log() == null && logPath != null) {
            activeMode = activeMode.withJudge(activeMode.judge().withLog(ConfirmLog.besideSessionLog(logPath)));
        }
        // A policy's asks wait beside the session log; unrecorded, under ~/.stretto/approvals.
        if (activeMode != null && activeMode.toolPolicy() != null) {
            ToolPolicy policy = activeMode.toolPolicy();
            if (policy.approvals() == null) {
                Path home = config.host().home();
                policy = policy.withApprovals(logPath != null ? ApprovalFiles.besideSessionLog(logPath)
                        : home == null ? null : ApprovalFiles.ofUnrecorded(home, sessionId));
                activeMode = activeMode.withToolPolicy(policy);
            }
            Logger.info("applying the policy {}{}", policy.rules().source(), !policy.rules().asks() ? ""
                    : policy.approvals() == null ? "; no place for approvals is known, so its asks refuse"
                    : "; the calls it asks about wait in " + policy.approvals());
        }

        LogWriter logWriter = sinks.isEmpty() && config.listener() == null ? null
                : new LogWriter(sinks, config.listener(), System::nanoTime, startNanos, config.upstream().secretValues(),
                        config.recordSync());
        Upstream upstream = upstreamFor(config, logWriter);
        Recorder recorder = logWriter == null ? Recorder.NONE : logWriter;
        String name = "stretto-session-" + sessionId;
        // Active mode: the actor stamps lines on the log writer's clock, and names its episode by the header.
        ActiveSession active = activeMode == null ? null
                : new ActiveSession(activeMode, header(config, sessionId, started), System::nanoTime, startNanos);
        try (HostInput input = HostInput.start(hostIn, name + "-stdin")) {
            Session session = new Session(name, upstream, recorder, logWriter, input, hostOut,
                    config.shutdown().hostStall(), active);
            SessionResult result;
            try {
                // Said once the server has started: a session that cannot start leaves no log to name.
                Path recording = logPath;
                Session.Outcome outcome = session.run(() -> {
                    onStart.run();
                    if (recording != null) {
                        Logger.info("recording to {}", recording);
                    }
                });
                result = result(outcome.status(), outcome.reason(), outcome.serverEnd(), outcome.failure(), sessionId,
                        logPath, session, started, startNanos);
            } catch (IOException e) {
                sinks.forEach(ProxySession::discard);
                String message = e instanceof dev.stretto.proxy.upstream.UpstreamStartException
                        ? e.getMessage() : "cannot start the server: " + IoMessages.describe(e);
                throw new ProxyStartException(message, e);
            } catch (InterruptedException e) {
                SessionResult stopped = result(INTERRUPTED_STATUS, EndReason.INTERRUPTED, session.serverEnd(), null,
                        sessionId, logPath, session, started, startNanos);
                tellEnded(config.listener(), stopped);
                SessionInterruptedException thrown = new SessionInterruptedException(stopped);
                thrown.initCause(e);
                throw thrown;
            }
            tellEnded(config.listener(), result);
            return result;
        }
    }

    private static LogHeader header(ProxyConfig config, String sessionId, Instant started) {
        return LogHeader.of(sessionId, started.toEpochMilli(), config.upstream().loggedCommand(), config.domain(),
                config.agentModel(), config.host().hostSession());
    }

    // The program's own sinks, after the log file (whose name may have changed the session id).
    private static void openSinks(ProxyConfig config, String sessionId, Instant started, List<RecordingSink> sinks)
            throws ProxyStartException {
        if (config.sinks().isEmpty()) {
            return;
        }
        LogHeader header = header(config, sessionId, started);
        for (RecordingSink sink : config.sinks()) {
            try {
                sink.open(header);
                if (config.recordSync()) {
                    sink.sync();
                }
            } catch (IOException | RuntimeException e) {
                sinks.forEach(ProxySession::discard);
                throw new ProxyStartException("cannot start recording to " + LogWriter.name(sink) + ": "
                        + (e instanceof IOException io ? IoMessages.describe(io) : String.valueOf(e.getMessage())), e);
            }
            sinks.add(sink);
        }
    }

    private static void discard(RecordingSink sink) {
        try {
            sink.discard();
        } catch (IOException | RuntimeException e) {
            Logger.debug(e, "discarding {} failed", sink);
        }
    }

    private static SessionResult result(int status, EndReason reason, ServerEnd serverEnd, Throwable failure,
                                        String sessionId, Path logPath, Session session, Instant started,
                                        long startNanos) {
        long now = System.nanoTime();
        long firstServerLine = session.firstServerLineNanos();
        return new SessionResult(status, reason, serverEnd, failure, sessionId, logPath, session.lineCounts(), started,
                Duration.ofNanos(now - startNanos),
                firstServerLine == Long.MIN_VALUE ? null : Duration.ofNanos(firstServerLine - startNanos));
    }

    private static void tellEnded(SessionListener listener, SessionResult result) {
        if (listener == null) {
            return;
        }
        try {
            listener.ended(result);
        } catch (RuntimeException e) {
            Logger.warn("the session listener failed at the end of the session ({})", e.getMessage());
            Logger.debug(e, "listener failure");
        }
    }

    /**
     * The upstream for the configuration's {@link UpstreamSpec}: the one place where each
     * kind of server is turned into its {@link Upstream}. A new kind of spec gets its branch
     * here. (Not a pattern switch: its first bootstrap costs about 100 ms of start-up.)
     */
    static Upstream upstreamFor(ProxyConfig config, LogWriter logWriter) {
        UpstreamSpec spec = config.upstream();
        if (spec instanceof UpstreamSpec.Command c) {
            return new ChildProcessUpstream(c.argv(), c.environment(), c.directory(), c.stderr(), config.host().path(),
                    config.shutdown(),
                    config.subreaper() == null ? ChildReaper.none() : config.subreaper().reaper());
        }
        if (spec instanceof UpstreamSpec.Http h) {
            return new HttpUpstream(h.endpoint(), h.headers(), h.oauth(), OAuthLogins.storeFor(h.oauth(), config.host()),
                    logWriter == null ? secret -> { } : logWriter::addSecret);
        }
        if (spec instanceof UpstreamSpec.Streams s) {
            return new StreamUpstream(s.name(), s.fromServer(), s.toServer(), config.shutdown());
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
