package dev.stretto.cli.tools;

import dev.stretto.cli.init.InitCli;
import dev.stretto.proxy.ActiveSettings;
import dev.stretto.proxy.ConfirmLog;
import dev.stretto.proxy.JudgedCalls;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowLog;
import dev.stretto.proxy.flow.FlowView;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.LogFormatException;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import dev.stretto.trace.tau2.Tau2Simulation;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The {@code stretto} command's logic, runnable in-process with any streams: parses the
 * arguments, runs one subcommand and returns the exit status. Errors become one line on
 * {@code err}; nothing here exits the JVM.
 */
public final class Stretto {

    /** The version {@code --version} prints. */
    public static final String VERSION = dev.stretto.cli.Version.CURRENT;
    /** Success. */
    public static final int EXIT_OK = 0;
    /**
     * A file named on the command line is missing, unreadable or not a session log, or none
     * of a directory's logs can be read.
     */
    public static final int EXIT_BAD_INPUT = 1;
    /** The command line is wrong. */
    public static final int EXIT_USAGE = 2;

    private static final String EXIT_CODES = """
            Exit status:
              0  success, also when some logs of a directory could not be read: each of
                 those is named on stderr and skipped (stretto: <file>:<line>: <reason>
                 (skipped)), and the others are used
              1  a file named on the command line is missing, cannot be read, or is not a
                 session log (stderr: stretto: <file>:<line>: <reason>), or a directory
                 has logs and none of them can be read
              2  usage error (stderr: stretto: <what is wrong> (see ... --help))
            A log whose last line is incomplete (the proxy stopped while writing it, or
            the disk filled) is read without that line, and stderr says so.
            """;

    private static final String HELP = """
            Usage: stretto <command> [options] [args]

            Offline tools for the session logs stretto-proxy records with --record, and the
            entries that put stretto-proxy into an MCP host's config.

            Commands:
              init HOST NAME [OPTIONS] -- SERVER_COMMAND...
                                   print the entry that runs a server through stretto-proxy
                                   for an MCP host (claude-desktop, claude-code, cursor,
                                   vscode, windsurf, codex, json), or with --write put it
                                   into the host's file; --wrap and --unwrap rewrite the
                                   servers a host's file has (see init --help)
              login URL [OPTIONS]  sign in to an MCP server that needs OAuth, once, from a
                                   terminal; the proxies for URL use the login kept
              logout URL|--all     forget the sign-in kept for URL (or every one)
              auth list            list the sign-ins kept: server, scopes, expiry
              show LOG             print a session as a timeline: the conversation, each
                                   turn with its calls, results and timings (--html: the
                                   console's page of it, as one self-contained file)
              console [DIR...]     serve every recorded session in a browser, on 127.0.0.1:
                                   filter the list, follow a session as a timeline, see the
                                   flows and the guards' verdicts (see console --help)
              episode LOG|DIR...   print the sessions' episodes as JSON lines
              manifest LOG|DIR     print the tools the sessions listed, as a manifest file
              sessions DIR         list the sessions under DIR as a table
              guards LOG|DIR...    replay the sessions' writes through the policy guards of
                                   their domain: each rule's verdict, and what it would refuse
              policy check FILE    check a policy (stretto-proxy --policy), each problem at
                                   its line; policy test FILE LOG|DIR... replays sessions
                                   through it (see policy --help)
              pending [DIR]        list the calls a policy holds for a person's approval
              approve ID, deny ID [--reason TEXT]
                                   let a held call go to the server, or refuse it
              learn --sessions DIR --domain NAME --out FILE [--habit-only]
                                   learn a flow from the sessions (see learn --help)
              promote --flow FILE --sessions DIR --out FILE
                                   promote the sites of a flow where the agent used
                                   its lookups in shadow runs (see promote --help)
              redact IN... --out DIR
                                   write pseudonymised copies of session logs to share,
                                   from which learn learns the same flow (see redact --help)
              export-answers --oracle-cache DIR [OUT]
                                   write the oracle's cached answers as JSON lines
              import-answers --oracle-cache DIR [FILE]
                                   add the answers of such a file to a cache
              flow LOG.flow.jsonl  print a flow log: each run after an agent's call, its
                                   decisions, the lookups made and the surprise
              flow-show FLOW       print a flow file: its sites, lookups and bindings,
                                   arbiter and promotion
              evaluate --target NAME=DECIDER@THRESHOLD FILE...
                                   estimate other deciding rules from labelled decisions
                                   logged with --flow-explore (see evaluate --help)

            Options:
              -h, --help       show this help (also after any command)
              -V, --version    print the version

            Examples:
              stretto sessions ~/.stretto/logs
              stretto show ~/.stretto/logs/orders/20261129T124151.069Z-17459.jsonl
              stretto episode --tau2 ~/.stretto/logs/orders > runs.jsonl
              stretto manifest --domain orders ~/.stretto/logs/orders > orders.manifest.json

            show, episode, manifest, sessions and guards exit as below; init, login,
            logout, auth, learn, promote, redact, policy, pending, approve, deny,
            export-answers, import-answers, flow, flow-show, evaluate and console say how
            in their --help.
            """ + EXIT_CODES;

