package dev.stretto.cli.console.html;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.console.index.Mode;
import dev.stretto.cli.console.index.SessionSummary;
import dev.stretto.cli.console.source.LogLines;
import dev.stretto.cli.console.source.ProxyEngine;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.trace.episode.Timeline;

/**
 * The head of a session's page: what the session was (its id and modes, whether it is still
 * being recorded, when it started and ended, the domain, client, agent model, server and
 * command, the log), its counts, and what of it could not be read.
 */
final class SessionHead {

    private final SessionRead read;
    private final ProxyEngine engine;
    private final LogLines lines;
    private final SessionSummary summary;
    private final boolean served;
    private final boolean recording;

    SessionHead(SessionRead read, ProxyEngine engine, LogLines lines, boolean served, boolean recording) {
        this.read = read;
        this.engine = engine;
        this.lines = lines;
        this.summary = SessionSummary.of(read);
        this.served = served;
        this.recording = recording;
    }

    void write(Html m) {
        Timeline t = read.timeline();
        var h = t.header();
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

    String client() {
        JsonNode init = lines.initializeRequest();
        String name = read.timeline().clientName();
        if (name == null) {
            return "\u2013";
        }
        JsonNode info = init == null ? null : init.path("params").path("clientInfo");
        String version = info == null ? null : info.path("version").asText(null);
        return name + (version == null || version.isEmpty() ? "" : " " + version);
    }

    String server() {
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
}
