package dev.stretto.cli.console.html;

import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.JudgeVerdict;
import dev.stretto.cli.console.source.LogLines;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * One call of a session's timeline: a line that says what it was and what came back (marks for
 * errors, refusals with their rule, commits, lookups, judged writes), which opens onto its
 * arguments and result pretty-printed, the calls a commit made, the judge's verdicts and its log
 * lines; then what the flow did after it.
 */
final class CallCard {

    /**
     * The rule a refusal names: {@code (policy check retail.cancel_reason)} of the guards, {@code
     * (policy rule confined)} or {@code (policy budget calls)} of a policy, {@code (policy pinning)}.
     */
    private static final Pattern POLICY_RULE = Pattern.compile("\\(policy (?:check |rule |budget )?([^)\\s]+)\\)");
    /** The judge's mark in a refusal: {@code (confirmation judge: p_yes 0.15)}. */
    private static final Pattern JUDGE_RULE = Pattern.compile("\\(confirmation judge: ([^)]*)\\)");

    private final SessionRead read;
    private final LogLines lines;
    private final Map<Timeline.Call, Integer> index;
    private final Map<String, Deque<FlowRun>> runs;
    private final boolean recording;

    /**
     * @param index each call's place in the session, which names its element
     * @param runs  the flow's runs not shown yet, by the id of the call each followed
     */
    CallCard(SessionRead read, LogLines lines, Map<Timeline.Call, Integer> index, Map<String, Deque<FlowRun>> runs,
             boolean recording) {
        this.read = read;
        this.lines = lines;
        this.index = index;
        this.runs = runs;
        this.recording = recording;
    }

    void write(Html m, Timeline.Turn turn, Timeline.Call c) {
        String kind = Waterfall.kind(turn, c);
        int n = index.get(c);
        m.open("li", "class", "call " + kind);
        m.open("details", "class", "call", "id", "c" + n);
        summary(m, turn, c);
        m.open("div", "class", "c-body");
        m.open("div", "class", "c-sec").el("h4", "Arguments");
        Blocks.json(m, c.arguments(), null);
        m.close("div");
        result(m, c);
        if (c.isCommit()) {
            commitCalls(m, turn, c);
        }
        for (JudgeVerdict v : read.judgments().of(c)) {
            JudgeView.write(m, v);
        }
        for (PolicyVerdict v : verdicts(c)) {
            PolicyView.write(m, v);
        }
        List<LogLines.Line> raw = new ArrayList<>();
        if (lines.request(c) != null) {
            raw.add(lines.request(c));
        }
        raw.addAll(lines.responses(c));
        Blocks.rawLines(m, raw);
        m.close("div");
        m.close("details");
        Deque<FlowRun> followed = c.from() == Source.CLIENT ? runs.get(c.id()) : null;
        if (followed != null && !followed.isEmpty()) {
            FlowRunView.write(m, followed.poll(), false);
        }
        m.close("li");
    }

