package dev.stretto.cli.tools;

import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.JudgeVerdict;
import dev.stretto.cli.console.source.Judgments;
import dev.stretto.proxy.ConfirmLog;
import dev.stretto.proxy.JudgedCalls;
import dev.stretto.proxy.Redaction;
import dev.stretto.proxy.flow.FlowLog;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the console's session page (and the sessions list's counts) read through proxy-core:
 * the flow log and the judge's log beside a session, read as {@code stretto flow} and {@code
 * stretto show} read them, and the header's server command redacted. The one class of that
 * page that touches proxy-core.
 */
final class ConsoleSessionSource {

    List<FlowRun> flowRuns(Path flowLog) throws IOException {
        List<FlowRun> runs = new ArrayList<>();
        for (FlowLog.Run r : FlowLog.read(flowLog).runs()) {
            List<FlowRun.Decision> decisions = new ArrayList<>();
            for (FlowLog.Decided d : r.decisions()) {
                decisions.add(new FlowRun.Decision(d.address(), d.site(), d.lookup(), d.tool(), d.arguments(),
                        d.reason(), d.prob(), d.binding(), d.outcome(r.run()), d.shadow(), d.propensity(),
                        d.explored(), d.key(), d.ms()));
            }
            FlowLog.RunLine line = r.run();
            runs.add(new FlowRun(r.callId(), line == null ? null : line.call(),
                    line != null && line.failed(), decisions, line == null ? null : r.lookupsMade(),
                    line == null ? null : line.surprise() == 0 ? 0.0 : line.surprise()));
        }
        return runs;
    }

    Judgments judgments(Path judgeLog, Timeline timeline) throws IOException {
        List<ConfirmLog.Judged> all = ConfirmLog.read(judgeLog).judgments();
        JudgedCalls placed = JudgedCalls.of(timeline, all);
        Map<Timeline.Call, List<JudgeVerdict>> byCall = new IdentityHashMap<>();
        for (Timeline.Call c : timeline.calls()) {
            List<ConfirmLog.Judged> of = placed.of(c);
            if (!of.isEmpty()) {
                byCall.put(c, of.stream().map(ConsoleSessionSource::verdict).toList());
            }
        }
        return new Judgments(byCall, placed.unplaced().stream().map(ConsoleSessionSource::verdict).toList(),
                all.size());
    }

    /** One judgment, with the verdict {@code stretto show} prints for it. */
    private static JudgeVerdict verdict(ConfirmLog.Judged j) {
        JudgeVerdict.Outcome outcome;
        String detail = null;
        if (j.refused()) {
            outcome = JudgeVerdict.Outcome.REFUSED;
        } else if (j.fails()) {
            outcome = JudgeVerdict.Outcome.LOGGED_ONLY;
        } else if (j.skipped() != null) {
            outcome = JudgeVerdict.Outcome.SKIPPED;
            detail = j.skipped();
        } else if (j.unknown()) {
            outcome = JudgeVerdict.Outcome.NO_ANSWER;
            detail = j.error() == null ? "unknown" : j.error();
        } else {
            outcome = JudgeVerdict.Outcome.AGREED;
        }
        List<String> flags = new ArrayList<>();
        for (var flag : j.proposalCheck()) {
            flags.add(flag.argument() + " " + CanonicalJson.write(flag.value())
                    + " is from a record the customer did not choose");
        }
        return new JudgeVerdict(j.tool(), j.arguments(), outcome, j.pYes(), j.pSecond(), j.secondShadow(),
                j.wordList(), j.ms(), detail, flags);
    }

    List<String> redactCommand(List<String> command) {
        return Redaction.command(command);
    }
}
