package dev.stretto.cli.tools;

import dev.stretto.proxy.ActiveSettings;
import dev.stretto.proxy.GuardReplay;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import dev.stretto.trace.log.SessionLog;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code stretto guards}: each recorded session's writes replayed through its domain's guards.
 * As text: per write, each rule's verdict and reason, then a table of how many writes each
 * rule checked, passed, failed, could not decide, and would have refused. With {@code --json}:
 * one object per write holding the verdict objects, and a session whose domain has no guards
 * named on stderr instead.
 */
final class GuardsReport {

    private static final String[] HEADINGS = {"RULE", "WRITES", "PASS", "FAIL", "UNKNOWN", "WOULD REFUSE"};
    private static final boolean[] RIGHT = {false, true, true, true, true, true};

    private final PrintStream out;
    private final PrintStream err;
    private final boolean json;
    /** Per rule id: writes checked, passes, failures, unknowns; in the order domains and rules come. */
    private final Map<String, int[]> counts = new LinkedHashMap<>();
    private final Map<String, GuardReplay.Rule> rules = new LinkedHashMap<>();

    GuardsReport(PrintStream out, PrintStream err, boolean json) {
        this.out = out;
        this.err = err;
        this.json = json;
    }

    /**
     * Replays one session.
     *
     * @param domain the domain to check it against (--domain), or null for the log's own
     */
    void session(SessionLog log, String domain) {
        String name = domain != null ? domain : log.header().domain();
        if (name == null || !ActiveSettings.guardedDomains().contains(name)) {
            String why = log.session() + ": " + (name == null ? "the log names no domain" : "no guards for " + name)
                    + "; give --domain " + ActiveSettings.guardedDomainNames();
            if (json) {
                err.println("stretto: " + why + " (skipped)");
            } else {
                out.println(why);
                out.println();
            }
            return;
        }
        GuardReplay replay = GuardReplay.of(log, name);
        for (GuardReplay.Rule r : replay.rules()) {
            rules.putIfAbsent(r.id(), r);
            counts.putIfAbsent(r.id(), new int[4]);
        }
        if (!json) {
            out.println(log.session() + "  (" + replay.domain() + ")");
            if (replay.writes().isEmpty()) {
                out.println("  no writes");
            }
        }
        for (GuardReplay.Write w : replay.writes()) {
            count(w);
            if (json) {
                printJson(log, w);
            } else {
                printText(w);
            }
        }
        if (!json) {
            out.println();
        }
    }

    private void count(GuardReplay.Write w) {
        for (GuardReplay.Check c : w.checks()) {
            int[] n = counts.get(c.rule().id());
            n[0]++;
            n[switch (c.outcome()) {
                case PASS -> 1;
                case FAIL -> 2;
                case UNKNOWN -> 3;
            }]++;
        }
    }

    private void printText(GuardReplay.Write w) {
        out.println(String.format("%7d ms  %s %s  id %s%s", w.tMs(), w.call().name(),
                TimelinePrinter.cut(CanonicalJson.write(w.call().arguments())), w.call().id(),
                w.from() == dev.stretto.trace.log.Source.PROXY ? "  (by the proxy)" : ""));
        for (GuardReplay.Check c : w.checks()) {
            String reason = c.reason();
            out.println(String.format("             %-8s %s%s%s", c.outcome().word(), c.rule().id(),
                    c.rule().enforced() ? "" : " (logged only)", reason == null ? "" : ": " + reason));
        }
        out.println("             -> " + (w.refused() ? "REFUSED" : "allowed"));
    }

    private void printJson(SessionLog log, GuardReplay.Write w) {
        StringBuilder line = new StringBuilder("{\"session\":");
        JsonText.appendQuoted(line, log.session());
        line.append(",\"t_ms\":").append(w.tMs()).append(",\"id\":");
        JsonText.appendQuoted(line, w.call().id());
        line.append(",\"tool\":");
        JsonText.appendQuoted(line, w.call().name());
        line.append(",\"arguments\":");
        CanonicalJson.append(line, w.call().arguments());
        line.append(",\"refused\":").append(w.refused()).append(",\"verdicts\":{");
        List<GuardReplay.Check> checks = w.checks();
        for (int i = 0; i < checks.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            JsonText.appendQuoted(line, checks.get(i).rule().id());
            line.append(':').append(checks.get(i).toJson());
        }
        out.println(line.append("}}"));
    }

    /** The table of how often each rule of the domains seen failed, and would have refused. */
    void summary() {
        if (json || counts.isEmpty()) {
            return;
        }
        List<String[]> rows = new ArrayList<>();
        rows.add(HEADINGS);
        for (Map.Entry<String, int[]> e : counts.entrySet()) {
            int[] n = e.getValue();
            boolean enforced = rules.get(e.getKey()).enforced();
            rows.add(new String[] {e.getKey() + (enforced ? "" : " (logged only)"), Integer.toString(n[0]),
                    Integer.toString(n[1]), Integer.toString(n[2]), Integer.toString(n[3]),
                    enforced ? Integer.toString(n[2]) : "-"});
        }
        TextTable.print(out, rows, RIGHT);
    }
}
