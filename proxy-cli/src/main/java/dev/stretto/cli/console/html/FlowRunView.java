package dev.stretto.cli.console.html;

import dev.stretto.cli.console.source.FlowRun;
import java.util.ArrayList;
import java.util.List;

/**
 * What a served flow did after one of the agent's calls: each decision with its site, the
 * lookup it proposed or why it handed back, its probability (with a bar), and what became of the
 * lookup; then how many it made and how surprising their outcomes were.
 */
final class FlowRunView {

    private FlowRunView() {
    }

    /**
     * Writes a run.
     *
     * @param orphan whether its call is not in the log, so the run names it
     */
    static void write(Html m, FlowRun run, boolean orphan) {
        m.open("div", "class", "flow-run" + (run.shadow() ? " shadow" : ""));
        m.open("div", "class", "fr-head");
        m.el("span", orphan ? "Flow after call " + run.after() + (run.call() == null ? "" : ": " + run.call())
                : "The flow after this call", "class", "fr-title");
        if (run.shadow()) {
            Badges.mark(m, "SHADOW", "gray", "in shadow the flow decides and logs, and looks nothing up");
        }
        String made;
        if (run.made() == null) {
            made = "no run line: the session ended during this run";
        } else if (run.shadow()) {
            made = Format.plural(run.proposed(), "lookup", "lookups") + " it would have made";
        } else {
            made = (run.made() == 0 ? "no lookup" : Format.plural(run.made(), "lookup", "lookups")) + " made";
        }
        m.el("span", made, "class", "dim");
        if (run.surprise() != null) {
            m.el("span", "surprise " + Format.probability(run.surprise()), "class", "dim",
                    "title", "how unlikely the lookups' outcomes were under the flow, in nats");
        }
        m.close("div");
        m.open("ol", "class", "decisions");
        for (FlowRun.Decision d : run.decisions()) {
            decision(m, d);
        }
        m.close("ol");
        m.close("div");
    }

    private static void decision(Html m, FlowRun.Decision d) {
        String outcome = switch (d.outcome()) {
            case MADE -> "made";
            case FAILED -> "failed";
            case NO_ANSWER -> "noanswer";
            case NOT_MADE -> "notmade";
            case UNKNOWN -> "unknown";
            case HANDED_BACK -> "hand";
        };
        m.open("li", "class", "d " + outcome);
        m.el("span", d.address(), "class", "d-addr");
        m.el("span", "at " + (d.site() == null ? "(no call)" : d.site()), "class", "d-site");
        m.open("span", "class", "d-act");
        if (d.lookup()) {
            m.text("look up ").el("strong", d.tool()).text(" ");
            m.el("code", Format.oneLine(JsonView.compact(d.arguments()), 120));
        } else {
            m.text("hand back: ").el("span", d.reason() == null ? "" : d.reason(), "class", "reason");
        }
        m.close("span");
        m.open("span", "class", "d-p");
        if (d.prob() != null) {
            meter(m, d.prob());
            m.text("p " + Format.probability(d.prob()));
            if (d.lookup() && d.binding() != null) {
                m.text(" \u00b7 arguments " + Format.probability(d.binding()));
            }
        }
        m.close("span");
        String mark = switch (d.outcome()) {
            case MADE -> "made";
            case FAILED -> "made, FAILED";
            case NO_ANSWER -> "made, no answer";
            case NOT_MADE -> d.shadow() ? "not made (shadow)" : "NOT MADE";
            case UNKNOWN -> "outcome unknown";
            case HANDED_BACK -> null;
        };
        if (mark != null) {
            Badges.mark(m, mark, switch (d.outcome()) {
                case MADE -> "green";
                case FAILED -> "red";
                case NOT_MADE -> d.shadow() ? "gray" : "amber";
                default -> "amber";
            }, null);
        }
        List<String> extra = new ArrayList<>();
        if (d.propensity() != null) {
            extra.add((d.explored() ? "explored, " : "") + "propensity " + Format.probability(d.propensity()));
        }
        if (d.oracleKey() != null) {
            extra.add("oracle " + d.oracleKey().substring(0, Math.min(12, d.oracleKey().length())));
        }
        if (d.ms() > 0) {
            extra.add(d.ms() + " ms");
        }
        if (!extra.isEmpty()) {
            m.el("span", String.join(" \u00b7 ", extra), "class", "dim");
        }
        m.close("li");
    }

    /** A small bar of a probability. */
    private static void meter(Html m, double p) {
        double w = Math.max(0, Math.min(1, p)) * 100;
        m.open("svg", "class", "meter", "viewBox", "0 0 100 6", "preserveAspectRatio", "none", "aria-hidden", "true");
        m.leaf("rect", "class", "m-bg", "width", "100", "height", "6", "rx", "3");
        m.leaf("rect", "class", "m-fg", "width", String.format(java.util.Locale.ROOT, "%.1f", w), "height", "6", "rx",
                "3");
        m.close("svg");
    }
}
