package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.console.source.FlowReport;
import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.GuardReplay;
import dev.stretto.cli.console.source.JudgeVerdict;
import dev.stretto.cli.console.source.Judgments;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.wire.FlowLogFile;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.guard.Judgement;
import dev.stretto.proxy.guard.Replay;
import dev.stretto.proxy.judge.ConfirmLogFile;
import dev.stretto.proxy.record.CommandRedactor;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * The console's {@link ProxyEngine}: the flow log, judge log, flow file and guards read with
 * the same code {@code stretto flow}, {@code show}, {@code flow-show} and {@code guards} use,
 * turned into the console's records. The one place the console touches proxy-core.
 */
public final class ConsoleEngine implements ProxyEngine {

    /** An engine; it holds nothing. */
    public ConsoleEngine() {
    }

    @Override
    public List<FlowRun> flowRuns(Path flowLog) throws IOException {
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

    @Override
    public Judgments judgments(Path judgeLog, Timeline timeline) throws IOException {
        List<ConfirmLogFile.Judged> all = ConfirmLogFile.read(judgeLog).judgments();
        JudgedCalls placed = JudgedCalls.of(timeline, all);
        Map<Timeline.Call, List<JudgeVerdict>> byCall = new IdentityHashMap<>();
        for (Timeline.Call c : timeline.calls()) {
            List<ConfirmLogFile.Judged> of = placed.of(c);
            if (!of.isEmpty()) {
                byCall.put(c, of.stream().map(ConsoleEngine::verdict).toList());
            }
        }
        return new Judgments(byCall, placed.unplaced().stream().map(ConsoleEngine::verdict).toList(), all.size());
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

    @Override
    public FlowReport flow(Path flowFile, String name) throws IOException {
        Flow flow = FlowFile.read(flowFile);
        ByteArrayOutputStream text = new ByteArrayOutputStream();
        try (PrintStream out = new PrintStream(text, true, StandardCharsets.UTF_8)) {
            new FlowShow(out).print(name, flow);
        }
        return new FlowReport(text.toString(StandardCharsets.UTF_8), flow.manifest().domain(),
                flow.manifest().tools().keySet(), flow.provenance().compiledUnixMs(), flow.promoted() != null);
    }

    @Override
    public Set<String> guardedDomains() {
        Set<String> names = new TreeSet<>();
        for (var d : Guards.DOMAINS) {
            names.add(d.name());
        }
        return names;
    }

    @Override
    public GuardReplay guards(SessionLog log) {
        String name = log.header().domain();
        Optional<Guards> guards = name == null ? Optional.empty() : Guards.forDomain(name);
        if (guards.isEmpty()) {
            return new GuardReplay(null, name == null ? "the log names no domain" : "no guards for " + name,
                    List.of(), List.of());
        }
        List<GuardReplay.Rule> rules = new ArrayList<>();
        Map<String, GuardReplay.Rule> byId = new java.util.HashMap<>();
        for (var r : guards.get().domain().rules()) {
            GuardReplay.Rule rule = new GuardReplay.Rule(r.id(), r.enforced());
            rules.add(rule);
            byId.put(r.id(), rule);
        }
        List<GuardReplay.Write> writes = new ArrayList<>();
        for (Replay.Write w : Replay.of(log, guards.get())) {
            List<GuardReplay.RuleVerdict> verdicts = new ArrayList<>();
            for (Judgement.Checked c : w.judgement().verdicts()) {
                GuardReplay.Rule rule = byId.getOrDefault(c.rule().id(),
                        new GuardReplay.Rule(c.rule().id(), c.rule().enforced()));
                verdicts.add(new GuardReplay.RuleVerdict(rule, c.verdict().word(), c.verdict().reason()));
            }
            writes.add(new GuardReplay.Write(w.tMs(), w.call().id(), w.call().name(), w.call().arguments(),
                    w.from() == Source.PROXY, w.judgement().refused(), verdicts));
        }
        return new GuardReplay(guards.get().domain().name(), null, rules, writes);
    }

    @Override
    public List<String> redactCommand(List<String> command) {
        return CommandRedactor.redact(command);
    }
}
