package dev.stretto.cli.console.source;

import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * What the console asks of the proxy's own formats and rules, which live in proxy-core: the
 * flow log and the judge's log beside a session, a flow file as {@code stretto flow-show}
 * prints it, and a session's writes replayed through the policy guards as {@code stretto
 * guards} does. Everything comes back as the console's own records, so that this one
 * interface is all that changes when those formats are read through another API.
 */
public interface ProxyEngine {

    /**
     * Reads a flow log.
     *
     * @param flowLog the {@code <session>.flow.jsonl} file
     * @return its runs, in log order
     * @throws IOException when it cannot be read or is not a flow log
     */
    List<FlowRun> flowRuns(Path flowLog) throws IOException;

    /**
     * Reads the judge's log of a session and places each judgment on the call it judged.
     *
     * @param judgeLog the {@code <session>.confirm.jsonl} file
     * @param timeline the session
     * @return the judgments
     * @throws IOException when it cannot be read or is not a judge's log
     */
    Judgments judgments(Path judgeLog, Timeline timeline) throws IOException;

    /**
     * Reads a flow file.
     *
     * @param flowFile the {@code *.flow.json} file
     * @param name     how to name it in the text
     * @return what {@code stretto flow-show} prints of it, and what sessions are matched by
     * @throws IOException when it cannot be read or is not a flow
     */
    FlowReport flow(Path flowFile, String name) throws IOException;

    /** {@return the domains that have policy guards} */
    Set<String> guardedDomains();

    /**
     * Replays a session's writes through the guards of its domain.
     *
     * @param log the session
     * @return the verdicts, or a replay that says why there are none
     */
    GuardReplay guards(SessionLog log);

    /**
     * The server command of a log header with credential-looking values redacted again (logs of
     * older versions may hold what they missed).
     *
     * @param command the header's command
     * @return the command to show
     */
    List<String> redactCommand(List<String> command);
}
