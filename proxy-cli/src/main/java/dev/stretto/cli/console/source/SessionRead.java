package dev.stretto.cli.console.source;

import dev.stretto.proxy.Approvals;
import dev.stretto.proxy.PendingApproval;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * One session as read from its files: the log, its timeline, and what the flow and the judge
 * logged beside it. A flow or judge log that cannot be read leaves the session readable: its
 * problem is kept, for the page to say.
 *
 * @param found        where it was found
 * @param log          the log
 * @param timeline     its timeline
 * @param lineNumbers  the file line number of each entry
 * @param runs         the flow's runs, or null when there is no flow log
 * @param runsProblem  why the flow log could not be read, or null
 * @param judgments    the judge's verdicts ({@link Judgments#NONE} without a judge's log)
 * @param judgeProblem why the judge's log could not be read, or null
 * @param verdicts     the policy's verdicts in the log, in its order (none without a policy)
 */
public record SessionRead(Found found, SessionLog log, Timeline timeline, int[] lineNumbers, List<FlowRun> runs,
                          String runsProblem, Judgments judgments, String judgeProblem, List<PolicyVerdict> verdicts) {

    /** Checks the record. */
    public SessionRead {
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(log, "log");
        Objects.requireNonNull(timeline, "timeline");
        runs = runs == null ? null : List.copyOf(runs);
        Objects.requireNonNull(judgments, "judgments");
        verdicts = List.copyOf(verdicts);
    }

    /**
     * Reads a session found by a scan.
     *
     * @param found  the session
     * @param engine reads the flow and judge logs
     * @return the session
     * @throws IOException when the session log cannot be read or is not one (the message says
     *                     where and why)
     */
    public static SessionRead of(Found found, ProxyEngine engine) throws IOException {
        return of(found, engine, readFile(found.path()), found.key().relative());
    }

    /**
     * Reads a session log named on the command line ({@code stretto show --html}), which may be
     * a symbolic link, with the files beside it.
     *
     * @param file   the log, as given
     * @param engine reads the flow and judge logs
     * @return the session
     * @throws IOException when the log cannot be read or is not one
     */
    public static SessionRead ofFile(Path file, ProxyEngine engine) throws IOException {
        byte[] content = Files.readAllBytes(file);
        String name = file.getFileName() == null ? file.toString() : file.getFileName().toString();
        Found found = new Found(new FileKey(0, name), file, new FileState(content.length, 0),
                FileState.of(Found.beside(file, ".flow.jsonl")), FileState.of(Found.beside(file, ".confirm.jsonl")));
        return of(found, engine, content, file.toString());
    }

    private static SessionRead of(Found found, ProxyEngine engine, byte[] content, String name) throws IOException {
        SessionLog log = SessionLog.parse(content, name);
        Timeline timeline = Timeline.of(log, Timeline.TurnRule.AGENT);
        List<FlowRun> runs = null;
        String runsProblem = null;
        Path flowLog = found.flowLogPath();
        if (Files.isRegularFile(flowLog, LinkOption.NOFOLLOW_LINKS)) {
            try {
                runs = engine.flowRuns(flowLog);
            } catch (IOException | RuntimeException e) {
                runsProblem = problem(e, flowLog);
            }
        }
        Judgments judgments = Judgments.NONE;
        String judgeProblem = null;
        Path judgeLog = found.judgeLogPath();
        if (Files.isRegularFile(judgeLog, LinkOption.NOFOLLOW_LINKS)) {
            try {
                judgments = engine.judgments(judgeLog, timeline);
            } catch (IOException | RuntimeException e) {
                judgeProblem = problem(e, judgeLog);
            }
        }
        return new SessionRead(found, log, timeline, LogLines.lineNumbers(content), runs, runsProblem, judgments,
                judgeProblem, PolicyVerdict.in(log));
    }

    /** Reads a whole file that must not be a symbolic link. */
    public static byte[] readFile(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file, LinkOption.NOFOLLOW_LINKS)) {
            return in.readAllBytes();
        }
    }

    /** {@return the lines of the log mapped to the timeline's items} */
    public LogLines lines() {
        return LogLines.of(log, lineNumbers, timeline);
    }

    /** {@return whether the proxy that records this session is still running} */
    public boolean recording() {
        return Recording.isRecording(log.header().session(), log.header().startedUnixMs());
    }

    /**
     * The calls that wait beside the session log {@code log}, when its proxy runs ({@code
     * recording}); none when it does not, or they cannot be read.
     *
     * @param log       the session log
     * @param recording whether its proxy still runs
     * @return the calls, oldest first
     */
    public static List<PendingApproval> pendingBeside(Path log, boolean recording) {
        Path dir = Approvals.besideSessionLog(log);
        if (!recording || !Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try {
            return Approvals.pending(dir);
        } catch (IOException e) {
            // Settled and removed meanwhile.
            return List.of();
        }
    }

    /** The reason an I/O failure gives, naming the file by its name only. */
    private static String problem(Exception e, Path file) {
        String m = e instanceof IOException io ? Scan.describe(io) : String.valueOf(e.getMessage());
        // The readers' messages name the file by its whole path; the name is enough here.
        return m.replace(file.toString(), file.getFileName().toString());
    }
}
