package dev.stretto.cli.tools;

import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.guard.Judgement;
import dev.stretto.proxy.guard.Replay;
import dev.stretto.proxy.guard.Rule;
import dev.stretto.proxy.guard.Verdict;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import dev.stretto.trace.log.SessionLog;
import java.io.PrintStream;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

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
    private final Map<String, Rule> rules = new LinkedHashMap<>();

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
        Optional<Guards> guards = name == null ? Optional.empty() : Guards.forDomain(name);
        if (guards.isEmpty()) {
            String why = log.session() + ": " + (name == null ? "the log names no domain" : "no guards for " + name)
                    + "; give --domain " + Guards.domainNames();
            if (json) {
                err.println("stretto: " + why + " (skipped)");
            } else {
                out.println(why);
                out.println();
            }
            return;
        }
        for (Rule r : guards.get().domain().rules()) {
            rules.putIfAbsent(r.id(), r);
            counts.putIfAbsent(r.id(), new int[4]);
        }
        List<Replay.Write> writes = Replay.of(log, guards.get());
        if (!json) {
            out.println(log.session() + "  (" + guards.get().domain().name() + ")");
            if (writes.isEmpty()) {
                out.println("  no writes");
            }
        }
        for (Replay.Write w : writes) {
            count(w.judgement());
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

    private void count(Judgement j) {
        for (Judgement.Checked c : j.verdicts()) {
            int[] n = counts.get(c.rule().id());
            n[0]++;
            n[c.verdict() instanceof Verdict.Pass ? 1 : c.verdict() instanceof Verdict.Fail ? 2 : 3]++;
        }
    }

    private void printText(Replay.Write w) {
        out.println(String.format("%7d ms  %s %s  id %s%s", w.tMs(), w.call().name(),
                TimelinePrinter.cut(CanonicalJson.write(w.call().arguments())), w.call().id(),
                w.from() == dev.stretto.trace.log.Source.PROXY ? "  (by the proxy)" : ""));
        for (Judgement.Checked c : w.judgement().verdicts()) {
            String reason = c.verdict().reason();
            out.println(String.format("             %-8s %s%s%s", c.verdict().word(), c.rule().id(),
                    c.rule().enforced() ? "" : " (logged only)", reason == null ? "" : ": " + reason));
        }
        out.println("             -> " + (w.judgement().refused() ? "REFUSED" : "allowed"));
    }

    private void printJson(SessionLog log, Replay.Write w) {
        StringBuilder line = new StringBuilder("{\"session\":");
        JsonText.appendQuoted(line, log.session());
        line.append(",\"t_ms\":").append(w.tMs()).append(",\"id\":");
        JsonText.appendQuoted(line, w.call().id());
        line.append(",\"tool\":");
        JsonText.appendQuoted(line, w.call().name());
        line.append(",\"arguments\":");
        CanonicalJson.append(line, w.call().arguments());
        line.append(",\"refused\":").append(w.judgement().refused()).append(",\"verdicts\":{");
        List<Judgement.Checked> verdicts = w.judgement().verdicts();
        for (int i = 0; i < verdicts.size(); i++) {
            if (i > 0) {
                line.append(',');
            }
            JsonText.appendQuoted(line, verdicts.get(i).rule().id());
            line.append(':').append(verdicts.get(i).verdict().toJson());
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
