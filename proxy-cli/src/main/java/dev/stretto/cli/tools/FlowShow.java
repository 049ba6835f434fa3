package dev.stretto.cli.tools;

import dev.stretto.proxy.flow.FlowView;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.json.RustText;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code stretto flow-show FLOW}: a flow as a person reads it, the text of the library's {@link
 * FlowView}. Where it came from; the tools; after each call (each site), the lookups that
 * followed it in training and how often; each lookup's arguments with where their values come
 * from and how often the flow's binding matched the agent's; per-site thresholds; the arbiter
 * (its predicates, model and each fold's rates and weights); and the promotion record with its
 * bar.
 */
final class FlowShow {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private final PrintStream out;

    FlowShow(PrintStream out) {
        this.out = out;
    }

    void print(String name, FlowView flow) {
        heading(name, flow);
        tools(flow);
        sites(flow.sites());
        lookups(flow.lookups());
        deciding(flow.deciding());
        arbiter(flow.arbiter());
        promotion(flow.promoted());
    }

    private void heading(String name, FlowView flow) {
        Provenance p = flow.provenance();
        out.println("The " + flow.domain() + " flow (" + name + ", format " + flow.format() + ")");
        out.println("  learned by stretto " + p.stretto() + " on " + WHEN.format(Instant.ofEpochMilli(p.compiledUnixMs()))
                + " from " + count(p.habitEpisodes(), "successful session")
                + (p.sources().isEmpty() ? "" : " (sources: " + String.join(", ", p.sources()) + ")")
                + (p.conventions() == null ? "" : " read with the " + p.conventions()));
    }

    private void tools(FlowView flow) {
        out.println();
        out.println("Tools (only read tools are ever looked up)");
        for (FlowView.Tool t : flow.tools()) {
            out.println(("  " + pad(t.name(), 32) + pad(t.kind().wireName(), 9)
                    + (t.contract() == null ? "" : "(" + t.contract() + ")")).stripTrailing());
        }
    }

    private void sites(FlowView.SiteView s) {
        out.println();
        out.println("Sites: after each call, the lookups that followed it in training (" + (s.everyRead()
                ? "and every read tool is offered at every site)" : "the flow offers these, or hands back)"));
        if (s.sites().isEmpty()) {
            out.println("  none: the flow hands back after every call");
        }
        for (FlowView.Site site : s.sites()) {
            List<String> lookups = new ArrayList<>();
            site.lookups().forEach((tool, n) -> lookups.add(tool + " \u00d7" + n));
            out.println("  " + pad(site.name(), 32) + String.join(", ", lookups));
        }
        for (FlowView.Feed f : s.feeds()) {
            List<String> fed = new ArrayList<>();
            f.fed().forEach(x -> fed.add(x.write() + "." + x.argument() + " (" + count(x.episodes(), "episode") + ")"));
            out.println("  " + f.lookup() + " supplies " + String.join(", ", fed));
        }
    }

    private void lookups(List<FlowView.Lookup> lookups) {
        out.println();
        out.println("Lookups and their arguments");
        if (lookups.isEmpty()) {
            out.println("  none: no read tool was called in training");
        }
        for (FlowView.Lookup l : lookups) {
            out.println("  " + l.tool() + " (" + count(l.calls(), "call") + " in training)");
            for (FlowView.Argument arg : l.arguments()) {
                out.println("    " + arg.name() + ": " + (arg.required() ? "required" : "optional, not passed") + ", in "
                        + arg.passed() + " of " + l.calls() + " calls" + (arg.required() ? "; " + source(arg.source())
                        : ""));
            }
            if (l.bare() != null) {
                out.println("    called with no arguments " + l.bare() + " of " + l.calls() + " times: chance "
                        + RustText.twoDecimals(l.bareChance()));
            }
            if (l.agreed() != null) {
                out.println("    the binding matched the agent " + chance(l.agreed().unmentioned())
                        + " when the customer had not named the value, " + chance(l.agreed().mentioned())
                        + " when they had");
            }
            if (l.namedOther() != null) {
                out.println("    when the customer named another value: used " + l.namedOther().used() + " of "
                        + l.namedOther().picks() + " picks");
            }
            if (l.describedRead() != null) {
                out.println("    when the customer described a record already read: used " + l.describedRead().used()
                        + " of " + l.describedRead().picks() + " picks");
            }
        }
    }

    /** Where a required argument's values come from. */
    private static String source(FlowView.ValueSource source) {
        return switch (source) {
            case FlowView.Always a -> "always " + CanonicalJson.write(a.value());
            case FlowView.Unsourced u -> "never a string in training, so the agent supplies it";
            case FlowView.Traced t -> {
                List<String> from = new ArrayList<>();
                t.found().forEach(f -> from.add(f.tool() + " " + f.path() + " (" + f.count() + " of " + t.values()
                        + (f.usable() ? "" : ", too few to use") + ")"));
                t.said().forEach(s -> from.add("the customer's words, shaped " + s.shape() + " (" + s.count() + " of "
                        + t.values() + (s.usable() ? "" : ", too few to use") + ")"));
                if (!t.bindable()) {
                    yield (from.isEmpty() ? "found in no earlier result" : "seldom found: " + String.join(", ", from))
                            + ", so the agent supplies it (the flow never looks this up)";
                }
                yield (t.wholeList() ? "the whole list from " : "from ") + String.join(", ", from);
            }
        };
    }

    private void deciding(FlowView.Deciding d) {
        out.println();
        out.println("Deciding: with " + d.byDefault().wireName() + " unless --flow-decider says otherwise"
                + (d.reach() ? "" : " (no reach counts, so not with reach)"));
        if (d.thresholds().isEmpty()) {
            out.println("  threshold: --flow-threshold at every site (0.3 by default)");
        }
        d.thresholds().forEach((site, t) -> out.println("  " + pad(site, 32) + (t > 1 ? "switched off (threshold "
                + RustText.display(t) + ")" : "threshold " + RustText.display(t))));
        for (FlowView.LookupThreshold l : d.lookups()) {
            out.println("  " + pad(l.site() + " → " + l.tool() + ", " + l.when(), 32) + " " + (l.threshold() > 1
                    ? "never looked up (threshold " + RustText.display(l.threshold()) + ")"
                    : "threshold " + RustText.display(l.threshold())));
        }
    }

    private void arbiter(FlowView.Arbiter a) {
        out.println();
        if (a == null) {
            out.println("Arbiter: none (learned without a System-One model)");
            return;
        }
        out.println("Arbiter: asks " + a.model() + "; fitted on " + count(a.cases(), "held-out decision"));
        for (FlowView.Question p : a.predicates()) {
            out.println("  predicate " + p.id() + (p.weighed() ? "" : " (asked, not weighed)")
                    + ", a yes favors " + favors(p) + ": " + p.question());
        }
        List<FlowView.Fold> folds = a.folds();
        boolean identical = folds.stream().allMatch(f -> f.equals(folds.getFirst()));
        for (int i = 0; i < (identical ? 1 : folds.size()); i++) {
            FlowView.Fold f = folds.get(i);
            out.println("  " + (identical ? count(folds.size(), "identical fold") : "fold " + i) + ": agreed with the"
                    + " agent " + percent(f.agree()) + ", its choice offered " + percent(f.cover())
                    + "; weights " + weights(f.weights()));
            for (FlowView.SiteRates s : f.sites()) {
                out.println("    " + pad(s.site(), 40) + RustText.display(s.decisions()) + " decisions, agreed "
                        + percent(s.agreed() / s.decisions()) + ", offered " + percent(s.covered() / s.decisions()));
            }
        }
    }

    private void promotion(Promoted p) {
        out.println();
        if (p == null) {
            out.println("Promotion: none (the flow acts after every call)");
            return;
        }
        Promoted.Bar bar = p.bar();
        out.println("Promotion: acts only after calls at promoted sites. The bar: lookups used at least "
                + percent(bar.minUsed()) + ", Wilson lower bound at least " + RustText.display(bar.minLower())
                + ", from at least " + count(bar.minTasks(), "task") + ", at threshold "
                + RustText.display(bar.threshold()));
        for (Map.Entry<String, Promoted.SiteScore> e : p.sites().entrySet()) {
            Promoted.SiteScore s = e.getValue();
            out.println("  " + pad(e.getKey(), 32) + (s.promoted() ? "promoted  " : "not promoted  ")
                    + s.used() + " of " + s.lookups() + " lookups used, " + count(s.decisions(), "decision") + ", "
                    + count(s.tasks(), "task") + ", lower bound " + RustText.twoDecimals(s.lower()));
        }
    }

    private static String favors(FlowView.Question p) {
        if (p.favorsTool() != null) {
            return p.favorsTool();
        }
        return switch (p.favorsName()) {
            case "same_lookup" -> "the lookup just made, again";
            case "any_lookup" -> "any lookup";
            default -> "handing back";
        };
    }

    private static String weights(List<Double> w) {
        List<String> parts = new ArrayList<>();
        w.forEach(v -> parts.add(String.format(Locale.ROOT, "%.3f", v)));
        return "[" + String.join(", ", parts) + "]";
    }

    private static String chance(FlowView.Tally t) {
        return t.agreed() + " of " + t.calls() + " (chance " + RustText.twoDecimals(t.chance()) + ")";
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    private static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + "  " : s + " ".repeat(width - s.length());
    }
}
