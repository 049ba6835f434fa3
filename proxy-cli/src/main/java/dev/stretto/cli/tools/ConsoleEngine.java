package dev.stretto.cli.tools;

import dev.stretto.cli.console.source.FlowReport;
import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.GuardReplay;
import dev.stretto.cli.console.source.Judgments;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;

/**
 * The console's {@link ProxyEngine}: the flow log, judge log, flow file and guards read with
 * the same code {@code stretto flow}, {@code show}, {@code flow-show} and {@code guards} use,
 * turned into the console's records. It only hands each question to the class of the page
 * that asks it ({@code ConsoleSessionSource}, {@code ConsoleFlowSource}, {@code
 * ConsoleGuardSource}), the only classes of the console that touch proxy-core's own packages.
 */
public final class ConsoleEngine implements ProxyEngine {

    private final ConsoleSessionSource sessions = new ConsoleSessionSource();
    private final ConsoleFlowSource flows = new ConsoleFlowSource();
    private final ConsoleGuardSource guards = new ConsoleGuardSource();

    /** An engine; it holds nothing. */
    public ConsoleEngine() {
    }

    @Override
    public List<FlowRun> flowRuns(Path flowLog) throws IOException {
        return sessions.flowRuns(flowLog);
    }

    @Override
    public Judgments judgments(Path judgeLog, Timeline timeline) throws IOException {
        return sessions.judgments(judgeLog, timeline);
    }

    @Override
    public List<String> redactCommand(List<String> command) {
        return sessions.redactCommand(command);
    }

    @Override
    public FlowReport flow(Path flowFile, String name) throws IOException {
        return flows.flow(flowFile, name);
    }

    @Override
    public Set<String> guardedDomains() {
        return guards.guardedDomains();
    }

    @Override
    public GuardReplay guards(SessionLog log) {
        return guards.guards(log);
    }
}
