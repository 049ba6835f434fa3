package dev.stretto.cli.tools;

import dev.stretto.proxy.flow.Estimates;
import dev.stretto.proxy.flow.Evaluation;
import dev.stretto.proxy.flow.EvaluationTarget;
import dev.stretto.trace.json.RustText;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report of {@code stretto evaluate}: for each target, its estimates over all the
 * decisions and at each site, each metric by the four estimators with their standard errors,
 * and the effective sample size and unsupported count they rest on.
 */
final class EvaluateReport {

    private EvaluateReport() {
    }

    /**
     * The report.
     *
     * @param files      how many files the decisions came from
     * @param evaluation the estimates
     * @param minEss     the effective sample size below which weighted estimates are refused
     */
    static String of(int files, Evaluation evaluation, double minEss) {
        StringBuilder out = new StringBuilder();
        List<String> logged = new ArrayList<>();
        evaluation.loggedBy().forEach((name, n) -> logged.add(name + " (" + n + ")"));
        out.append(evaluation.decisions()).append(" labelled decisions from ").append(files).append(files == 1
                ? " file" : " files").append(", logged by ").append(String.join(", ", logged)).append(".\n");
        for (Evaluation.Target e : evaluation.targets()) {
            EvaluationTarget t = e.target();
            out.append("\ntarget ").append(t.name()).append(" = ").append(t.decider().wireName()).append('@')
                    .append(RustText.display(t.threshold())).append('\n');
            section(out, "all sites", e.all(), minEss);
            for (Map.Entry<String, Estimates> site : e.bySite().entrySet()) {
                section(out, "at " + site.getKey(), site.getValue(), minEss);
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
