package dev.stretto.cli.console.html;

import dev.stretto.cli.console.index.Listing;
import dev.stretto.cli.console.index.Mode;
import dev.stretto.cli.console.index.SessionFilter;
import dev.stretto.cli.console.index.SessionSummary;
import dev.stretto.cli.console.source.Root;
import java.util.List;
import java.util.Map;

/**
 * The sessions page: one row per session across the directories, newest first, with the
 * filters (domain, mode, start dates, words in tool names and arguments) and the pages.
 */
public final class SessionsPage {

    private SessionsPage() {
    }

    /**
     * Renders a page of sessions.
     *
     * @param listing the page
     * @param roots   the directories read
     * @return the document
     */
    public static String render(Listing listing, List<Root> roots) {
        Html m = new Html();
        m.open("main", "class", "wide");
        m.open("div", "class", "page-head");
        m.el("h1", "Sessions");
        m.open("p", "class", "sub").text(Format.plural(listing.total(), "session", "sessions") + " in ");
        for (int i = 0; i < roots.size(); i++) {
            m.text(i == 0 ? "" : i == roots.size() - 1 ? " and " : ", ");
            m.el("code", roots.get(i).label());
        }
        m.close("p").close("div");
        filters(m, listing);
        notices(m, listing);
        if (listing.total() == 0) {
            empty(m, roots);
        } else if (listing.matched() == 0) {
            m.open("div", "class", "empty").el("h2", "No session matches")
                    .open("p").text("Nothing among the " + Format.plural(listing.total(), "session", "sessions")
                            + " passes these filters. ").el("a", "Show every session", "href", "/").close("p")
                    .close("div");
        } else {
            resultLine(m, listing);
            table(m, listing.rows(), roots);
            pager(m, listing);
        }
        m.close("main");
        return Layout.served("Sessions", Layout.Section.SESSIONS, m);
    }

    private static void filters(Html m, Listing listing) {
        SessionFilter f = listing.filter();
        m.open("form", "class", "filters", "method", "get", "action", "/", "role", "search");
        m.open("label").el("span", "Domain");
        m.open("select", "name", "domain");
        option(m, "", "All domains", f.domain() == null);
        for (Map.Entry<String, Integer> d : listing.domains().entrySet()) {
            option(m, d.getKey(), d.getKey() + " (" + Format.count(d.getValue()) + ")", d.getKey().equals(f.domain()));
        }
        if (f.domain() != null && !listing.domains().containsKey(f.domain())) {
            option(m, f.domain(), f.domain() + " (0)", true);
        }
        m.close("select").close("label");
        m.open("label").el("span", "Mode");
        m.open("select", "name", "mode");
        option(m, "", "All modes", f.mode() == null);
        for (Mode mode : Mode.values()) {
            option(m, mode.word(), mode.word(), mode == f.mode());
        }
        m.close("select").close("label");
        m.open("label").el("span", "From");
        m.empty("input", "type", "date", "name", "from", "value", f.from() == null ? "" : f.from().toString());
        m.close("label");
        m.open("label").el("span", "To");
        m.empty("input", "type", "date", "name", "to", "value", f.to() == null ? "" : f.to().toString());
        m.close("label");
        m.open("label", "class", "grow").el("span", "Tool or argument");
        m.empty("input", "type", "search", "name", "q", "value", f.text(), "placeholder",
                "get_order_details, #W41a, c41@example.com\u2026", "autocomplete", "off");
        m.close("label");
        m.open("div", "class", "actions");
        m.el("button", "Filter", "type", "submit");
        if (f.narrows()) {
            m.el("a", "Clear", "href", "/", "class", "clear");
        }
        m.close("div");
        m.close("form");
    }

    private static void option(Html m, String value, String text, boolean selected) {
        m.el("option", text, "value", value, "selected", selected ? "" : null);
    }

    private static void notices(Html m, Listing listing) {
        for (String note : listing.filter().notes()) {
            m.el("p", note, "class", "notice");
        }
        for (String problem : listing.problems()) {
            m.el("p", "Could not read " + problem, "class", "notice warn");
        }
        if (listing.unreadable() > 0 && listing.filter().mode() != Mode.UNREADABLE) {
            m.open("p", "class", "notice warn").text(Format.plural(listing.unreadable(), "log cannot", "logs cannot")
                    + " be read. ").el("a", "Show " + (listing.unreadable() == 1 ? "it" : "them"), "href",
                    "/?mode=" + Mode.UNREADABLE.word()).close("p");
        }
    }

    private static void empty(Html m, List<Root> roots) {
        m.open("div", "class", "empty");
        m.el("h2", "No sessions yet");
        m.open("p").text("The console lists the session logs stretto-proxy writes with ").el("code", "--record DIR")
                .text(". Record one into a directory it reads, for example:").close("p");
        m.el("pre", "stretto-proxy --record ~/.stretto/logs/demo -- stretto-mcp-demo", "class", "cmd");
        m.el("p", "Sessions recorded there are listed here when this page is loaded again.");
        m.close("div");
    }

