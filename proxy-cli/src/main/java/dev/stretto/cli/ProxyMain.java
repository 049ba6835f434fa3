package dev.stretto.cli;

import dev.stretto.proxy.ActiveSettings;
import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.StderrMessages;
import dev.stretto.proxy.Subreaper;
import dev.stretto.proxy.UpstreamSpec;
import java.io.FileDescriptor;
import java.io.FileInputStream;
import java.io.FileOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;

/**
 * {@code stretto-proxy}: runs one proxy session between the MCP host on this process's
 * stdin/stdout and the server: the command after {@code --}, or the Streamable HTTP endpoint
 * of {@code --upstream URL}.
 *
 * <p>stdout carries only the protocol (and the text of {@code --help}/{@code --version});
 * every message of the proxy goes to stderr as {@code stretto-proxy: ...}, through the
 * library's {@link StderrMessages} at the level of {@code --log-level}.
 * Exit status: the server's (128 + n when signal n ended it; 0 for an HTTP server), 125 when
 * the proxy could not start the session, 2 for a usage error, 128 + n when signal n stopped
 * the proxy itself (see {@link SignalShutdown}).
 */
public final class ProxyMain {

    /** The version {@code --version} prints. */
    static final String VERSION = Version.CURRENT;

    /** Exit status for a usage error. */
    static final int USAGE = 2;

    /** Exit status when the proxy itself fails. */
    static final int PROXY_FAILED = 125;

    /** How often the processes the server left behind that have exited are reaped. */
    static final Duration REAP_INTERVAL = Duration.ofSeconds(5);

    /** How long after the server's start the proxy makes itself a subreaper at the latest. */
    static final Duration REAPER_DELAY_MAX = Duration.ofSeconds(1);

    /**
     * How long the end of the command waits for its messages while stderr takes none: a host
     * that never reads the proxy's stderr must not keep it from exiting.
     */
    static final Duration STDERR_STALL = Duration.ofSeconds(1);

