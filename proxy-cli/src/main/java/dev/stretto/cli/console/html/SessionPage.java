package dev.stretto.cli.console.html;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.console.source.FlowRun;
import dev.stretto.cli.console.source.JudgeVerdict;
import dev.stretto.cli.console.source.LogLines;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.trace.episode.Timeline;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * A session as a timeline: its facts, the calls' timings, then in log order the conversation
 * and each turn with its calls (arguments and result, errors and refusals with the rule,
 * commits with the calls they made, the judge's verdicts), the flow's decisions after each call
 * and every item's log lines. The console serves it, follows it live while it is recorded, and
 * {@code stretto show --html} saves it as one file.
 */
public final class SessionPage {

    private final SessionRead read;
    private final boolean recording;
    private final LogLines lines;
    private final Map<Timeline.Call, Integer> index = new IdentityHashMap<>();
    private final Map<String, Deque<FlowRun>> runs = new HashMap<>();
    private final SessionHead head;
    private final CallCard cards;

    private SessionPage(SessionRead read, ProxyEngine engine, boolean served, boolean recording) {
        this.read = read;
        this.recording = recording;
        this.lines = read.lines();
        this.head = new SessionHead(read, engine, lines, served, recording);
        this.cards = new CallCard(read, lines, index, runs, recording);
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
        head.write(m);
        PolicyView.pending(m, SessionRead.pendingBeside(read.found().path(), recording));
        Waterfall.write(m, read.timeline(), index, recording);
        timeline(m);
        return m;
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
        java.util.Deque<PolicyVerdict> others = new ArrayDeque<>(read.verdicts().stream()
                .filter(v -> v.kind() != PolicyVerdict.Kind.CALL).toList());
        for (Timeline.Step step : t.steps()) {
            while (!others.isEmpty() && others.peekFirst().tMs() <= step.tMs()) {
                policyStep(m, others.pollFirst());
            }
            switch (step) {
                case Timeline.Said s -> said(m, s);
                case Timeline.TurnStarted ts -> turn(m, ts.turn());
                case Timeline.ResultArrived r -> {
                    // A result is shown in its call's card.
                }
            }
        }
        while (!others.isEmpty()) {
            policyStep(m, others.pollFirst());
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
        m.text("client ").el("strong", head.client()).text(" \u2192 server ").el("strong", head.server());
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

    /** A verdict about no call: a listing, a changed tool, a request of the server's. */
    private void policyStep(Html m, PolicyVerdict v) {
        m.open("li", "class", "step policy");
        m.el("div", v.tMs() + " ms", "class", "when");
        m.open("div", "class", "what");
        PolicyView.write(m, v);
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
                cards.write(m, turn, c);
            }
        }
        m.close("ol");
        m.close("div");
        m.close("li");
    }

    private void leftovers(Html m) {
        List<FlowRun> unmatched = new ArrayList<>();
        runs.values().forEach(unmatched::addAll);
        if (!unmatched.isEmpty()) {
            unmatched.sort(java.util.Comparator.comparing(FlowRun::after));
            m.open("div", "class", "leftover");
            m.el("h3", "Flow runs after calls this log does not hold");
            for (FlowRun r : unmatched) {
                FlowRunView.write(m, r, true);
            }
            m.close("div");
        }
        if (!read.judgments().unplaced().isEmpty()) {
            m.open("div", "class", "leftover");
            m.el("h3", "Judgments of calls not in the log");
            for (JudgeVerdict v : read.judgments().unplaced()) {
                m.open("div", "class", "c-sec").el("code", v.tool() + " " + JsonView.compact(v.arguments()));
                JudgeView.write(m, v);
                m.close("div");
            }
            m.close("div");
        }
    }
}
