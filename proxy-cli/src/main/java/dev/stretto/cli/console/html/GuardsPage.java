package dev.stretto.cli.console.html;

import dev.stretto.cli.console.index.GuardBook;
import dev.stretto.cli.console.source.GuardReplay;
import dev.stretto.cli.console.source.Root;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The guards page: for a directory, its sessions' writes replayed through the policy guards
 * of their domain, as {@code stretto guards DIR} prints them: each write with every rule's
 * verdict and whether it would be refused (linked to the call in its session), then how often
 * each rule passed, failed, could not decide and would have refused.
 */
public final class GuardsPage {

    private GuardsPage() {
    }

    /**
     * Renders the page.
     *
     * @param directories every directory with session logs, and how many each holds
     * @param chosen      the report of the directory shown, or null when there is none
     * @param roots       the directories read
     * @param domains     the domains with guards
     * @return the document
     */
    public static String render(Map<GuardBook.Directory, Integer> directories, GuardBook.Report chosen,
                                List<Root> roots, java.util.Set<String> domains) {
        Html m = new Html();
        m.open("main");
        m.open("div", "class", "page-head").el("h1", "Guards");
        m.open("p", "class", "sub").text("Each write of a directory's sessions replayed through the policy guards of"
                + " their domain, against the session as it stood just before the write, as ")
                .el("code", "stretto guards DIR").text(" replays it. Domains with guards: " + String.join(", ", domains)
                        + ".").close("p");
        m.close("div");
        if (directories.isEmpty()) {
            m.open("div", "class", "empty").el("h2", "No sessions").el("p", "There is no session log to replay.")
                    .close("div");
            m.close("main");
            return Layout.served("Guards", Layout.Section.GUARDS, m);
        }
        m.open("nav", "class", "dirs", "aria-label", "directories");
        for (Map.Entry<GuardBook.Directory, Integer> d : directories.entrySet()) {
            boolean current = chosen != null && chosen.directory().equals(d.getKey());
            m.open("a", "href", "/guards?dir=" + Links.encode(d.getKey().id()), "class", current ? "current" : null,
                    "aria-current", current ? "page" : null);
            m.el("span", label(d.getKey(), roots), "class", "mono");
            m.el("span", Format.count(d.getValue()), "class", "n");
            m.close("a");
        }
        m.close("nav");
        if (chosen != null) {
            report(m, chosen, roots);
        }
        m.close("main");
        return Layout.served("Guards", Layout.Section.GUARDS, m);
    }

    /** {@return how a directory is named: the root's label and the path below it} */
    static String label(GuardBook.Directory d, List<Root> roots) {
        String root = roots.get(d.root()).label();
        return d.directory().isEmpty() ? root : root + "/" + d.directory();
    }

    private static void report(Html m, GuardBook.Report r, List<Root> roots) {
        m.open("section", "class", "card");
        m.open("div", "class", "card-head").el("h2", label(r.directory(), roots), "class", "mono");
        m.el("span", Format.plural(r.sessions(), "session", "sessions") + ", "
                + Format.plural(r.replayed().size(), "of a domain with guards", "of domains with guards"), "class",
                "hint");
        m.close("div");
        for (Map.Entry<String, Integer> u : r.unguarded().entrySet()) {
            String what = u.getKey().isEmpty() ? "name no domain" : u.getKey().equals("(cannot be read)")
                    ? "cannot be read" : "are of " + u.getKey() + ", which has no guards";
            m.el("p", Format.plural(u.getValue(), "session ", "sessions ") + what + (u.getKey().startsWith("(")
                    ? "" : ": not replayed"), "class", "dim");
        }
        if (r.replayed().isEmpty()) {
            m.close("section");
            return;
        }
        summary(m, r);
        for (GuardBook.Replayed s : r.replayed()) {
            session(m, s);
        }
        m.close("section");
    }

