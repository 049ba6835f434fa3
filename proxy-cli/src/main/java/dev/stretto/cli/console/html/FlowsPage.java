package dev.stretto.cli.console.html;

import dev.stretto.cli.console.index.FlowCatalog;
import dev.stretto.cli.console.index.Mode;
import dev.stretto.cli.console.index.SessionSummary;
import dev.stretto.cli.console.source.FlowReport;
import dev.stretto.cli.console.source.Root;
import java.util.List;

/**
 * The flows page: each flow file under the directories, as {@code stretto flow-show} prints it
 * (where it came from, its tools, sites, lookups and bindings, how it decides, its arbiter and
 * promotion), and the sessions served or shadowed with it.
 */
public final class FlowsPage {

    private FlowsPage() {
    }

    /**
     * Renders the flows.
     *
     * @param flows the flow files
     * @param roots the directories read
     * @return the document
     */
    public static String render(List<FlowCatalog.Entry> flows, List<Root> roots) {
        Html m = new Html();
        m.open("main");
        m.open("div", "class", "page-head").el("h1", "Flows");
        m.el("p", Format.plural(flows.size(), "flow file", "flow files") + " (*.flow.json) in the console's directories."
                + " Each is shown as stretto flow-show prints it.", "class", "sub");
        m.close("div");
        if (flows.isEmpty()) {
            m.open("div", "class", "empty").el("h2", "No flow files");
            m.open("p").text("A flow is what ").el("code", "stretto learn --sessions DIR --domain NAME --out FILE")
                    .text(" makes of recorded sessions. Put its file in a directory the console reads (")
                    .el("code", roots.isEmpty() ? "" : roots.getFirst().label()).text(", for example).").close("p");
            m.close("div");
        } else {
            m.open("nav", "class", "toc");
            for (int i = 0; i < flows.size(); i++) {
                FlowCatalog.Entry f = flows.get(i);
                m.open("a", "href", "#flow-" + i).el("span", f.key().name(), "class", "mono");
                m.el("span", f.report() == null ? "cannot be read" : f.report().domain(), "class", "chip");
                m.close("a");
            }
            m.close("nav");
            for (int i = 0; i < flows.size(); i++) {
                flow(m, i, flows.get(i), roots);
            }
        }
        m.close("main");
        return Layout.served("Flows", Layout.Section.FLOWS, m);
    }

    private static void flow(Html m, int i, FlowCatalog.Entry f, List<Root> roots) {
        m.open("section", "class", "card flow", "id", "flow-" + i);
        m.open("div", "class", "card-head");
        m.el("h2", f.key().name(), "class", "mono");
        String where = roots.get(f.key().root()).label() + "/" + f.key().relative();
        m.el("span", where, "class", "hint mono");
        m.close("div");
        if (f.report() == null) {
            m.el("p", "This flow cannot be read: " + f.problem(), "class", "notice warn");
            m.close("section");
            return;
        }
        FlowReport r = f.report();
        List<List<String>> blocks = r.blocks();
        m.open("div", "class", "flow-meta");
        m.el("span", r.domain(), "class", "chip");
        m.text(" learned " + Format.dateTime(r.compiledUnixMs()) + " UTC ");
        if (r.promoted()) {
            Badges.mark(m, "promoted", "green", "stretto promote kept it acting only at the promoted sites");
        }
        m.close("div");
        if (!blocks.isEmpty()) {
            m.open("div", "class", "flow-intro");
            for (String line : blocks.getFirst()) {
                m.el("p", line.strip());
            }
            m.close("div");
        }
        for (List<String> block : blocks.subList(Math.min(1, blocks.size()), blocks.size())) {
            if (block.size() == 1) {
                m.el("p", block.getFirst(), "class", "flow-block");
                continue;
            }
            m.open("details", "class", "flow-block", "open", "");
            m.el("summary", block.getFirst());
            m.el("pre", String.join("\n", block.subList(1, block.size())));
            m.close("details");
        }
        sessions(m, f.sessions());
        m.close("section");
    }

    private static void sessions(Html m, List<SessionSummary> sessions) {
        m.open("div", "class", "served");
        m.el("h3", "Sessions served or shadowed with it (" + Format.count(sessions.size()) + ")");
        if (sessions.isEmpty()) {
            m.el("p", "None found: no session with a flow log of this domain started after the flow was learned and"
                    + " names only its tools.", "class", "dim");
            m.close("div");
            return;
        }
        m.el("p", "A flow log does not name its flow file: these are the sessions of the flow's domain, started after"
                + " it was learned, whose flow logs name only its tools.", "class", "hint");
        m.open("table", "class", "mini");
        m.open("thead").open("tr").el("th", "Started (UTC)").el("th", "Session").el("th", "Served")
                .el("th", "Calls", "class", "num").el("th", "Lookups", "class", "num").close("tr").close("thead");
        m.open("tbody");
        for (SessionSummary s : sessions) {
            m.open("tr");
            m.el("td", Format.dateTime(s.startedUnixMs()));
            m.open("td").el("a", s.session(), "href", Links.session(s.key()), "class", "mono").close("td");
            m.open("td");
            if (s.modes().contains(Mode.SHADOW)) {
                m.el("span", "shadow", "class", "mode mode-shadow");
            }
            if (s.modes().contains(Mode.FLOW)) {
                m.el("span", "flow", "class", "mode mode-flow");
            }
            m.close("td");
            m.el("td", Format.count(s.calls()), "class", "num");
            m.el("td", Format.count(s.lookups()), "class", "num");
            m.close("tr");
        }
        m.close("tbody").close("table");
        m.close("div");
    }
}