    static final String USAGE_TEXT = """
            Usage: stretto-proxy [OPTIONS] -- SERVER_COMMAND...
                   stretto-proxy [OPTIONS] --upstream URL [--upstream-header NAME=VAR]...

            Runs an MCP server (SERVER_COMMAND) as a child process and forwards every line
            between it and the MCP host on stdin/stdout, byte for byte. With --upstream, the
            server is a Streamable HTTP endpoint instead: each line from the host is POSTed
            to URL and the server's answers come back as lines. With --record, each line is
            also written to a session log.

            Active mode (--guards, --commit, --context, --flow, --confirm-judge): the proxy
            reads what crosses it and acts on it; every line it does not act on is still
            forwarded byte for byte.

            Options:
              --upstream URL      proxy the MCP server at URL (http or https) instead of
                                  starting SERVER_COMMAND
              --upstream-header NAME=VAR
                                  send header NAME on every request, with the value of the
                                  environment variable VAR (never logged); repeatable
              --record DIR        write one log per session to DIR/<session>.jsonl (DIR is
                                  created if missing, for its owner only; a leading ~ is
                                  the home directory)
              --record-sync       write each line to the log and force it to disk (fsync)
                                  before forwarding it, so that after a crash of the
                                  proxy (kill -9) or a power cut every line the host or
                                  the server got is in the log; lines that come together
                                  share one fsync. Without it, a kill -9 can cost the log
                                  up to 1,024 lines (or 64 MiB) still queued and 256 KiB
                                  buffered (docs/proxy.md). Needs --record
              --domain NAME       copy NAME into the log header's "domain"
              --agent-model MODEL copy MODEL into the log header's "agent_model"
              --retain-days N     at start, delete the proxy's own files (<session>.jsonl,
                                  .flow.jsonl, .confirm.jsonl) older than N days under the
                                  --record directory, except those of running sessions,
                                  and the answers as old in the oracle's cache (jev,
                                  replay); stderr says how many
              --log-level LEVEL   trace, debug, info (default), warn, error or off; the
                                  STRETTO_LOG_LEVEL variable sets it too
              --shutdown-grace SECONDS
                                  how long the server may take to exit after the host
                                  closed stdin before it gets SIGTERM (default 2; SIGKILL
                                  follows 2 s later); raise it for servers with slow calls
              --guards            check each of the agent's tool calls against the policy
                                  guards of --domain (retail or airline) before the server
                                  sees it; a call a rule refuses never reaches the server,
                                  and the agent gets an error result saying why
              --commit            add the tool stretto_commit: it makes several calls in
                                  order, each checked first, and stops at the first that
                                  is refused or fails
              --context FILE      the conversation: the host appends one JSON line per
                                  message, {"role":"user"|"assistant","content":"..."};
                                  new lines are logged before each of the agent's calls
              -h, --help          print this help and exit
              -V, --version       print the version and exit

            Flows (--flow and the options after it; each of them needs --flow):
              --flow FILE         serve the flow in FILE (a *.flow.json of stretto learn):
                                  after each of the agent's tool calls, make the read-only
                                  lookups the agent would make next, and hand their results
                                  back with the call's answer
              --flow-decider NAME arbiter, habit or reach (default: the flow's arbiter if it
                                  has one, else reach if it has reach counts, else habit)
              --flow-threshold P  how likely a lookup must be, times how often its arguments'
                                  binding matched the agent, to be made (0 to 1; default 0.3)
              --flow-per-call N   at most N lookups after one call (default 8)
              --flow-per-session N
                                  at most N lookups in the session (default 40)
              --flow-questions N  at most N System-One questions in the session (default 300)
              --flow-tools A,B    look up only these tools (repeatable; default: every read
                                  tool of the flow that the server does not list as a write)
              --flow-shadow       decide and log, but look nothing up: the host gets the
                                  server's answers unchanged (for stretto promote)
              --flow-explore EPSILON
                                  with probability EPSILON (0 to 1), take another lookup that
                                  binds than the rule's, and log each decision's propensity
              --flow-explore-seed N
                                  the seed of those draws (default 0)
              --flow-log FILE     append each decision there (default <session>.flow.jsonl
                                  next to the session log; without --record, none unless
                                  given)
              --task-id ID        the task, which picks the arbiter's fold (default: the
                                  session id)

            The confirmation judge (--confirm-judge and the options after it; each of them
            needs --confirm-judge):
              --confirm-judge log|enforce
                                  ask the System-One model whether the customer explicitly
                                  agreed to each write the guards check for a
                                  confirmation, once the guards let it through: log
                                  records each judgment, enforce also refuses a write the
                                  model says was not agreed to. Needs --guards and
                                  --context. A judge that cannot answer (no key, a replay
                                  miss, an error, its questions spent) refuses nothing
              --confirm-threshold P
                                  an answer below P (0 to 1; default 0.5) is a no
              --confirm-second proposed|described
                                  also ask whether the agent had proposed (or described)
                                  this change; a write then needs both answers yes
              --confirm-second-shadow
                                  only log the second answer; it does not count
              --confirm-questions N
                                  at most N questions in the session (default 100); later
                                  writes are logged as skipped and refused by nothing
              --confirm-log FILE  append each judgment there (default <session>.confirm.jsonl
                                  next to the session log; without --record, none unless
                                  given)

            The System-One oracle, for a flow's arbiter and for the judge:
              --oracle MODE       who answers: jev (the System-One service, which gets
                                  excerpts of the conversation; the default), replay (the
                                  answer cache only) or mock (fixed answers, no network)
              --oracle-cache DIR  the answer cache (default ~/.stretto/oracle-cache)

            Options take their value as the next argument or after '=' (--record=DIR).

            Environment:
              STRETTO_LOG_LEVEL   the level of the proxy's messages, as --log-level
              STRETTO_SESSION     the log header's "host_session" (else host-<parent pid>):
                                  set it to group the logs of one host's servers
              HOME                what a leading ~ of --record, --context, --flow,
                                  --flow-log, --confirm-log and --oracle-cache expands to
              PATH                where SERVER_COMMAND is looked up
              VAR                 each variable named by --upstream-header NAME=VAR
              TYPESAFE_API_KEY, TYPESAFE_API_KEY_FILE
                                  the System-One key, or a file holding it (--oracle jev,
                                  read only when a flow's arbiter or the judge will ask)
              TYPESAFE_BASE_URL   the System-One service (default https://api.typesafe.ai)
              TYPESAFE_DEFAULT_MODEL
                                  the model the questions name (default jev-latest)
              SSL_CERT_FILE       certificates to trust besides the JDK's, for the service
              STRETTO_JAVA_OPTS   extra JVM options (the bin/stretto-proxy launcher)
              STRETTO_AOT=0       no start-up cache (the bin/stretto-proxy launcher)
            The server inherits the proxy's environment unchanged, but for one variable the
            proxy adds: STRETTO_SERVER_TREE, by which it knows the processes the server
            leaves behind.

            Messages go to stderr, prefixed "stretto-proxy: ". Exit status: the server's
            (128 + n if signal n ended it, the proxy's own SIGTERM or SIGKILL after
            --shutdown-grace included, which stderr then says; 0 for --upstream once the
            session has ended),
            125 if the proxy could not start the session, a flow it cannot read or serve
            included (no log is left then), 2 for a usage error (a TypeSafe key missing
            where a flow's arbiter would ask included). SIGTERM, SIGINT and SIGHUP end the
            session normally: the log is written out, the server and everything it started
            are ended, and the proxy exits with 128 + the signal (143, 130, 129).

            Example host configurations:
              "command": "stretto-proxy",
              "args": ["--record", "~/.stretto/logs", "--domain", "orders",
                       "--", "npx", "-y", "some-mcp-server"]

              "command": "stretto-proxy",
              "args": ["--record", "~/.stretto/logs", "--upstream", "https://example.com/mcp",
                       "--upstream-header", "Authorization=ORDERS_AUTH"],
              "env": { "ORDERS_AUTH": "Bearer ..." }
            """;