    private void summary(Html m, Timeline.Turn turn, Timeline.Call c) {
        m.open("summary");
        m.open("span", "class", "c-main");
        m.el("span", c.sentMs() + " ms", "class", "c-time");
        m.el("span", c.name().isEmpty() ? "(no name)" : c.name(), "class", "c-name");
        m.el("span", Format.oneLine(JsonView.compact(c.arguments()), 140), "class", "c-args");
        m.open("span", "class", "c-marks");
        if (c.isCommit()) {
            Badges.mark(m, "COMMIT", "purple", "stretto_commit: the proxy made the calls it lists, each checked first");
        } else if (turn.commitOf(c) != null) {
            Badges.mark(m, "BY COMMIT", "purple", "a call the proxy made for a stretto_commit");
        } else if (c.isLookup()) {
            Badges.mark(m, "LOOKUP", "amber", "a lookup the flow made for the agent (id " + c.id() + ")");
        }
        if (c.isRefused()) {
            Badges.mark(m, "REFUSED", "red", "the proxy refused the call: the server never saw it");
        } else if (c.result() != null && c.result().error()) {
            Badges.mark(m, "ERROR", "red", "the call came back as an error");
        }
        if (!read.judgments().of(c).isEmpty()) {
            Badges.mark(m, "JUDGED", "green", "the confirmation judge judged this write");
        }
        List<PolicyVerdict> policy = verdicts(c);
        if (!policy.isEmpty() && !c.isRefused()) {
            PolicyVerdict last = policy.getLast();
            Badges.mark(m, last.answer() == PolicyVerdict.Answer.WAITING ? "HELD" : "POLICY", "amber",
                    PolicyView.verdict(last));
        }
        m.close("span");
        m.el("span", c.result() != null ? Format.duration(c.durationMs()) : "", "class", "c-dur");
        m.close("span");
        m.open("span", "class", "c-line2");
        if (c.result() != null) {
            String text = c.result().content();
            if (c.isRefused()) {
                String rule = refusalRule(text);
                if (rule != null) {
                    m.el("span", rule, "class", "rule");
                }
                m.el("span", Format.oneLine(text, 240), "class", "c-err");
            } else if (c.result().error()) {
                m.el("span", "\u2192 " + Format.oneLine(text, 200), "class", "c-err");
            } else {
                m.el("span", "\u2192 " + Format.oneLine(text, 200), "class", "c-res");
            }
        } else if (c.cancelledMs() != null) {
            m.el("span", "cancelled by the host after " + Format.duration(c.cancelledMs() - c.sentMs()) + ", no result",
                    "class", "c-warn");
        } else if (c.replaced()) {
            m.el("span", "replaced by a later call with the same id, no result", "class", "c-warn");
        } else {
            m.el("span", recording ? "waiting for the result\u2026" : "no answer", "class", "c-warn");
        }
        m.el("span", "id " + c.id(), "class", "c-id");
        m.close("span");
        m.close("summary");
    }

    /** The policy's verdicts on {@code c}, in log order. */
    private List<PolicyVerdict> verdicts(Timeline.Call c) {
        return read.verdicts().stream().filter(v -> v.kind() == PolicyVerdict.Kind.CALL && c.id().equals(v.id()))
                .toList();
    }

    /** The rule a refusal names, from its text. */
    static String refusalRule(String text) {
        Matcher m = POLICY_RULE.matcher(text);
        String rule = null;
        while (m.find()) {
            rule = m.group(1);
        }
        if (rule != null) {
            return rule.endsWith(".") ? rule.substring(0, rule.length() - 1) : rule;
        }
        Matcher j = JUDGE_RULE.matcher(text);
        return j.find() ? "confirmation judge" : null;
    }

    private void result(Html m, Timeline.Call c) {
        Timeline.Result r = c.result();
        if (r == null) {
            return;
        }
        m.open("div", "class", "c-sec");
        m.open("h4").text(c.isRefused() ? "Refusal" : r.error() ? "Error" : "Result");
        m.el("small", (r.from() == Source.PROXY ? "from the proxy" : "from the server") + " at " + r.tMs() + " ms",
                "class", "dim");
        m.close("h4");
        if (c.isCommit()) {
            m.open("ol", "class", "parts");
            for (String part : r.content().split("\n\n")) {
                m.el("li", part);
            }
            m.close("ol");
        } else {
            Blocks.content(m, r.content(), r.error() ? "err" : null);
        }
        m.close("div");
    }

    private void commitCalls(Html m, Timeline.Turn turn, Timeline.Call commit) {
        List<Timeline.Call> made = turn.calls().stream().filter(c -> turn.commitOf(c) == commit).toList();
        m.open("div", "class", "c-sec");
        m.el("h4", made.isEmpty() ? "The commit made no call" : "Calls the commit made");
        if (!made.isEmpty()) {
            m.open("ol", "class", "calls nested");
            for (Timeline.Call c : made) {
                write(m, turn, c);
            }
            m.close("ol");
        }
        m.close("div");
    }
}
