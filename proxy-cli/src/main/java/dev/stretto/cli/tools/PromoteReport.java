package dev.stretto.cli.tools;

import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Promotion;
import dev.stretto.proxy.flow.PromotionResult;
import dev.stretto.trace.json.RustText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The Markdown report of a promotion: what was scored and how, the bar, and a table of the
 * sites the flow decided at, each with its counts, the share of its lookups the agent used,
 * the Wilson lower bound of that share, and whether it was promoted (or which part of the bar
 * it missed).
 */
final class PromoteReport {

    private PromoteReport() {
    }

    /** The report of {@code r}, scored on the sessions of {@code sessions} with {@code scoring}. */
    static String of(PromotionResult r, Path sessions, Promotion.Scoring scoring, int perCall) {
        Promoted p = r.promoted();
        Promoted.Bar bar = p.bar();
        StringBuilder out = new StringBuilder();
        out.append("# Promotion of the ").append(r.flow().domain()).append(" flow\n\n");
        out.append("Scored ").append(r.sessions()).append(" sessions from `").append(sessions)
                .append("` with the ").append(r.decider().wireName()).append(" decider at threshold ")
                .append(RustText.display(bar.threshold())).append(", ")
                .append(scoring == Promotion.Scoring.SINGLE_PASS
                        ? "one decision after each call (single-pass scoring)"
                        : "as served, chaining after used lookups up to " + perCall + " per call ("
                        + r.passes() + (r.passes() == 1 ? " pass" : " passes") + ")")
                .append(". Decisions left out because the System-One model gave no answer: ").append(r.unanswered())
                .append(".\n\n");
        out.append("## The bar\n\n");
        out.append("A site is promoted when the flow proposed lookups there, the agent itself made at least ")
                .append(percent(bar.minUsed())).append(" of them afterwards (used), the 90% Wilson lower bound of")
                .append(" that share is at least ").append(RustText.display(bar.minLower()))
                .append(", and the lookups came from at least ").append(bar.minTasks()).append(" tasks.\n\n");
        out.append("## Sites\n\n");
        if (p.sites().isEmpty()) {
            out.append("The flow decided at no site.\n");
        } else {
            out.append("| site | decisions | lookups | used | used share | tasks | lower bound | promoted |\n");
            out.append("| --- | ---: | ---: | ---: | ---: | ---: | ---: | --- |\n");
            for (Map.Entry<String, Promoted.SiteScore> e : p.sites().entrySet()) {
                Promoted.SiteScore s = e.getValue();
                out.append("| `").append(e.getKey()).append("` | ").append(s.decisions()).append(" | ")
                        .append(s.lookups()).append(" | ").append(s.used()).append(" | ")
                        .append(s.lookups() == 0 ? "-" : percent((double) s.used() / s.lookups())).append(" | ")
                        .append(s.tasks()).append(" | ").append(String.format(Locale.ROOT, "%.4f", s.lower()))
                        .append(" | ").append(verdict(s, bar)).append(" |\n");
            }
        }
        long promoted = p.sites().values().stream().filter(Promoted.SiteScore::promoted).count();
        out.append("\n").append(promoted).append(" of ").append(p.sites().size()).append(" sites promoted. ");
        out.append(promoted == 0 ? "The promoted flow hands back after every call.\n"
                : "After a call at any other site the promoted flow hands back (the site is not promoted).\n");
        return out.toString();
    }

    private static String verdict(Promoted.SiteScore s, Promoted.Bar bar) {
        if (s.promoted()) {
            return "yes";
        }
        if (s.lookups() == 0) {
            return "no: no lookups";
        }
        List<String> missed = new ArrayList<>();
        double share = (double) s.used() / s.lookups();
        if (share < bar.minUsed()) {
            missed.add("used " + percent(share) + " < " + percent(bar.minUsed()));
        }
        if (s.lower() < bar.minLower()) {
            missed.add("lower bound " + RustText.twoDecimals(s.lower()) + " < " + RustText.display(bar.minLower()));
        }
        if (s.tasks() < bar.minTasks()) {
            missed.add(s.tasks() + " tasks < " + bar.minTasks());
        }
        return "no: " + String.join(", ", missed);
    }

    private static String percent(double share) {
        String s = String.format(Locale.ROOT, "%.1f", share * 100);
        return (s.endsWith(".0") ? s.substring(0, s.length() - 2) : s) + "%";
    }
}
