package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.JudgeVerdict;
import dev.stretto.cli.console.source.Judgments;
import dev.stretto.proxy.flow.wire.FlowLogFile;
import dev.stretto.proxy.judge.ConfirmLogFile;
import dev.stretto.proxy.redact.CommandRedactor;
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
 * page that touches proxy-core's own packages.
 */
final class ConsoleSessionSource {

    List<FlowRun> flowRuns(Path flowLog) throws IOException {
        List<FlowRun> runs = new ArrayList<>();
        for (FlowLogFile.Run r : FlowLogFile.read(flowLog).runs()) {
            List<FlowRun.Decision> decisions = new ArrayList<>();
            for (FlowLogFile.Decided d : r.decisions()) {
                JsonNode policy = d.policy();
                decisions.add(new FlowRun.Decision(d.address(), d.site(), d.lookup(), d.tool(), d.arguments(),
                        d.reason(), d.prob(), d.binding(), outcome(d, r.run()), d.shadow(),
                        policy == null ? null : policy.path("propensity").asDouble(),
                        policy != null && policy.path("explored").asBoolean(), d.key(), d.ms()));
            }
            FlowLogFile.RunLine line = r.run();
            runs.add(new FlowRun(FlowLogPrinter.text(r.after()), line == null ? null : line.call(),
                    line != null && line.failed(), decisions, line == null ? null : r.lookupsMade(),
                    line == null ? null : line.surprise() == 0 ? 0.0 : line.surprise()));
        }
        return runs;
    }

    /** What became of a decision, from its run line, as {@code stretto flow} marks it. */
    private static FlowRun.Outcome outcome(FlowLogFile.Decided d, FlowLogFile.RunLine run) {
        if (!d.lookup()) {
            return FlowRun.Outcome.HANDED_BACK;
        }
        if (run == null) {
            return FlowRun.Outcome.UNKNOWN;
        }
        JsonNode value = run.valueAt(d.address());
        if (value == null || !value.isInt() || value.intValue() == 0) {
            return FlowRun.Outcome.NOT_MADE;
        }
        JsonNode ok = run.valueAt("outcome" + d.address().substring("decide".length()));
        if (ok == null) {
            return FlowRun.Outcome.NO_ANSWER;
        }
        return ok.asBoolean() ? FlowRun.Outcome.MADE : FlowRun.Outcome.FAILED;
    }

    Judgments judgments(Path judgeLog, Timeline timeline) throws IOException {
        List<ConfirmLogFile.Judged> all = ConfirmLogFile.read(judgeLog).judgments();
        JudgedCalls placed = JudgedCalls.of(timeline, all);
        Map<Timeline.Call, List<JudgeVerdict>> byCall = new IdentityHashMap<>();
        for (Timeline.Call c : timeline.calls()) {
            List<ConfirmLogFile.Judged> of = placed.of(c);
            if (!of.isEmpty()) {
                byCall.put(c, of.stream().map(ConsoleSessionSource::verdict).toList());
            }
        }
        return new Judgments(byCall, placed.unplaced().stream().map(ConsoleSessionSource::verdict).toList(),
                all.size());
    }

    /** One judgment, with the verdict {@code stretto show} prints for it. */
    private static JudgeVerdict verdict(ConfirmLogFile.Judged j) {
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
        return CommandRedactor.redact(command);
    }
}