    private static final String SHOW_HELP = """
            Usage: stretto show [--json | --html] LOG

            Prints one session as a timeline: what the user and the assistant said (when the
            proxy was given the conversation with --context), and each inferred LLM turn with
            its calls: the tool, its arguments, how long it took and its result shortened to
            one line. Failed calls are marked ERROR, calls the proxy itself refused REFUSED,
            and the proxy's own lookups (ids stretto-N) LOOKUP: a flow's lookups are in the
            turn of the agent's call they followed, whose answer the proxy held back for them
            (the time with the lookups is beside the call's own). Calls of stretto_commit are
            marked COMMIT (each part of the commit's result on a line of its own), and the
            calls a commit made BY COMMIT. When the confirmation judge's log of the session
            (<session>.confirm.jsonl) is beside LOG, each write it judged gets a line with
            its verdict: the model's answers (p_yes, p_second), whether it refused the call,
            would have in mode enforce (logged only) or could not tell (skipped, no answer),
            and the values its proposal check flagged. Times are milliseconds after the
            proxy started. The heading names the domain, the agent's model when the proxy
            was given --agent-model, and the host's client name from its initialize
            request. Colours are used only on a terminal, and never when NO_COLOR is set.

            When the proxy served a flow, its flow log next to LOG (<session>.flow.jsonl)
            shows under each of the agent's calls what the flow did after it, as 'stretto
            flow' prints it: each decision with its reason and probability, the lookups
            made, the surprise.

            Options:
              --json       print the session's episode (JSON) instead
              --html       print the session as the console's page instead: one HTML file
                           with everything in it (the timeline, every call's arguments and
                           result, the flow's runs, the judge's verdicts, the timings, each
                           item's log line), which loads nothing from anywhere, to attach to
                           a bug report: stretto show --html LOG > session.html
              -h, --help   show this help

            """ + EXIT_CODES;

    private static final String EPISODE_HELP = """
            Usage: stretto episode [--tau2] LOG|DIR...

            Prints each session's episode, one JSON object per line, in the order given (the
            logs of a directory sorted by name, *.flow.jsonl and *.confirm.jsonl skipped).
            The reward is 0.0: a log cannot tell whether the task succeeded. Turns are the
            agent's LLM turns: a flow's lookups are calls of the turn of the agent's call
            they followed, since the agent got their results with that call's answer.

            Options:
              --tau2       print each session in tau2-bench's simulation shape (one
                           SimulationRun per line) instead of stretto's episode
              -h, --help   show this help

            """ + EXIT_CODES;

    private static final String MANIFEST_HELP = """
            Usage: stretto manifest [--domain NAME] LOG|DIR

            Prints the tools the server listed in the session (or in every session of DIR),
            in the manifest file format stretto learn --manifest reads: readOnlyHint true is
            read, false is write, and no hint is generic.

            Options:
              --domain NAME   the manifest's domain (default: the domain in the header of
                              the first log, in name order; mcp when that has none)
              -h, --help      show this help

            """ + EXIT_CODES;

