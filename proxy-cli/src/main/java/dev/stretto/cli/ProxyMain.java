package dev.stretto.cli;

import dev.stretto.proxy.ActiveSettings;
import dev.stretto.proxy.FlowSettings;
import dev.stretto.proxy.HostEnvironment;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import dev.stretto.proxy.Policy;
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
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.function.UnaryOperator;

/**
 * {@code stretto-proxy}: runs one proxy session between the MCP host on this process's
 * stdin/stdout and the server: the command after {@code --}, or the Streamable HTTP endpoint
 * of {@code --upstream URL}; with {@code --listen}, a session for each host that connects
 * over HTTP ({@link ListenCommand}).
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

    /**
     * How long the end of the command waits for its messages while stderr takes none: a host
     * that never reads the proxy's stderr must not keep it from exiting.
     */
    static final Duration STDERR_STALL = Duration.ofSeconds(1);

    static final String USAGE_TEXT = """
            Usage: stretto-proxy [OPTIONS] -- SERVER_COMMAND...
                   stretto-proxy [OPTIONS] --upstream URL [--upstream-header NAME=VAR]...
                   stretto-proxy --listen HOST:PORT [OPTIONS] (-- SERVER_COMMAND... | --upstream URL)

            Runs an MCP server (SERVER_COMMAND) as a child process and forwards every line
            between it and the MCP host on stdin/stdout, byte for byte. With --upstream, the
            server is a Streamable HTTP endpoint instead: each line from the host is POSTed
            to URL and the server's answers come back as lines. With --record, each line is
            also written to a session log.

            Active mode (--policy, --guards, --commit, --context, --flow, --confirm-judge): the proxy
            reads what crosses it and acts on it; every line it does not act on is still
            forwarded byte for byte.

            Options:
              --upstream URL      proxy the MCP server at URL (http or https) instead of
                                  starting SERVER_COMMAND
              --upstream-header NAME=VAR
                                  send header NAME on every request, with the value of the
                                  environment variable VAR (never logged); repeatable

            Signing in (OAuth), for an --upstream server that answers 401: the proxy follows
            the MCP authorization spec (discovery, registration, PKCE, a browser sign-in with
            a callback on 127.0.0.1), prints the sign-in URL on stderr, opens the browser, and
            keeps the tokens in ~/.stretto/auth (stretto login/logout/auth list). The host's
            requests wait meanwhile. Not with an Authorization of --upstream-header's own.
              --oauth-client-id ID
                                  a client registered beforehand (else a metadata document
                                  or dynamic registration)
              --oauth-client-secret-file FILE
                                  the file holding that client's secret
              --oauth-client-key-file FILE
                                  a PKCS #8 private key (EC, RSA, Ed25519) to authenticate
                                  with a signed JWT (private_key_jwt) instead of a secret
              --oauth-client-metadata-url URL
                                  the https URL of the client's metadata document, used as
                                  the client id where the server takes such documents
              --oauth-client-credentials
                                  a machine client: tokens from the client credentials grant
                                  (needs the id and a secret or key), no browser
              --oauth-scope SCOPES
                                  ask for these scopes (spaces or commas between) instead of
                                  those the server names
              --oauth-callback-port PORT
                                  the callback's port (default: the registered one, else any)
              --oauth-browser CMD run CMD URL to show the sign-in page (default: $BROWSER,
                                  open or xdg-open); STRETTO_OAUTH_BROWSER sets it too
              --oauth-no-browser  open nothing: the URL is only printed
              --oauth-timeout SECONDS
                                  how long the requests wait for a sign-in (default 300)
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
                                  STRETTO_LOG_LEVEL variable sets it too; the URL to sign
                                  in at (OAuth) is printed at every level
              --shutdown-grace SECONDS
                                  how long the server may take to exit after the host
                                  closed stdin before it gets SIGTERM (default 2; SIGKILL
                                  follows 2 s later); raise it for servers with slow calls
              --policy FILE       apply the policy in FILE (JSON, or YAML for .yaml/.yml) to
                                  any server: rules that allow, log, ask a person
                                  (stretto approve/deny), deny or hide tools by name, the
                                  server's hints and the arguments; budgets; tools pinned
                                  as first listed; the server's own requests
                                  (docs/policy.md). A policy with a problem is a usage
                                  error naming its file and line
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

            Hosts over HTTP (--listen and the options after it; each of them needs --listen):
              --listen HOST:PORT  serve MCP's Streamable HTTP transport at http://HOST:PORT/mcp
                                  instead of one host on stdin/stdout: each host session
                                  (made by its initialize) gets a server of its own (a
                                  child, or its own session with --upstream), its own log
                                  and, in active mode, its own actor. The URL goes to
                                  stdout. A PORT alone listens on 127.0.0.1; another
                                  address lets other machines connect; port 0 takes a
                                  free one
              --listen-token-file FILE
                                  every request needs Authorization: Bearer TOKEN, TOKEN
                                  being what FILE holds
              --listen-idle MINUTES
                                  end a session no request has used for MINUTES (default
                                  240; 0 keeps idle sessions)
              --listen-origin ORIGIN
                                  let pages of ORIGIN (https://app.example.com) connect
                                  too; loopback origins always may; repeatable
              --listen-max-sessions N
                                  at most N sessions at once (default 256)
              With --listen, {session} in --context, --flow-log and --confirm-log is the
              host's session (its Stretto-Session header) or else the MCP session id.
              SIGTERM and SIGINT end every session as they end one on stdio, then the
              proxy exits 0; 125 when it cannot listen on the address (stderr says why).

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
              STRETTO_OAUTH_BROWSER
                                  the command that opens the sign-in page, as --oauth-browser
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
        System.setOut(System.err);
        SignalShutdown shutdown = SignalShutdown.install(Thread.currentThread());
        int status = command(args, shutdown, new FileInputStream(FileDescriptor.in),
                new FileOutputStream(FileDescriptor.out), textOut);
        if (shutdown.signalled()) {
            // The JVM is shutting down already and exits with 128 + the signal's number.
            return;
        }
        System.exit(status);
    }

    /**
     * The command as {@link #main} runs it, short of the exit: {@code shutdown} is the signals'
     * hook for this thread's session; returns the exit status.
     */
    static int command(String[] args, SignalShutdown shutdown, InputStream in, OutputStream out,
                       PrintStream textOut) {
        // The server is started through a Subreaper that is never enabled: the server is marked
        // (STRETTO_SERVER_TREE), and whatever it leaves behind is found by that mark among every
        // process when the session ends the server's tree. The proxy does not make itself a child
        // subreaper: prctl needs the FFM linker, whose start-up cost about 200 ms of processor and
        // 12 MB of resident memory (measured), while the mark finds the same processes from the
        // server's first instant.
        Subreaper subreaper = new Subreaper();
        try {
            return run(args, System.getenv(), in, out, textOut,
                    ProcessHandle.current().parent().map(ProcessHandle::pid).orElse(-1L), subreaper,
                    shutdown::messages, shutdown::listening);
        } finally {
            shutdown.sessionEnded();
            textOut.flush();
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

    /** As below, with nothing to run once a listener serves. */
    static int run(String[] args, Map<String, String> env, InputStream in, OutputStream out, PrintStream textOut,
                   long parentPid, Subreaper subreaper, Consumer<ProxyMessages> beforeSession) {
        return run(args, env, in, out, textOut, parentPid, subreaper, beforeSession, () -> {
        });
    }

    /**
     * As above, giving {@code beforeSession} the command's message handler when the arguments
     * ask for a session (or for a listener), and running {@code listening} once a listener
     * serves: from then on a signal ends it with status 0. Returns once the messages are on stderr (or it has taken none for
     * {@link #STDERR_STALL}).
     */
    static int run(String[] args, Map<String, String> env, InputStream in, OutputStream out,
                           PrintStream textOut, long parentPid, Subreaper subreaper,
                           Consumer<ProxyMessages> beforeSession, Runnable listening) {
        ProxyArgs.Parsed parsed = ProxyArgs.parse(Arrays.asList(args));
        ProxyMessages messages = messages(parsed instanceof ProxyArgs.Run(ProxyOptions o) ? o.logLevel()
                : parsed instanceof ProxyArgs.Listen(ProxyOptions o, ListenOptions l) ? o.logLevel() : null, env);
        AtomicInteger status = new AtomicInteger();
        // Whatever the library says outside the session (reading a flow, say) goes to the same handler.
        Proxy.runWith(messages, () -> status.set(command(parsed, messages, env, in, out, textOut, parentPid,
                subreaper, beforeSession, listening)));
        StderrMessages.flush(STDERR_STALL);
        return status.get();
    }

    private static int command(ProxyArgs.Parsed parsed, ProxyMessages messages, Map<String, String> env,
                               InputStream in, OutputStream out, PrintStream textOut, long parentPid,
                               Subreaper subreaper, Consumer<ProxyMessages> beforeSession, Runnable listening) {
        // if/instanceof rather than a pattern switch: the switch's bootstrap costs about
        // 100 ms at start-up, and IDEs start the proxy often.
        if (parsed instanceof ProxyArgs.Run(ProxyOptions options)) {
            beforeSession.accept(messages);
            return session(options, messages, env, HostEnvironment.of(env, parentPid), in, out, subreaper);
        }
        if (parsed instanceof ProxyArgs.Listen(ProxyOptions options, ListenOptions listen)) {
            beforeSession.accept(messages);
            return ListenCommand.run(options, listen, messages, env, HostEnvironment.of(env, parentPid), textOut,
                    subreaper, listening);
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

    static int usageError(ProxyMessages messages, String message) {
        messages.message(ProxyMessages.Level.ERROR, message);
        messages.message(ProxyMessages.Level.ERROR, "try 'stretto-proxy --help'");
        return USAGE;
    }

    private static int session(ProxyOptions options, ProxyMessages messages, Map<String, String> env,
                               HostEnvironment host, InputStream in, OutputStream out, Subreaper subreaper) {
        Setup setup;
        try {
            setup = setup(options, messages, env, host);
        } catch (SetupFailure e) {
            return e.status;
        }
        try (Oracle oracle = setup.oracle()) {
            SessionResult result = Proxy.run(config(options, setup, host, subreaper, messages, path -> path), in, out);
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
     * What every session of the command shares, made once: the server, the flow read, the
     * oracle opened (the caller closes it once its sessions have ended) and the policy read
     * (null for none).
     */
    record Setup(UpstreamSpec server, FlowSetup flow, Oracle oracle, Policy policy) {
    }

    /** The command cannot run its sessions; the user has been told why. */
    static final class SetupFailure extends Exception {
        final int status;

        SetupFailure(int status) {
            super(null, null, false, false);
            this.status = status;
        }
    }

    static Setup setup(ProxyOptions options, ProxyMessages messages, Map<String, String> env, HostEnvironment host)
            throws SetupFailure {
        UpstreamSpec server;
        try {
            server = options.server().spec(env);
        } catch (ServerChoice.UsageError e) {
            throw new SetupFailure(usageError(messages, e.getMessage()));
        }
        ProxyOptions.Active a = options.active();
        Policy policy = null;
        if (a != null && a.policy() != null) {
            try {
                policy = PolicySetup.read(a.policy(), host);
            } catch (PolicySetup.Failure e) {
                e.lines().forEach(line -> messages.message(ProxyMessages.Level.ERROR, line));
                messages.message(ProxyMessages.Level.ERROR, "try 'stretto-proxy --help'");
                throw new SetupFailure(USAGE);
            }
        }
        FlowSetup flow = null;
        if (a != null && a.flow() != null) {
            try {
                flow = FlowSetup.of(a.flow(), a.oracle(), env, host);
            } catch (FlowSetup.Failure e) {
                if (e.usage()) {
                    throw new SetupFailure(usageError(messages, e.getMessage()));
                }
                messages.message(ProxyMessages.Level.ERROR, e.getMessage());
                throw new SetupFailure(PROXY_FAILED);
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
                throw new SetupFailure(usageError(messages, e.getMessage()));
            }
        }
        return new Setup(server, flow, sessionOracle, policy);
    }

    /**
     * One session's configuration, its files ({@code --context}, {@code --flow-log}, {@code
     * --confirm-log}) placed by {@code place} (a listener's session has files of its own).
     */
    static ProxyConfig config(ProxyOptions options, Setup setup, HostEnvironment host, Subreaper subreaper,
                              ProxyMessages messages, UnaryOperator<Path> place) {
        ProxyConfig.Builder config = ProxyConfig.builder(setup.server())
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
        if (options.active() != null) {
            config.active(activeSettings(options, setup, place));
        }
        return config.build();
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
     * and that the judge has the guards and the conversation), serving the setup's flow when
     * it is given, both it and the judge asking the setup's oracle, applying its policy; the
     * files placed by {@code place}.
     */
    private static ActiveSettings activeSettings(ProxyOptions options, Setup setup, UnaryOperator<Path> place) {
        ProxyOptions.Active a = options.active();
        ActiveSettings.Builder mode = ActiveSettings.builder().commit(a.commit());
        if (a.guards()) {
            mode.guards(options.domain());
        }
        if (a.context() != null) {
            mode.context(place.apply(a.context()));
        }
        if (setup.flow() != null) {
            FlowSettings served = setup.flow().served();
            mode.flow(served.log() == null ? served : served.withLog(place.apply(served.log())));
        }
        if (a.judge() != null) {
            JudgeSettings judge = a.judge();
            mode.judge(judge.log() == null ? judge : judge.withLog(place.apply(judge.log())));
        }
        if (setup.oracle() != null) {
            mode.oracle(setup.oracle());
        }
        if (setup.policy() != null) {
            mode.policy(setup.policy());
        }
        return mode.build();
    }

    /**
     * The command's messages: stderr at the level of {@code --log-level}, else of {@code
     * STRETTO_LOG_LEVEL}, else info; for {@code off}, only the prompts (the URL to sign in at,
     * which the person cannot do without).
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
        ProxyMessages messages = "off".equals(level) ? StderrMessages.promptsOnly()
                : StderrMessages.at(level == null ? ProxyMessages.Level.INFO
                        : ProxyMessages.Level.valueOf(level.toUpperCase(Locale.ROOT)));
        if (badEnv) {
            messages.message(ProxyMessages.Level.WARN, "ignoring STRETTO_LOG_LEVEL=" + fromEnv
                    + ": use trace, debug, info, warn, error or off");
        }
        return messages;
    }
}
