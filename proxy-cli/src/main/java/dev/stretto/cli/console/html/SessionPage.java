package dev.stretto.cli.console.html;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.console.index.Mode;
import dev.stretto.cli.console.index.SessionSummary;
import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.JudgeVerdict;
import dev.stretto.cli.console.source.LogLines;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.Source;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A session as a timeline: its facts, the calls' timings, then in log order the conversation
 * and each turn with its calls (arguments and result, errors and refusals with the rule,
 * commits with the calls they made, the judge's verdicts), the flow's decisions after each call
 * and every item's log lines. The console serves it, follows it live while it is recorded, and
 * {@code stretto show --html} saves it as one file.
 */
public final class SessionPage {

    /** The rule a refusal names: {@code (policy check retail.cancel_reason)}. */
    private static final Pattern POLICY_RULE = Pattern.compile("\\(policy check ([^)\\s]+)\\)");
    /** The judge's mark in a refusal: {@code (confirmation judge: p_yes 0.15)}. */
    private static final Pattern JUDGE_RULE = Pattern.compile("\\(confirmation judge: ([^)]*)\\)");

    private final SessionRead read;
    private final ProxyEngine engine;
    private final boolean served;
    private final boolean recording;
    private final LogLines lines;
    private final Map<Timeline.Call, Integer> index = new IdentityHashMap<>();
    private final Map<String, Deque<FlowRun>> runs = new HashMap<>();

    private SessionPage(SessionRead read, ProxyEngine engine, boolean served, boolean recording) {
        this.read = read;
        this.engine = engine;
        this.served = served;
        this.recording = recording;
        this.lines = read.lines();
        List<Timeline.Call> calls = read.timeline().calls();
        for (int i = 0; i < calls.size(); i++) {
            index.put(calls.get(i), i);
        }
        if (read.runs() != null) {
            for (FlowRun r : read.runs()) {
                runs.computeIfAbsent(r.after(), k -> new ArrayDeque<>()).add(r);
            }
        }
    }

    /**
     * The page the console serves.
     *
     * @param read      the session
     * @param engine    what redacts the server command
     * @param recording whether its proxy still runs (the page then follows it)
     * @return the document
     */
    public static String served(SessionRead read, ProxyEngine engine, boolean recording) {
        SessionPage p = new SessionPage(read, engine, true, recording);
        Html m = new Html();
        m.open("main", "class", "session", "data-live", recording ? Links.live(read.found().key()) : null);
        m.open("div", "id", "session-body").append(p.body()).close("div");
        m.close("main");
        return Layout.served(read.log().session(), Layout.Section.SESSIONS, m);
    }

    /**
     * What a live page replaces its body with when the log grows.
     *
     * @param read      the session as it is now
     * @param engine    what redacts the server command
     * @param recording whether its proxy still runs
     * @return the body's inner HTML
     */
    public static String fragment(SessionRead read, ProxyEngine engine, boolean recording) {
        return new SessionPage(read, engine, true, recording).body().toString();
    }

    /**
     * The page as one file ({@code stretto show --html}).
     *
     * @param read   the session
     * @param engine what redacts the server command
     * @return the document
     */
    public static String file(SessionRead read, ProxyEngine engine) {
        SessionPage p = new SessionPage(read, engine, false, false);
        Html m = new Html();
        m.open("main", "class", "session").open("div", "id", "session-body").append(p.body()).close("div").close("main");
        return Layout.file(read.log().session(), m);
    }

    private Html body() {
        Html m = new Html();
        head(m);
        Waterfall.write(m, read.timeline(), index, recording);
        timeline(m);
        return m;
    }

    // ---- the head: what the session is ----

    private void head(Html m) {
        Timeline t = read.timeline();
        var h = t.header();
        SessionSummary summary = SessionSummary.of(read);
        m.open("section", "class", "session-head");
        if (served) {
            m.open("nav", "class", "crumbs").el("a", "Sessions", "href", "/").text(" / ")
                    .el("span", read.found().key().directory().isEmpty() ? "(top)" : read.found().key().directory())
                    .close("nav");
        }
        m.open("div", "class", "title-row");
        m.el("h1", h.session(), "class", "mono");
        Badges.modes(m, summary.modes());
        m.close("div");
        if (recording) {
            m.open("p", "class", "live-state", "id", "live-state");
            Badges.recording(m);
            m.text(" This page follows the log as the proxy writes it.");
            m.close("p");
        } else if (served) {
            m.el("p", "", "class", "live-state hidden", "id", "live-state");
        }
        m.open("dl", "class", "facts");
        fact(m, "Started", Format.dateTime(h.startedUnixMs()) + "." + String.format("%03d", h.startedUnixMs() % 1000)
                + " UTC");
        fact(m, recording ? "So far" : "Last line", Format.duration(t.endMs()) + (recording ? "" : " (at "
                + Format.timeMs(h.startedUnixMs() + t.endMs()) + " UTC)"));
        fact(m, "Domain", t.domain());
        fact(m, "Client", client());
        fact(m, "Agent model", h.agentModel() == null ? "\u2013 (not given with --agent-model)" : h.agentModel());
        fact(m, "Server", server());
        if (!h.serverCommand().isEmpty()) {
            m.el("dt", "Command");
            m.el("dd", String.join(" ", engine.redactCommand(h.serverCommand())), "class", "mono");
        }
        if (h.hostSession() != null) {
            fact(m, "Host session", h.hostSession());
        }
        m.el("dt", "Log");
        m.el("dd", read.found().key().relative(), "class", "mono");
        m.close("dl");
        counts(m, summary);
        notices(m);
        m.close("section");
    }

    private String client() {
        JsonNode init = lines.initializeRequest();
        String name = read.timeline().clientName();
        if (name == null) {
            return "\u2013";
        }
        JsonNode info = init == null ? null : init.path("params").path("clientInfo");
        String version = info == null ? null : info.path("version").asText(null);
        return name + (version == null || version.isEmpty() ? "" : " " + version);
    }

    private String server() {
        JsonNode result = lines.initializeResult();
        if (result == null) {
            return "\u2013";
        }
        JsonNode info = result.path("serverInfo");
        String name = info.path("name").asText("");
        String version = info.path("version").asText("");
        String protocol = result.path("protocolVersion").asText("");
        String s = (name + " " + version).strip();
        return (s.isEmpty() ? "(unnamed)" : s) + (protocol.isEmpty() ? "" : ", protocol " + protocol);
    }

    private static void fact(Html m, String name, String value) {
        m.el("dt", name).el("dd", value);
    }

    private void counts(Html m, SessionSummary s) {
        Timeline t = read.timeline();
        m.open("ul", "class", "counts");
        count(m, s.calls(), "call", "calls", null);
        count(m, t.turns().size(), "turn", "turns", null);
        count(m, s.failed(), "failed", "failed", "bad");
        count(m, s.refusals(), "refused", "refused", "bad");
        if (s.modes().contains(Mode.SHADOW) && !s.modes().contains(Mode.FLOW)) {
            count(m, s.lookups(), "lookup in shadow", "lookups in shadow", "look");
        } else {
            count(m, s.lookups(), "lookup", "lookups", "look");
        }
        if (read.judgments().count() > 0) {
            count(m, read.judgments().count(), "judged", "judged", "judge");
        }
        m.close("ul");
    }

    private static void count(Html m, long n, String one, String many, String kind) {
        m.open("li", "class", n == 0 ? "zero" : kind).el("strong", Format.count(n)).text(" " + (n == 1 ? one : many))
                .close("li");
    }

    private void notices(Html m) {
        if (read.log().tornLine() > 0) {
            m.el("p", "Line " + read.log().tornLine() + " of the log is incomplete (the proxy stopped while writing it,"
                    + " or it is still being written); it is left out.", "class", "notice");
        }
        if (read.runsProblem() != null) {
            m.el("p", "The flow log beside this log cannot be read, so the flow's runs are left out: "
                    + read.runsProblem(), "class", "notice warn");
        }
        if (read.judgeProblem() != null) {
            m.el("p", "The judge's log beside this log cannot be read, so its verdicts are left out: "
                    + read.judgeProblem(), "class", "notice warn");
        }
    }

    // ---- the timeline ----

    private void timeline(Html m) {
        Timeline t = read.timeline();
        m.open("section", "class", "card timeline", "aria-label", "timeline");
        m.open("div", "class", "card-head").el("h2", "Timeline");
        m.el("span", "times are milliseconds after the proxy started", "class", "hint");
        m.open("span", "class", "tools");
        m.el("button", "Expand all", "type", "button", "data-expand", "all");
        m.el("button", "Collapse all", "type", "button", "data-expand", "none");
        m.close("span").close("div");
        m.open("ol", "class", "steps");
        handshake(m);
        for (Timeline.Step step : t.steps()) {
            switch (step) {
                case Timeline.Said s -> said(m, s);
                case Timeline.TurnStarted ts -> turn(m, ts.turn());
                case Timeline.ResultArrived r -> {
                    // A result is shown in its call's card.
                }
            }
        }
        if (t.steps().isEmpty() && lines.handshake().isEmpty()) {
            m.el("li", recording ? "Nothing yet: the host has not called a tool." : "The log holds no call and no"
                    + " message of the conversation.", "class", "step nothing");
        }
        m.close("ol");
        leftovers(m);
        m.close("section");
    }

    private void handshake(Html m) {
        if (lines.handshake().isEmpty()) {
            return;
        }
        m.open("li", "class", "step handshake");
        m.el("div", "", "class", "when");
        m.open("div", "class", "what");
        m.el("span", "Session opened", "class", "label");
        m.open("span", "class", "line");
        m.text("client ").el("strong", client()).text(" \u2192 server ").el("strong", server());
        m.close("span");
        JsonNode tools = lines.tools();
        if (tools != null && tools.isArray()) {
            m.open("div", "class", "toollist").el("span", Format.plural(tools.size(), "tool", "tools") + " listed:",
                    "class", "dim");
            for (JsonNode tool : tools) {
                String name = tool.path("name").asText("(no name)");
                JsonNode ro = tool.path("annotations").path("readOnlyHint");
                String kind = ro.isBoolean() ? ro.booleanValue() ? "read" : "write" : "generic";
                m.el("span", name, "class", "tool tool-" + kind, "title", kind + (tool.has("description")
                        ? ": " + tool.path("description").asText("") : ""));
            }
            m.close("div");
        }
        Blocks.rawLines(m, lines.handshake());
        m.close("div");
        m.close("li");
    }

    private void said(Html m, Timeline.Said s) {
        String role = s.role() == Timeline.Role.USER ? "user" : "assistant";
        m.open("li", "class", "step said " + role);
        m.el("div", s.tMs() + " ms", "class", "when");
        m.open("div", "class", "what");
        m.el("span", s.role() == Timeline.Role.USER ? "User" : "Assistant", "class", "label");
        m.el("p", s.text().isEmpty() ? "(no text)" : s.text(), "class", "bubble");
        LogLines.Line line = lines.said(s);
        if (line != null) {
            Blocks.rawLines(m, List.of(line));
        }
        m.close("div");
        m.close("li");
    }

    private void turn(Html m, Timeline.Turn turn) {
        m.open("li", "class", "step turn");
        m.el("div", turn.startMs() + " ms", "class", "when");
        m.open("div", "class", "what");
        long last = turn.startMs();
        for (Timeline.Call c : turn.calls()) {
            last = Math.max(last, c.result() != null ? c.result().tMs() : c.sentMs());
        }
        m.open("div", "class", "turn-head").el("span", "Turn " + turn.number(), "class", "label");
        long own = turn.calls().stream().filter(c -> turn.commitOf(c) == null).count();
        m.el("span", Format.plural(own, "call", "calls") + " \u00b7 " + Format.duration(last - turn.startMs()),
                "class", "dim");
        m.close("div");
        m.open("ol", "class", "calls");
        for (Timeline.Call c : turn.calls()) {
            if (turn.commitOf(c) == null) {
                call(m, turn, c);
            }
        }
        m.close("ol");
        m.close("div");
        m.close("li");
    }

    private void call(Html m, Timeline.Turn turn, Timeline.Call c) {
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
            judgment(m, v);
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
            flowRun(m, followed.poll(), false);
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
                call(m, turn, c);
            }
            m.close("ol");
        }
        m.close("div");
    }

    private void judgment(Html m, JudgeVerdict v) {
        String kind = switch (v.outcome()) {
            case AGREED -> "agreed";
            case REFUSED -> "refused";
            case LOGGED_ONLY -> "logged";
            case SKIPPED, NO_ANSWER -> "unknown";
        };
        List<String> answers = new ArrayList<>();
        if (v.pYes() != null) {
            answers.add("p_yes " + Format.probability(v.pYes()));
        }
        if (v.pSecond() != null) {
            answers.add("p_second " + Format.probability(v.pSecond()) + (v.secondShadow() ? " shadow" : ""));
        }
        String shown = answers.isEmpty() ? "" : " (" + String.join(", ", answers) + ")";
        String verdict = switch (v.outcome()) {
            case AGREED -> "agreed" + shown;
            case REFUSED -> "refused: no explicit agreement" + shown;
            case LOGGED_ONLY -> "no explicit agreement, logged only" + shown;
            case SKIPPED -> "skipped: " + v.detail();
            case NO_ANSWER -> "no answer: " + v.detail();
        };
        m.open("div", "class", "judge " + kind);
        m.el("span", "Judge", "class", "j-title");
        m.el("span", verdict, "class", "j-verdict");
        m.el("span", "word list: " + (v.wordList() ? "yes" : "no") + " \u00b7 " + v.ms() + " ms", "class", "dim");
        for (String flag : v.flags()) {
            m.el("p", "proposal check: " + flag, "class", "j-flag");
        }
        m.close("div");
    }

    private void flowRun(Html m, FlowRun run, boolean orphan) {
        m.open("div", "class", "flow-run" + (run.shadow() ? " shadow" : ""));
        m.open("div", "class", "fr-head");
        m.el("span", orphan ? "Flow after call " + run.after() + (run.call() == null ? "" : ": " + run.call())
                : "The flow after this call", "class", "fr-title");
        if (run.shadow()) {
            Badges.mark(m, "SHADOW", "gray", "in shadow the flow decides and logs, and looks nothing up");
        }
        String made;
        if (run.made() == null) {
            made = "no run line: the session ended during this run";
        } else if (run.shadow()) {
            made = Format.plural(run.proposed(), "lookup", "lookups") + " it would have made";
        } else {
            made = (run.made() == 0 ? "no lookup" : Format.plural(run.made(), "lookup", "lookups")) + " made";
        }
        m.el("span", made, "class", "dim");
        if (run.surprise() != null) {
            m.el("span", "surprise " + Format.probability(run.surprise()), "class", "dim",
                    "title", "how unlikely the lookups' outcomes were under the flow, in nats");
        }
        m.close("div");
        m.open("ol", "class", "decisions");
        for (FlowRun.Decision d : run.decisions()) {
            decision(m, d);
        }
        m.close("ol");
        m.close("div");
    }

    private static void decision(Html m, FlowRun.Decision d) {
        String outcome = switch (d.outcome()) {
            case MADE -> "made";
            case FAILED -> "failed";
            case NO_ANSWER -> "noanswer";
            case NOT_MADE -> "notmade";
            case UNKNOWN -> "unknown";
            case HANDED_BACK -> "hand";
        };
        m.open("li", "class", "d " + outcome);
        m.el("span", d.address(), "class", "d-addr");
        m.el("span", "at " + (d.site() == null ? "(no call)" : d.site()), "class", "d-site");
        m.open("span", "class", "d-act");
        if (d.lookup()) {
            m.text("look up ").el("strong", d.tool()).text(" ");
            m.el("code", Format.oneLine(JsonView.compact(d.arguments()), 120));
        } else {
            m.text("hand back: ").el("span", d.reason() == null ? "" : d.reason(), "class", "reason");
        }
        m.close("span");
        m.open("span", "class", "d-p");
        if (d.prob() != null) {
            meter(m, d.prob());
            m.text("p " + Format.probability(d.prob()));
            if (d.lookup() && d.binding() != null) {
                m.text(" \u00b7 arguments " + Format.probability(d.binding()));
            }
        }
        m.close("span");
        String mark = switch (d.outcome()) {
            case MADE -> "made";
            case FAILED -> "made, FAILED";
            case NO_ANSWER -> "made, no answer";
            case NOT_MADE -> d.shadow() ? "not made (shadow)" : "NOT MADE";
            case UNKNOWN -> "outcome unknown";
            case HANDED_BACK -> null;
        };
        if (mark != null) {
            Badges.mark(m, mark, switch (d.outcome()) {
                case MADE -> "green";
                case FAILED -> "red";
                case NOT_MADE -> d.shadow() ? "gray" : "amber";
                default -> "amber";
            }, null);
        }
        List<String> extra = new ArrayList<>();
        if (d.propensity() != null) {
            extra.add((d.explored() ? "explored, " : "") + "propensity " + Format.probability(d.propensity()));
        }
        if (d.oracleKey() != null) {
            extra.add("oracle " + d.oracleKey().substring(0, Math.min(12, d.oracleKey().length())));
        }
        if (d.ms() > 0) {
            extra.add(d.ms() + " ms");
        }
        if (!extra.isEmpty()) {
            m.el("span", String.join(" \u00b7 ", extra), "class", "dim");
        }
        m.close("li");
    }

    /** A small bar of a probability. */
    private static void meter(Html m, double p) {
        double w = Math.max(0, Math.min(1, p)) * 100;
        m.open("svg", "class", "meter", "viewBox", "0 0 100 6", "preserveAspectRatio", "none", "aria-hidden", "true");
        m.leaf("rect", "class", "m-bg", "width", "100", "height", "6", "rx", "3");
        m.leaf("rect", "class", "m-fg", "width", String.format(java.util.Locale.ROOT, "%.1f", w), "height", "6", "rx",
                "3");
        m.close("svg");
    }

    private void leftovers(Html m) {
        List<FlowRun> unmatched = new ArrayList<>();
        runs.values().forEach(unmatched::addAll);
        if (!unmatched.isEmpty()) {
            unmatched.sort(java.util.Comparator.comparing(FlowRun::after));
            m.open("div", "class", "leftover");
            m.el("h3", "Flow runs after calls this log does not hold");
            for (FlowRun r : unmatched) {
                flowRun(m, r, true);
            }
            m.close("div");
        }
        if (!read.judgments().unplaced().isEmpty()) {
            m.open("div", "class", "leftover");
            m.el("h3", "Judgments of calls not in the log");
            for (JudgeVerdict v : read.judgments().unplaced()) {
                m.open("div", "class", "c-sec").el("code", v.tool() + " " + JsonView.compact(v.arguments()));
                judgment(m, v);
                m.close("div");
            }
            m.close("div");
        }
    }
}