    private static final String SESSIONS_HELP = """
            Usage: stretto sessions DIR

            Lists every session log under DIR (subdirectories too), oldest first: start time
            (UTC), session id, domain, agent model (--agent-model, else -), the host's client
            name (from its initialize request, else -), calls, failed calls, turns and
            duration.

            Options:
              -h, --help   show this help

            """ + EXIT_CODES;

    private static final String GUARDS_HELP = """
            Usage: stretto guards [--domain NAME] [--json] LOG|DIR...

            Replays each recorded session's writes through the policy guards of its domain
            (the log header's domain, or NAME), each against the session as it stood just
            before the write, as stretto-proxy --guards checks it live. Prints, for each
            write, every rule's verdict (pass, fail or unknown) and reason, and whether the
            write would be refused; then a table of how many writes each rule checked,
            passed, failed, could not decide, and would have refused. Domains with guards:
            retail and airline. The .confirmed rules are only logged: they refuse nothing.

            Options:
              --domain NAME   check every session against NAME's guards instead of its own
              --json          print one JSON object per write instead: session, t_ms, id,
                              tool, arguments, refused, and verdicts (rule id -> {"verdict":
                              "pass"} or {"verdict":"fail"|"unknown","reason":...})
              -h, --help      show this help

            """ + EXIT_CODES;

    private static final String FLOW_HELP = """
            Usage: stretto flow LOG.flow.jsonl

            Prints the flow log stretto-proxy writes next to a session log when it serves a
            flow (--flow): one block per run, the agent's call it followed, then each decision
            at its site (the tool just called, "(error)" when it failed): the lookup proposed
            with its arguments, its probability and the chance of its arguments, or the reason
            it handed back. A proposed lookup is marked made, made FAILED, or NOT MADE (in
            shadow mode, or not allowed: --flow-tools, the server's listing, a changed input).
            Each run ends with the lookups it made and its surprise (how unlikely the lookups'
            outcomes were, in nats).

            Options:
              -h, --help   show this help

            Exit status:
              0  success
              1  the file is missing, cannot be read, or is not a flow log
                 (stderr: stretto: <file>:<line>: <reason>)
              2  usage error (stderr: stretto: <what is wrong> (see ... --help))
            """;

    private static final String FLOW_SHOW_HELP = """
            Usage: stretto flow-show FLOW

            Prints a flow file (*.flow.json) as a person reads it: where it was learned and
            from how many sessions; the tools and their kinds (only read tools are looked up)
            with their pinned inputs; the sites, each call after which the flow may look
            something up, with the lookups that followed it in training and how often; each
            lookup's arguments, which are required, where their values come from (the
            earlier result and path, in how many of the training values) and how often the
            flow's binding matched the agent's own arguments; the decider it is served with
            and the per-site thresholds; the arbiter, if any (its model, predicates, and each
            fold's agreement rates and weights); and what stretto promote promoted, with the
            bar.

            Options:
              -h, --help   show this help

            Exit status:
              0  success
              1  the file is missing, cannot be read, or is not a flow this build reads
                 (stderr: stretto: <file>: <reason>)
              2  usage error (stderr: stretto: <what is wrong> (see ... --help))
            """;

    private Stretto() {
    }

    /** Runs without colours; see {@link #run(String[], PrintStream, PrintStream, boolean, boolean)}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, false, false);
    }

    /** Runs without progress bars; see {@link #run(String[], PrintStream, PrintStream, boolean, boolean)}. */
    public static int run(String[] args, PrintStream out, PrintStream err, boolean colour) {
        return run(args, out, err, colour, false);
    }

