package dev.stretto.cli.tools;

import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.LogFormatException;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import dev.stretto.trace.tau2.Tau2Simulation;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * The {@code stretto} command's logic, runnable in-process with any streams: parses the
 * arguments, runs one subcommand and returns the exit status. Errors become one line on
 * {@code err}; nothing here exits the JVM.
 */
public final class Stretto {

    /** The version {@code --version} prints. */
    public static final String VERSION = "0.1.0";
    /** Success. */
    public static final int EXIT_OK = 0;
    /** A file is missing, unreadable or not a session log. */
    public static final int EXIT_BAD_INPUT = 1;
    /** The command line is wrong. */
    public static final int EXIT_USAGE = 2;

    private static final String EXIT_CODES = """
            Exit status:
              0  success
              1  a file is missing, cannot be read, or is not a session log
                 (stderr: stretto: <file>:<line>: <reason>)
              2  usage error (stderr: stretto: <what is wrong> (see ... --help))
            """;

    private static final String HELP = """
            Usage: stretto <command> [options] [args]

            Offline tools for the session logs stretto-proxy records with --record.

            Commands:
              show LOG             print a session as a timeline: the conversation, each
                                   turn with its calls, results and timings
              episode LOG|DIR...   print the sessions' episodes as JSON lines
              manifest LOG|DIR     print the tools the sessions listed, as a manifest file
              sessions DIR         list the sessions under DIR as a table
              guards LOG|DIR...    replay the sessions' writes through the policy guards of
                                   their domain: each rule's verdict, and what it would refuse

            Options:
              -h, --help     show this help (also after any command)
              --version      print the version

            """ + EXIT_CODES;

    private static final String SHOW_HELP = """
            Usage: stretto show [--json] LOG

            Prints one session as a timeline: what the user and the assistant said (when the
            proxy was given the conversation with --context), and each inferred LLM turn with
            its calls: the tool, its arguments, how long it took and its result shortened to
            one line. Failed calls are marked ERROR, calls the proxy itself refused REFUSED,
            calls of stretto_commit COMMIT (each part of the commit's result on a line of its
            own), the calls a commit made BY COMMIT, and the proxy's own lookups (ids
            stretto-N) LOOKUP. Times are milliseconds after the proxy started. Colours are used only on a terminal, and never when NO_COLOR
            is set.

            Options:
              --json       print the session's episode (JSON) instead
              -h, --help   show this help

            """ + EXIT_CODES;

    private static final String EPISODE_HELP = """
            Usage: stretto episode [--tau2] LOG|DIR...

            Prints each session's episode, one JSON object per line, in the order given (the
            logs of a directory sorted by name, *.flow.jsonl and *.confirm.jsonl skipped).
            The reward is 0.0: a log cannot tell whether the task succeeded.

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
              --domain NAME   the manifest's domain (default: the first log's domain, else mcp)
              -h, --help      show this help

            """ + EXIT_CODES;

    private static final String SESSIONS_HELP = """
            Usage: stretto sessions DIR

            Lists every session log under DIR (subdirectories too), oldest first: start time
            (UTC), session id, domain, agent model, calls, failed calls, turns and duration.

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

    private Stretto() {
    }

    /** Runs without colours; see {@link #run(String[], PrintStream, PrintStream, boolean)}. */
    public static int run(String[] args, PrintStream out, PrintStream err) {
        return run(args, out, err, false);
    }

    /**
     * Runs one {@code stretto} command line.
     *
     * @param args   the arguments after the program name
     * @param out    where results go
     * @param err    where errors go, one line each
     * @param colour whether {@code show} may use ANSI colours (the caller decides: a terminal
     *               and no NO_COLOR)
     * @return the exit status: {@link #EXIT_OK}, {@link #EXIT_BAD_INPUT} or {@link #EXIT_USAGE}
     */
    public static int run(String[] args, PrintStream out, PrintStream err, boolean colour) {
        try {
            return dispatch(args, out, colour);
        } catch (UsageException e) {
            err.println(e.line());
            return EXIT_USAGE;
        } catch (LogFormatException e) {
            err.println("stretto: " + e.getMessage());
            return EXIT_BAD_INPUT;
        } catch (NoSuchFileException e) {
            err.println("stretto: " + e.getFile() + ": no such file or directory");
            return EXIT_BAD_INPUT;
        } catch (AccessDeniedException e) {
            err.println("stretto: " + e.getFile() + ": permission denied");
            return EXIT_BAD_INPUT;
        } catch (IOException e) {
            err.println("stretto: " + oneLine(e.getMessage() == null ? e.toString() : e.getMessage()));
            return EXIT_BAD_INPUT;
        }
    }

    private static String oneLine(String s) {
        return s.replaceAll("\\s*\\R\\s*", " ");
    }

    private static int dispatch(String[] args, PrintStream out, boolean colour) throws UsageException, IOException {
        if (args.length == 0) {
            throw new UsageException(null, "no command given");
        }
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
                Args a = Args.parse(command, args, 1, Set.of("--json", "--help", "-h"), Set.of());
                if (helpAsked(a, out, SHOW_HELP)) {
                    return EXIT_OK;
                }
                Path log = single(command, a, "LOG");
                Timeline timeline = Timeline.of(readLog(log));
                if (a.has("--json")) {
                    out.println(timeline.episode().toJson());
                } else {
                    new TimelinePrinter(out, colour).print(timeline);
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
                for (SessionLog log : readAll(a.operands())) {
                    Timeline timeline = Timeline.of(log);
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
                List<SessionLog> logs = readAll(List.of(source.toString()));
                String domain = a.values().get("--domain");
                if (domain == null) {
                    domain = logs.stream().map(l -> l.header().domain()).filter(d -> d != null).findFirst().orElse("mcp");
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
                for (Path p : SessionLog.logFilesRecursively(dir)) {
                    timelines.add(Timeline.of(readLog(p)));
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
                if (domain != null && Guards.forDomain(domain).isEmpty()) {
                    throw new UsageException(command, "no guards for " + domain + " (domains with guards: "
                            + Guards.domainNames() + ")");
                }
                GuardsReport report = new GuardsReport(out, a.has("--json"));
                for (SessionLog log : readAll(a.operands())) {
                    report.session(log, domain);
                }
                report.summary();
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

    private static boolean helpAsked(Args a, PrintStream out, String help) {
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
    private static List<SessionLog> readAll(List<String> operands) throws IOException {
        List<SessionLog> logs = new ArrayList<>();
        for (String o : operands) {
            Path p = Path.of(o);
            if (Files.isDirectory(p)) {
                logs.addAll(SessionLog.readDirectory(p));
            } else {
                logs.add(readLog(p));
            }
        }
        return logs;
    }

    /**
     * Reads one log file. The JDK's own message for some failures (a directory read as a
     * file) does not name the file, so every failure here is made to.
     */
    private static SessionLog readLog(Path p) throws IOException {
        if (Files.isDirectory(p)) {
            throw new IOException(p + ": is a directory, not a session log");
        }
        try {
            return SessionLog.read(p);
        } catch (FileSystemException | LogFormatException namesItsFile) {
            throw namesItsFile;
        } catch (IOException e) {
            throw new IOException(p + ": " + (e.getMessage() == null ? e.toString() : e.getMessage()), e);
        }
    }
}