    private ProxyMain() {
    }

    /**
     * Runs the proxy and exits with its status; on SIGTERM, SIGINT or SIGHUP, once the session
     * has stopped, with 128 + the signal's number (see {@link SignalShutdown}).
     */
    public static void main(String[] args) {
        // Keep the real stdout for the protocol only; anything else that prints to
        // System.out (a library, by mistake) ends up on stderr instead.
        PrintStream textOut = System.out;
        CountDownLatch hostAnswered = new CountDownLatch(1);
        OutputStream protocolOut = new FirstWriteSignal(new FileOutputStream(FileDescriptor.out), hostAnswered);
        System.setOut(System.err);
        SignalShutdown shutdown = SignalShutdown.install(Thread.currentThread());
        // The proxy is the only program in this process, so it may make it a child subreaper.
        // Off the start-up path, on a thread of its own. The setting only matters once a process
        // of the server's loses its parent, and the FFM linker it needs takes tens of ms of
        // processor to start (measured: about 100 ms more to the server's first answer on 2 busy
        // cores when it ran beside the server's own start-up), so it waits for the server's first
        // answer to reach the host, or REAPER_DELAY_MAX after the server's start at the latest.
        Subreaper subreaper = new Subreaper();
        Consumer<ProxyMessages> startReaper = messages -> {
            shutdown.messages(messages);
            CountDownLatch serverStarted = new CountDownLatch(1);
            subreaper.afterFirstStart(serverStarted::countDown);
            Thread.ofPlatform().daemon().name("stretto-subreaper").start(() -> Proxy.runWith(messages, () -> {
                try {
                    serverStarted.await();
                    hostAnswered.await(REAPER_DELAY_MAX.toMillis(), TimeUnit.MILLISECONDS);
                } catch (InterruptedException e) {
                    return;
                }
                keepReaping(subreaper);
            }));
        };
        int status;
        try {
            status = run(args, System.getenv(), new FileInputStream(FileDescriptor.in), protocolOut, textOut,
                    ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L), subreaper, startReaper);
        } finally {
            shutdown.sessionEnded();
        }
        textOut.flush();
        if (shutdown.signalled()) {
            // The JVM is shutting down already and exits with 128 + the signal's number.
            return;
        }
        System.exit(status);
    }

    /**
     * Makes the process a child subreaper, then reaps, every {@link #REAP_INTERVAL}, the
     * processes the server left behind that have exited since: no zombies pile up in a long
     * session. Runs on a daemon thread for the life of the process.
     */
    private static void keepReaping(Subreaper subreaper) {
        if (!subreaper.enable()) {
            return;
        }
        try {
            while (true) {
                Thread.sleep(REAP_INTERVAL);
                subreaper.reapOrphans();
            }
        } catch (InterruptedException e) {
            // Nobody interrupts it; the JVM's exit ends it.
        }
    }

    /**
     * The whole command, minus the process exit: parses {@code args}, then runs a session
     * between {@code in}/{@code out}, printing help or version text on {@code textOut}.
     *
     * @return the exit status
     */
    static int run(String[] args, Map<String, String> env, InputStream in, OutputStream out, PrintStream textOut,
                   long parentPid, Subreaper subreaper) {
        return run(args, env, in, out, textOut, parentPid, subreaper, messages -> {
        });
    }

    /**
     * As above, giving {@code beforeSession} the command's message handler when the arguments
     * ask for a session. Returns once the messages are on stderr (or it has taken none for
     * {@link #STDERR_STALL}).
     */
    static int run(String[] args, Map<String, String> env, InputStream in, OutputStream out,
                           PrintStream textOut, long parentPid, Subreaper subreaper,
                           Consumer<ProxyMessages> beforeSession) {
        ProxyArgs.Parsed parsed = ProxyArgs.parse(Arrays.asList(args));
        ProxyMessages messages = messages(parsed instanceof ProxyArgs.Run(ProxyOptions o) ? o.logLevel() : null, env);
        AtomicInteger status = new AtomicInteger();
        // Whatever the library says outside the session (reading a flow, say) goes to the same handler.
        Proxy.runWith(messages, () -> status.set(command(parsed, messages, env, in, out, textOut, parentPid,
                subreaper, beforeSession)));
        StderrMessages.flush(STDERR_STALL);
        return status.get();
    }

    private static int command(ProxyArgs.Parsed parsed, ProxyMessages messages, Map<String, String> env,
                               InputStream in, OutputStream out, PrintStream textOut, long parentPid,
                               Subreaper subreaper, Consumer<ProxyMessages> beforeSession) {
        // if/instanceof rather than a pattern switch: the switch's bootstrap costs about
        // 100 ms at start-up, and IDEs start the proxy often.
        if (parsed instanceof ProxyArgs.Run(ProxyOptions options)) {
            beforeSession.accept(messages);
            return session(options, messages, env, HostEnvironment.of(env, parentPid), in, out, subreaper);
        }
        if (parsed instanceof ProxyArgs.Invalid(String message)) {
            return usageError(messages, message);
        }
        if (parsed instanceof ProxyArgs.Version) {
            textOut.println("stretto-proxy " + VERSION);
        } else {
            textOut.print(USAGE_TEXT);
        }
        textOut.flush();
        return 0;
    }

    private static int usageError(ProxyMessages messages, String message) {
        messages.message(ProxyMessages.Level.ERROR, message);
        messages.message(ProxyMessages.Level.ERROR, "try 'stretto-proxy --help'");
        return USAGE;
    }

    private static int session(ProxyOptions options, ProxyMessages messages, Map<String, String> env,
                               HostEnvironment host, InputStream in, OutputStream out, Subreaper subreaper) {
        UpstreamSpec server;
        try {
            server = options.server().spec(env);
        } catch (ServerChoice.UsageError e) {
            return usageError(messages, e.getMessage());
        }
        ProxyConfig.Builder config = ProxyConfig.builder(server)
                .record(options.record())
                .recordSync(options.recordSync())
                .domain(options.domain())
                .agentModel(options.agentModel())
                .host(host)
                .subreaper(subreaper)
                .messages(messages);
        if (options.retainDays() != null) {
            config.retainDays(options.retainDays());
        }
        if (options.shutdownGrace() != null) {
            config.shutdown(new ShutdownTimings(options.shutdownGrace(), ShutdownTimings.DEFAULT.termGrace()));
        }
        ProxyOptions.Active a = options.active();
        FlowSetup flow = null;
        if (a != null && a.flow() != null) {
            try {
                flow = FlowSetup.of(a.flow(), a.oracle(), env, host);
            } catch (FlowSetup.Failure e) {
                if (e.usage()) {
                    return usageError(messages, e.getMessage());
                }
                messages.message(ProxyMessages.Level.ERROR, e.getMessage());
                return PROXY_FAILED;
            }
        }
        Oracle sessionOracle = flow == null ? null : flow.oracle();
        if (a != null && a.judge() != null) {
            try {
                OracleSettings.Builder fromEnvironment = OracleEnvironment.read(env, a.oracle().mode());
                if (sessionOracle == null) {
                    sessionOracle = SessionOracle.open(SessionOracle.settings(fromEnvironment, a.oracle(), host));
                }
                if (a.oracle().mode() == OracleMode.JEV && !OracleEnvironment.keyGiven(env)) {
                    messages.message(ProxyMessages.Level.WARN, "no TypeSafe API key is set (" + OracleEnvironment.API_KEY
                            + " or " + OracleEnvironment.API_KEY_FILE + "): the confirmation judge cannot ask System-One"
                            + " and refuses nothing; set one, or answer from the cache with --oracle replay");
                }
            } catch (IllegalArgumentException e) {
                if (sessionOracle != null) {
                    sessionOracle.close();
                }
                return usageError(messages, e.getMessage());
            }
        }
        if (a != null) {
            config.active(activeSettings(options, flow, sessionOracle));
        }
        try (Oracle oracle = sessionOracle) {
            SessionResult result = Proxy.run(config.build(), in, out);
            sayWhoEndedTheServer(messages, result);
            return result.exitStatus();
        } catch (ProxyStartException e) {
            messages.message(ProxyMessages.Level.ERROR, e.getMessage());
            return PROXY_FAILED;
        } catch (InterruptedException e) {
            // A signal stopped the session (SignalShutdown): the log is complete, the server ended.
            if (messages.enabled(ProxyMessages.Level.DEBUG)) {
                messages.message(ProxyMessages.Level.DEBUG, "stopped by a signal");
            }
            return PROXY_FAILED;
        }
    }

    /**
     * The proxy's own part in the exit status, when it ended the server: an exit status of 143
     * could be the server's, another process's signal, or the proxy's shutdown ladder.
     */
    private static void sayWhoEndedTheServer(ProxyMessages messages, SessionResult result) {
        String what = switch (result.serverEnd()) {
            case FINISHED -> null;
            case TERMINATED -> "the proxy ended the server with SIGTERM";
            case KILLED -> "the proxy ended the server with SIGKILL";
            case CUT_OFF -> "the proxy stopped waiting for the server before it had finished";
        };
        if (what != null) {
            messages.message(ProxyMessages.Level.INFO, what + "; exit status " + result.exitStatus());
        }
    }

    /**
     * Active mode as the options ask for it (ProxyArgs has checked that the domain has guards,
     * and that the judge has the guards and the conversation), serving {@code flow} when it is
     * given, both it and the judge asking {@code oracle}.
     */
    private static ActiveSettings activeSettings(ProxyOptions options, FlowSetup flow, Oracle oracle) {
        ProxyOptions.Active a = options.active();
        ActiveSettings.Builder mode = ActiveSettings.builder().commit(a.commit());
        if (a.guards()) {
            mode.guards(options.domain());
        }
        if (a.context() != null) {
            mode.context(a.context());
        }
        if (flow != null) {
            mode.flow(flow.served());
        }
        if (a.judge() != null) {
            mode.judge(a.judge());
        }
        if (oracle != null) {
            mode.oracle(oracle);
        }
        return mode.build();
    }

    /**
     * The command's messages: stderr at the level of {@code --log-level}, else of {@code
     * STRETTO_LOG_LEVEL}, else info; nowhere for {@code off}.
     */
    private static ProxyMessages messages(String optionLevel, Map<String, String> env) {
        String level = optionLevel;
        String fromEnv = env.get("STRETTO_LOG_LEVEL");
        boolean badEnv = false;
        if (level == null && fromEnv != null && !fromEnv.isBlank()) {
            level = fromEnv.strip().toLowerCase(Locale.ROOT);
            if (!ProxyArgs.LEVELS.contains(level)) {
                badEnv = true;
                level = null;
            }
        }
        ProxyMessages messages = "off".equals(level) ? ProxyMessages.discard()
                : StderrMessages.at(level == null ? ProxyMessages.Level.INFO
                        : ProxyMessages.Level.valueOf(level.toUpperCase(Locale.ROOT)));
        if (badEnv) {
            messages.message(ProxyMessages.Level.WARN, "ignoring STRETTO_LOG_LEVEL=" + fromEnv
                    + ": use trace, debug, info, warn, error or off");
        }
        return messages;
    }
}
