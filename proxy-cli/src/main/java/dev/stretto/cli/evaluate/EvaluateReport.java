package dev.stretto.cli.evaluate;

import dev.stretto.proxy.flow.decide.RustText;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * The report of {@code stretto evaluate}: for each target, its estimates over all the
 * decisions and at each site, each metric by the four estimators with their standard errors,
 * and the effective sample size and unsupported count they rest on.
 */
public final class EvaluateReport {

    private EvaluateReport() {
    }

    /**
     * The report.
     *
     * @param files     how many files the decisions came from
     * @param decisions the labelled decisions
     * @param targets   the targets
     * @param minEss    the effective sample size below which weighted estimates are refused
     */
    public static String of(int files, List<LabelledDecision> decisions, List<Target> targets, double minEss) {
        StringBuilder out = new StringBuilder();
        TreeMap<String, Integer> deciders = new TreeMap<>();
        decisions.forEach(d -> deciders.merge(d.decider(), 1, Integer::sum));
        List<String> logged = new ArrayList<>();
        deciders.forEach((name, n) -> logged.add(name + " (" + n + ")"));
        out.append(decisions.size()).append(" labelled decisions from ").append(files).append(files == 1 ? " file"
                : " files").append(", logged by ").append(String.join(", ", logged)).append(".\n");
        Map<String, List<LabelledDecision>> bySite = new TreeMap<>(CanonicalJson::compareCodePoints);
        decisions.forEach(d -> bySite.computeIfAbsent(d.site(), s -> new ArrayList<>()).add(d));
        for (Target t : targets) {
            out.append("\ntarget ").append(t.name()).append(" = ").append(t.decider().wireName()).append('@')
                    .append(RustText.display(t.threshold())).append('\n');
            section(out, "all sites", Estimates.of(t, decisions, decisions), minEss);
            for (Map.Entry<String, List<LabelledDecision>> e : bySite.entrySet()) {
                section(out, "at " + e.getKey(), Estimates.of(t, e.getValue(), decisions), minEss);
            }
        }
        return out.toString();
    }

    private static void section(StringBuilder out, String title, Estimates e, double minEss) {
        boolean refused = e.ess() < minEss;
        out.append("  ").append(title).append(": ").append(e.decisions()).append(e.decisions() == 1 ? " decision"
                : " decisions").append(", effective sample size ").append(format(e.ess())).append(", ")
                .append(e.unsupported()).append(" unsupported").append(refused ? " (below " + RustText.display(minEss)
                        + ": weighted estimates refused)" : "").append('\n');
        out.append(String.format(Locale.ROOT, "    %-9s %-17s %-17s %-17s %s%n", "metric", "direct", "IPS", "SNIPS",
                "doubly robust"));
        for (Estimates.Metric m : e.metrics()) {
            out.append(String.format(Locale.ROOT, "    %-9s %-17s %-17s %-17s %s%n", m.name(), cell(m.direct()),
                    refused ? "-" : cell(m.ips()), refused ? "-" : cell(m.snips()), refused ? "-" : cell(m.dr())));
        }
    }

    private static String cell(Estimates.Estimate e) {
        if (Double.isNaN(e.value())) {
            return "-";
        }
        return format(e.value()) + (Double.isNaN(e.error()) ? "" : " \u00b1 " + format(e.error()));
    }

    private static String format(double d) {
        return String.format(Locale.ROOT, "%.3f", d);
    }
}