    /**
     * Runs one {@code stretto} command line.
     *
     * @param args   the arguments after the program name
     * @param out    where results go
     * @param err    where errors go, one line each
     * @param colour whether {@code show} may use ANSI colours (the caller decides: a terminal
     *               and no NO_COLOR)
     * @param bars   whether {@code err} is a terminal, where {@code learn} may draw progress bars
     * @return the exit status: {@link #EXIT_OK}, {@link #EXIT_BAD_INPUT} or {@link #EXIT_USAGE}
     */
    public static int run(String[] args, PrintStream out, PrintStream err, boolean colour, boolean bars) {
        return run(args, InputStream.nullInputStream(), out, err, colour, bars);
    }

    /**
     * Runs one {@code stretto} command line that may read standard input ({@code import-answers}).
     *
     * @param in what the command reads when it is given no file; not closed
     * @see #run(String[], PrintStream, PrintStream, boolean, boolean)
     */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean colour,
                          boolean bars) {
        return run(args, in, out, err, colour, bars, Map.of());
    }

    /**
     * Runs one {@code stretto} command line with an environment: {@code learn} and
     * {@code promote} read the System-One settings from it ({@code TYPESAFE_API_KEY}, ...).
     *
     * @param env the environment variables (the process's own, for the command line)
     * @see #run(String[], InputStream, PrintStream, PrintStream, boolean, boolean)
     */
    public static int run(String[] args, InputStream in, PrintStream out, PrintStream err, boolean colour,
                          boolean bars, Map<String, String> env) {
        try {
            if (args.length > 0 && args[0].equals(LearnCli.COMMAND)) {
                return LearnCli.run(args, out, err, bars, env);
            }
            if (args.length > 0 && args[0].equals(PromoteCli.COMMAND)) {
                return PromoteCli.run(args, out, err, bars, env);
            }
            if (args.length > 0 && args[0].equals(InitCli.COMMAND)) {
                return InitCli.run(args, out, err, env);
            }
            if (args.length > 0 && args[0].equals(LoginCli.COMMAND)) {
                return LoginCli.run(args, out, err, env);
            }
            if (args.length > 0 && args[0].equals(LogoutCli.COMMAND)) {
                return LogoutCli.run(args, out, err, env);
            }
            if (args.length > 0 && args[0].equals(AuthListCli.COMMAND)) {
                return AuthListCli.run(args, out, err, env);
            }
            if (args.length > 0 && args[0].equals(RedactCli.COMMAND)) {
                return RedactCli.run(args, out, err, env);
            }
            if (args.length > 0 && args[0].equals(PolicyCli.COMMAND)) {
                return PolicyCli.run(args, out, err);
            }
            if (args.length > 0 && ApprovalCli.COMMANDS.contains(args[0])) {
                return ApprovalCli.run(args, out, err, env);
            }
            if (args.length > 0 && args[0].equals(ConsoleCli.COMMAND)) {
                return ConsoleCli.run(args, out, err, env);
            }
            return dispatch(args, in, out, err, colour);
        } catch (UsageException e) {
            err.println(e.line());
            return EXIT_USAGE;
        } catch (IOException e) {
            err.println("stretto: " + describe(e));
            return EXIT_BAD_INPUT;
        }
    }

    /** One line saying what is wrong with a file, naming it. */
    static String describe(IOException e) {
        return switch (e) {
            case LogFormatException f -> f.getMessage();
            case NoSuchFileException f -> f.getFile() + ": no such file or directory";
            case AccessDeniedException f -> f.getFile() + ": permission denied";
            case NotDirectoryException f -> f.getFile() + ": not a directory";
            default -> oneLine(e.getMessage() == null ? e.toString() : e.getMessage());
        };
    }

    /**
     * The judgments of the confirm log beside {@code log} ({@code <session>.confirm.jsonl}),
     * placed on the session's calls; none when there is no such file. One that cannot be read
     * is named on stderr and the session is shown without them.
     */
    private static JudgedCalls judgedCalls(Path log, Timeline timeline, PrintStream err) {
        Path confirmLog = ConfirmLog.besideSessionLog(log);
        if (confirmLog.equals(log) || !Files.isRegularFile(confirmLog)) {
            return JudgedCalls.NONE;
        }
        try {
            return JudgedCalls.of(timeline, ConfirmLog.read(confirmLog).judgments());
        } catch (IOException e) {
            err.println("stretto: " + describe(e) + " (the judge's verdicts are left out)");
            return JudgedCalls.NONE;
        }
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ");
    }

    private static int dispatch(String[] args, InputStream in, PrintStream out, PrintStream err, boolean colour)
            throws UsageException, IOException {
        if (args.length == 0) {
            throw new UsageException(null, "no command given");
        }
        LogFiles files = new LogFiles(err);
        String command = args[0];
        switch (command) {
            case "-h", "--help", "help" -> {
                out.print(HELP);
                return EXIT_OK;
            }
            case "--version", "-V" -> {
                out.println("stretto " + VERSION);
                return EXIT_OK;
            }
            case "show" -> {
                Args a = Args.parse(command, args, 1, Set.of("--json", "--html", "--help", "-h"), Set.of());
                if (helpAsked(a, out, SHOW_HELP)) {
                    return EXIT_OK;
                }
                Path log = single(command, a, "LOG");
                if (a.has("--html")) {
                    if (a.has("--json")) {
                        throw new UsageException(command, "--json and --html print different things; give one");
                    }
                    return ShowHtml.print(log, files, out, err, new ConsoleEngine());
                }
                SessionLog sessionLog = files.read(log);
                Timeline timeline = Timeline.of(sessionLog, Timeline.TurnRule.AGENT);
                if (a.has("--json")) {
                    out.println(timeline.episode().toJson());
                } else {
                    new TimelinePrinter(out, colour, flowLogBeside(log, err))
                            .withPolicy(new PolicyLines(PolicyVerdict.in(sessionLog)))
                            .print(timeline, judgedCalls(log, timeline, err));
                }
                return EXIT_OK;
            }
            case "episode" -> {
                Args a = Args.parse(command, args, 1, Set.of("--tau2", "--help", "-h"), Set.of());
                if (helpAsked(a, out, EPISODE_HELP)) {
                    return EXIT_OK;
                }
                if (a.operands().isEmpty()) {
                    throw new UsageException(command, "no LOG given");
                }
                for (SessionLog log : readAll(files, a.operands())) {
                    Timeline timeline = Timeline.of(log, Timeline.TurnRule.AGENT);
                    out.println(a.has("--tau2") ? Tau2Simulation.toJson(timeline, 0.0) : timeline.episode().toJson());
                }
                return EXIT_OK;
            }
            case "manifest" -> {
                Args a = Args.parse(command, args, 1, Set.of("--help", "-h"), Set.of("--domain"));
                if (helpAsked(a, out, MANIFEST_HELP)) {
                    return EXIT_OK;
                }
                Path source = single(command, a, "LOG or DIR");
                List<SessionLog> logs = readAll(files, List.of(source.toString()));
                String domain = a.values().get("--domain");
                if (domain == null) {
                    domain = logs.isEmpty() || logs.getFirst().header().domain() == null
                            ? "mcp" : logs.getFirst().header().domain();
                }
                out.print(Manifest.of(logs, domain).toJson());
                return EXIT_OK;
            }
            case "sessions" -> {
                Args a = Args.parse(command, args, 1, Set.of("--help", "-h"), Set.of());
                if (helpAsked(a, out, SESSIONS_HELP)) {
                    return EXIT_OK;
                }
                Path dir = single(command, a, "DIR");
                if (!Files.isDirectory(dir)) {
                    if (!Files.exists(dir)) {
                        throw new NoSuchFileException(dir.toString());
                    }
                    throw new UsageException(command, dir + " is not a directory");
                }
                List<Timeline> timelines = new ArrayList<>();
                for (SessionLog log : files.readEach(dir, SessionLog.logFilesRecursively(dir))) {
                    timelines.add(Timeline.of(log, Timeline.TurnRule.AGENT));
                }
                timelines.sort(Comparator.comparingLong((Timeline t) -> t.header().startedUnixMs())
                        .thenComparing(t -> t.header().session()));
                new SessionTable(out).print(timelines);
                return EXIT_OK;
            }
            case "guards" -> {
                Args a = Args.parse(command, args, 1, Set.of("--json", "--help", "-h"), Set.of("--domain"));
                if (helpAsked(a, out, GUARDS_HELP)) {
                    return EXIT_OK;
                }
                if (a.operands().isEmpty()) {
                    throw new UsageException(command, "no LOG given");
                }
                String domain = a.values().get("--domain");
                if (domain != null && !ActiveSettings.guardedDomains().contains(domain)) {
                    throw new UsageException(command, "no guards for " + domain + " (domains with guards: "
                            + ActiveSettings.guardedDomainNames() + ")");
                }
                GuardsReport report = new GuardsReport(out, err, a.has("--json"));
                for (SessionLog log : readAll(files, a.operands())) {
                    report.session(log, domain);
                }
                report.summary();
                return EXIT_OK;
            }
            case "export-answers" -> {
                return AnswerTransfer.exportCommand(args, out, err);
            }
            case "import-answers" -> {
                return AnswerTransfer.importCommand(args, in, out, err);
            }
            case "evaluate" -> {
                return EvaluateCli.run(args, out, err);
            }
            case "flow-show" -> {
                Args a = Args.parse(command, args, 1, Set.of("--help", "-h"), Set.of());
                if (helpAsked(a, out, FLOW_SHOW_HELP)) {
                    return EXIT_OK;
                }
                Path flow = single(command, a, "FLOW");
                if (Files.isDirectory(flow)) {
                    throw new IOException(flow + ": is a directory, not a flow");
                }
                new FlowShow(out).print(flow.toString(), FlowView.of(FlowFiles.read(flow)));
                return EXIT_OK;
            }
            case "flow" -> {
                Args a = Args.parse(command, args, 1, Set.of("--help", "-h"), Set.of());
                if (helpAsked(a, out, FLOW_HELP)) {
                    return EXIT_OK;
                }
                Path log = single(command, a, "flow log");
                if (Files.isDirectory(log)) {
                    throw new IOException(log + ": is a directory, not a flow log");
                }
                new FlowLogPrinter(out, colour).print(log.toString(), FlowLog.read(log));
                return EXIT_OK;
            }
            default -> {
                if (command.startsWith("-")) {
                    throw new UsageException(null, "unknown option '" + command + "'");
                }
                throw new UsageException(null, "unknown command '" + command + "'");
            }
        }
    }

    /**
     * The flow log the proxy wrote next to the session log {@code log}, if there is one; one that
     * cannot be read is named on {@code err} and left out.
     */
    private static FlowLog flowLogBeside(Path log, PrintStream err) {
        Path flowLog = FlowLog.besideSessionLog(log);
        if (!Files.isRegularFile(flowLog)) {
            return null;
        }
        try {
            return FlowLog.read(flowLog);
        } catch (IOException e) {
            err.println("stretto: " + e.getMessage() + " (the flow's runs are left out)");
            return null;
        }
    }

    static boolean helpAsked(Args a, PrintStream out, String help) {
        if (a.has("--help") || a.has("-h")) {
            out.print(help);
            return true;
        }
        return false;
    }

    private static Path single(String command, Args a, String what) throws UsageException {
        if (a.operands().isEmpty()) {
            throw new UsageException(command, "no " + what + " given");
        }
        if (a.operands().size() > 1) {
            throw new UsageException(command, "one " + what + " only, got " + a.operands().size());
        }
        return Path.of(a.operands().getFirst());
    }

    /** Reads each operand: a log file, or every log directly in a directory. */
    private static List<SessionLog> readAll(LogFiles files, List<String> operands) throws IOException {
        List<SessionLog> logs = new ArrayList<>();
        for (String o : operands) {
            Path p = Path.of(o);
            if (Files.isDirectory(p)) {
                logs.addAll(files.readDirectly(p));
            } else {
                logs.add(files.read(p));
            }
        }
        return logs;
    }
}