    private static void summary(Html m, GuardBook.Report r) {
        Map<String, int[]> counts = new LinkedHashMap<>();
        Map<String, Boolean> enforced = new LinkedHashMap<>();
        for (GuardBook.Replayed s : r.replayed()) {
            if (s.replay() == null) {
                continue;
            }
            for (GuardReplay.Rule rule : s.replay().rules()) {
                counts.putIfAbsent(rule.id(), new int[4]);
                enforced.putIfAbsent(rule.id(), rule.enforced());
            }
            for (GuardReplay.Write w : s.replay().writes()) {
                for (GuardReplay.RuleVerdict v : w.verdicts()) {
                    int[] n = counts.computeIfAbsent(v.rule().id(), k -> new int[4]);
                    enforced.putIfAbsent(v.rule().id(), v.rule().enforced());
                    n[0]++;
                    n[switch (v.word()) {
                        case "pass" -> 1;
                        case "fail" -> 2;
                        default -> 3;
                    }]++;
                }
            }
        }
        m.el("h3", "Each rule's verdicts");
        m.open("table", "class", "mini rules");
        m.open("thead").open("tr").el("th", "Rule").el("th", "Writes", "class", "num").el("th", "Pass", "class", "num")
                .el("th", "Fail", "class", "num").el("th", "Unknown", "class", "num")
                .el("th", "Would refuse", "class", "num").close("tr").close("thead");
        m.open("tbody");
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            int[] n = e.getValue();
            boolean enf = enforced.get(e.getKey());
            m.open("tr");
            m.open("td").el("span", e.getKey(), "class", "mono");
            if (!enf) {
                m.el("span", " (logged only)", "class", "dim");
            }
            m.close("td");
            m.el("td", Format.count(n[0]), "class", "num");
            m.el("td", Format.count(n[1]), "class", "num" + (n[1] == 0 ? " zero" : " good"));
            m.el("td", Format.count(n[2]), "class", "num" + (n[2] == 0 ? " zero" : " bad"));
            m.el("td", Format.count(n[3]), "class", "num" + (n[3] == 0 ? " zero" : " look"));
            m.el("td", enf ? Format.count(n[2]) : "\u2013", "class", "num" + (enf && n[2] > 0 ? " bad" : " zero"));
            m.close("tr");
        }
        m.close("tbody").close("table");
    }

    private static void session(Html m, GuardBook.Replayed s) {
        String link = Links.session(s.summary().key());
        m.open("div", "class", "guard-session");
        m.open("h3").el("a", s.summary().session(), "href", link, "class", "mono");
        m.el("span", " (" + s.summary().domain() + ")", "class", "dim").close("h3");
        if (s.replay() == null) {
            m.el("p", "The log cannot be read now.", "class", "notice warn");
            m.close("div");
            return;
        }
        if (s.replay().writes().isEmpty()) {
            m.el("p", "no writes", "class", "dim");
            m.close("div");
            return;
        }
        m.open("ol", "class", "writes");
        for (int i = 0; i < s.replay().writes().size(); i++) {
            GuardReplay.Write w = s.replay().writes().get(i);
            int call = s.calls().get(i);
            m.open("li", "class", "write" + (w.refused() ? " refused" : ""));
            m.open("div", "class", "w-head");
            m.el("span", w.tMs() + " ms", "class", "c-time");
            m.el("span", w.tool(), "class", "c-name");
            m.el("span", Format.oneLine(JsonView.compact(w.arguments()), 120), "class", "c-args");
            m.el("span", "id " + w.callId() + (w.byProxy() ? " (by the proxy)" : ""), "class", "c-id");
            String href = call >= 0 ? link + "#c" + call : link;
            if (w.refused()) {
                m.open("a", "href", href, "class", "mark mark-red", "title", "open the call in its session")
                        .text("REFUSED \u2192").close("a");
            } else {
                m.open("a", "href", href, "class", "mark mark-green", "title", "open the call in its session")
                        .text("allowed \u2192").close("a");
            }
            m.close("div");
            m.open("ul", "class", "verdicts");
            for (GuardReplay.RuleVerdict v : w.verdicts()) {
                m.open("li", "class", "v-" + v.word());
                m.el("span", v.word(), "class", "v-word");
                m.el("span", v.rule().id(), "class", "mono");
                if (!v.rule().enforced()) {
                    m.el("span", " (logged only)", "class", "dim");
                }
                if (v.reason() != null) {
                    m.el("span", ": " + v.reason(), "class", "v-reason");
                }
                m.close("li");
            }
            m.close("ul");
            m.close("li");
        }
        m.close("ol");
        m.close("div");
    }
}
