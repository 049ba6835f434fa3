package dev.stretto.proxy;

import dev.stretto.proxy.active.ActiveMode;
import dev.stretto.proxy.active.ActiveSession;
import dev.stretto.proxy.record.LogFileSink;
import dev.stretto.proxy.record.LogWriter;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.record.Retention;
import dev.stretto.proxy.record.SessionId;
import dev.stretto.proxy.record.SessionLogFile;
import dev.stretto.proxy.session.HostInput;
import dev.stretto.proxy.session.Session;
import dev.stretto.proxy.http.HttpUpstream;
import dev.stretto.proxy.upstream.ChildProcessUpstream;
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
import org.tinylog.Logger;

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
            throws ProxyStartException, InterruptedException {
        Instant started = config.clock().instant();
        long startNanos = System.nanoTime();
        long pid = ProcessHandle.current().pid();
        // With a log file, its name keeps the id unique (and plain, as the reference has it).
        String sessionId = config.recordDir() != null ? SessionId.of(started, pid) : SessionId.unique(started, pid);
        // Active mode: --context names a file in the host's world, as --record does.
        ActiveMode activeMode = config.active() == null || config.active().context() == null ? config.active()
                : config.active().withContext(hostPath(config.active().context(), config.host().home(), "context file",
                        "file"));

        List<RecordingSink> sinks = new ArrayList<>();
        Path logPath = null;
        if (config.recordDir() != null) {
            Path dir = hostPath(config.recordDir(), config.host().home(), "record directory", "directory");
            Retention.Outcome retention = config.retainDays() == null ? null
                    : Retention.apply(dir, config.retainDays(), started);
            SessionLogFile logFile;
            try {
                logFile = SessionLogFile.create(dir, sessionId);
            } catch (IOException e) {
                throw new ProxyStartException("cannot create the session log in " + dir + ": " + Retention.describe(e), e);
            }
            sessionId = logFile.session();
            LogFileSink fileSink = new LogFileSink(logFile);
            try {
                fileSink.open(header(config, sessionId, started));
                sinks.add(fileSink);
                logPath = logFile.path();
                Logger.info("recording to {}", logPath);
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
        openSinks(config, sessionId, started, sinks);

        LogWriter logWriter = sinks.isEmpty() && config.listener() == null ? null
                : new LogWriter(sinks, config.listener(), System::nanoTime, startNanos, config.upstream().secretValues());
        Upstream upstream = upstreamFor(config);
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
                Session.Outcome outcome = session.run();
                result = result(outcome.status(), outcome.reason(), outcome.failure(), sessionId, logPath, session,
                        started, startNanos);
            } catch (IOException e) {
                sinks.forEach(ProxySession::discard);
                String message = e instanceof dev.stretto.proxy.upstream.UpstreamStartException
                        ? e.getMessage() : "cannot start the server: " + Retention.describe(e);
                throw new ProxyStartException(message, e);
            } catch (InterruptedException e) {
                tellEnded(config.listener(), result(INTERRUPTED_STATUS, EndReason.INTERRUPTED, null, sessionId, logPath,
                        session, started, startNanos));
                throw e;
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
            } catch (IOException | RuntimeException e) {
                sinks.forEach(ProxySession::discard);
                throw new ProxyStartException("cannot start recording to " + LogWriter.name(sink) + ": "
                        + (e instanceof IOException io ? Retention.describe(io) : String.valueOf(e.getMessage())), e);
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

    private static SessionResult result(int status, EndReason reason, Throwable failure, String sessionId, Path logPath,
                                        Session session, Instant started, long startNanos) {
        long now = System.nanoTime();
        long firstServerLine = session.firstServerLineNanos();
        return new SessionResult(status, reason, failure, sessionId, logPath, session.lineCounts(), started,
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
    static Upstream upstreamFor(ProxyConfig config) {
        UpstreamSpec spec = config.upstream();
        if (spec instanceof UpstreamSpec.Command c) {
            return new ChildProcessUpstream(c, config.host().path(), config.shutdown(), config.subreaper().reaper());
        }
        if (spec instanceof UpstreamSpec.Http h) {
            return new HttpUpstream(h.endpoint(), h.headers());
        }
        if (spec instanceof UpstreamSpec.Streams s) {
            return new StreamUpstream(s.name(), s.fromServer(), s.toServer(), config.shutdown());
        }
        throw new IllegalArgumentException("no upstream for " + spec.getClass().getName());
    }

    /**
     * A path the host gave (the record directory, the context file): a leading {@code ~}
     * expanded, made absolute so messages name it in full. Hosts start the proxy without a
     * shell, in a directory nobody chose.
     *
     * @param what what the path is, for messages ({@code "record directory"})
     * @param kind {@code "directory"} or {@code "file"}, for messages
     * @throws ProxyStartException for {@code ~user}, or a {@code ~} with no home known
     */
    static Path hostPath(Path path, Path home, String what, String kind) throws ProxyStartException {
        if (startsWithOtherUsersHome(path)) {
            throw new ProxyStartException("cannot use the " + what + " " + path + ": only a leading ~ on its own (the"
                    + " home directory) is expanded, not ~user; give the " + kind + "'s full path", null);
        }
        Path expanded = expandHome(path, home);
        if (startsWithTilde(expanded)) {
            throw new ProxyStartException("cannot expand ~ in the " + what + " " + path
                    + ": the home directory is not known (HOME is not set)", null);
        }
        return expanded.toAbsolutePath();
    }

    /**
     * {@code dir} with a leading {@code ~} replaced by {@code home}: hosts start servers
     * without a shell, so nothing else expands it. A {@code ~} with no home known is kept.
     */
    static Path expandHome(Path dir, Path home) {
        if (home == null || !startsWithTilde(dir)) {
            return dir;
        }
        return dir.getNameCount() == 1 ? home : home.resolve(dir.subpath(1, dir.getNameCount()));
    }

    // ~user would need the user database; taken literally it would make a directory named
    // "~user" in whatever directory the host started the proxy in.
    private static boolean startsWithOtherUsersHome(Path dir) {
        if (dir.isAbsolute() || dir.getNameCount() == 0) {
            return false;
        }
        String first = dir.getName(0).toString();
        return first.length() > 1 && first.startsWith("~");
    }

    private static boolean startsWithTilde(Path dir) {
        return !dir.isAbsolute() && dir.getNameCount() > 0 && dir.getName(0).toString().equals("~");
    }
}