    private static void resultLine(Html m, Listing listing) {
        int first = listing.firstRow();
        int last = first + listing.rows().size() - 1;
        m.open("p", "class", "result-line");
        m.el("strong", Format.count(first) + "\u2013" + Format.count(last));
        m.text(" of " + Format.plural(listing.matched(), "session", "sessions"));
        if (listing.matched() != listing.total()) {
            m.text(" matching (" + Format.count(listing.total()) + " in all)");
        }
        m.text(", newest first. Times are UTC.");
        m.close("p");
    }

    private static void table(Html m, List<SessionSummary> rows, List<Root> roots) {
        m.open("div", "class", "table-wrap");
        m.open("table", "class", "sessions-table");
        m.open("thead").open("tr");
        String[][] heads = {{"Started (UTC)", null}, {"Session", null}, {"Domain", null}, {"Mode", null},
                {"Client", null}, {"Agent model", null}, {"Duration", "num"}, {"Calls", "num"}, {"Failed", "num"},
                {"Refused", "num"}, {"Lookups", "num"}};
        for (String[] h : heads) {
            m.el("th", h[0], "class", h[1], "scope", "col");
        }
        m.close("tr").close("thead");
        m.open("tbody");
        for (SessionSummary s : rows) {
            row(m, s, roots);
        }
        m.close("tbody").close("table").close("div");
    }

    private static void row(Html m, SessionSummary s, List<Root> roots) {
        String link = Links.session(s.key());
        m.open("tr", "class", s.readable() ? null : "unreadable", "data-href", link);
        m.open("td", "class", "when").el("span", Format.date(s.startedUnixMs()), "class", "d")
                .el("span", Format.time(s.startedUnixMs()), "class", "t").close("td");
        m.open("td", "class", "sid");
        m.el("a", s.session(), "href", link, "class", "mono");
        m.el("span", directory(s, roots), "class", "dir");
        if (s.recording()) {
            Badges.recording(m);
            java.nio.file.Path log = roots.get(s.key().root()).file(s.key().relative());
            int waiting = log == null ? 0 : dev.stretto.cli.console.source.SessionRead.pendingBeside(log, true).size();
            if (waiting > 0) {
                Badges.mark(m, waiting + " waiting for approval", "amber", "calls the policy holds for a person: open"
                        + " the session to see them");
            }
        }
        m.close("td");
        if (!s.readable()) {
            m.open("td", "colspan", "9", "class", "problem");
            Badges.mark(m, "cannot be read", "red", null);
            m.text(" " + s.problem());
            m.close("td").close("tr");
            return;
        }
        m.open("td");
        if (s.domain() != null) {
            m.el("span", s.domain(), "class", "chip");
        } else {
            m.el("span", "\u2013", "class", "none");
        }
        m.close("td");
        m.open("td");
        Badges.modes(m, s.modes());
        m.close("td");
        cell(m, s.client());
        cell(m, s.agentModel());
        m.el("td", Format.duration(s.durationMs()), "class", "num");
        number(m, s.calls(), null);
        number(m, s.failed(), "bad");
        number(m, s.refusals(), "bad");
        number(m, s.lookups(), s.modes().contains(Mode.SHADOW) && !s.modes().contains(Mode.FLOW) ? "shadowed" : "look");
        m.close("tr");
    }

    /** Where a session's log is: below its root, and which root when there are several. */
    static String directory(SessionSummary s, List<Root> roots) {
        String dir = s.key().directory();
        if (roots.size() == 1) {
            return dir.isEmpty() ? "(top)" : dir;
        }
        String root = roots.get(s.key().root()).label();
        return dir.isEmpty() ? root : root + "/" + dir;
    }

    private static void cell(Html m, String text) {
        if (text == null) {
            m.open("td").el("span", "\u2013", "class", "none").close("td");
        } else {
            m.el("td", text);
        }
    }

    private static void number(Html m, int n, String kind) {
        m.el("td", Format.count(n), "class", "num" + (n == 0 ? " zero" : kind == null ? "" : " " + kind),
                "title", "shadowed".equals(kind) && n > 0 ? "proposed in shadow: nothing was looked up" : null);
    }

    private static void pager(Html m, Listing listing) {
        if (listing.pages() <= 1) {
            return;
        }
        SessionFilter f = listing.filter();
        m.open("nav", "class", "pager", "aria-label", "pages");
        if (listing.page() > 1) {
            m.el("a", "\u2190 Newer", "href", Links.sessions(f, listing.page() - 1), "rel", "prev");
        } else {
            m.el("span", "\u2190 Newer", "class", "off");
        }
        m.el("span", "Page " + Format.count(listing.page()) + " of " + Format.count(listing.pages()), "class", "where");
        if (listing.page() < listing.pages()) {
            m.el("a", "Older \u2192", "href", Links.sessions(f, listing.page() + 1), "rel", "next");
        } else {
            m.el("span", "Older \u2192", "class", "off");
        }
        m.close("nav");
    }
}
