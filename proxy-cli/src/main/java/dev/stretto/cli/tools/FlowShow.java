package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.decide.DeciderChoice;
import dev.stretto.proxy.flow.decide.RustText;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.model.Promoted;
import dev.stretto.proxy.flow.model.Provenance;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.manifest.ToolKind;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * {@code stretto flow-show FLOW}: a flow as a person reads it. Where it came from; the tools;
 * after each call (each site), the lookups that followed it in training and how often; each
 * lookup's arguments with where their values come from and how often the flow's binding
 * matched the agent's; per-site thresholds; the arbiter (its predicates, model and each fold's
 * rates and weights); and the promotion record with its bar.
 */
final class FlowShow {

    private static final DateTimeFormatter WHEN = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss 'UTC'",
            Locale.ROOT).withZone(ZoneOffset.UTC);

    private final PrintStream out;

    FlowShow(PrintStream out) {
        this.out = out;
    }

    void print(String name, Flow flow) {
        heading(name, flow);
        tools(flow);
        sites(flow);
        lookups(flow);
        deciding(flow);
        arbiter(flow);
        promotion(flow);
    }

    private void heading(String name, Flow flow) {
        Provenance p = flow.provenance();
        out.println("The " + flow.manifest().domain() + " flow (" + name + ", format " + flow.format() + ")");
        out.println("  learned by stretto " + p.stretto() + " on " + WHEN.format(Instant.ofEpochMilli(p.compiledUnixMs()))
                + " from " + count(p.habitEpisodes(), "successful session")
                + (p.sources().isEmpty() ? "" : " (sources: " + String.join(", ", p.sources()) + ")")
                + (p.conventions() == null ? "" : " read with the " + p.conventions()));
    }

    private void tools(Flow flow) {
        out.println();
        out.println("Tools (only read tools are ever looked up)");
        for (Map.Entry<String, ToolKind> t : flow.manifest().tools().entrySet()) {
            String contract = flow.contracts().get(t.getKey());
            out.println(("  " + pad(t.getKey(), 32) + pad(t.getValue().wireName(), 9)
                    + (contract == null ? "" : "(" + contract + ")")).stripTrailing());
        }
    }

    private void sites(Flow flow) {
        out.println();
        Sites s = flow.sites();
        out.println("Sites: after each call, the lookups that followed it in training (" + (s.everyRead()
                ? "and every read tool is offered at every site)" : "the flow offers these, or hands back)"));
        if (s.next().isEmpty()) {
            out.println("  none: the flow hands back after every call");
        }
        for (Map.Entry<Sites.Site, Map<String, Long>> e : s.next().entrySet()) {
            List<String> lookups = new ArrayList<>();
            e.getValue().forEach((tool, n) -> lookups.add(tool + " \u00d7" + n));
            out.println("  " + pad(e.getKey().name(), 32) + String.join(", ", lookups));
        }
        for (Map.Entry<String, Map<Sites.Feed, Long>> f : s.feeds().entrySet()) {
            List<String> fed = new ArrayList<>();
            f.getValue().forEach((feed, n) -> fed.add(feed.write() + "." + feed.argument() + " (" + count(n, "episode")
                    + ")"));
            out.println("  " + f.getKey() + " supplies " + String.join(", ", fed));
        }
    }

    private void lookups(Flow flow) {
        out.println();
        out.println("Lookups and their arguments");
        Bindings b = flow.bindings();
        if (b.args().isEmpty()) {
            out.println("  none: no read tool was called in training");
        }
        for (Map.Entry<String, Bindings.ArgCounts> e : b.args().entrySet()) {
            String tool = e.getKey();
            Bindings.ArgCounts counts = e.getValue();
            out.println("  " + tool + " (" + count(counts.calls(), "call") + " in training)");
            List<String> required = counts.required();
            for (Map.Entry<String, Long> arg : counts.passed().entrySet()) {
                boolean req = required.contains(arg.getKey());
                out.println("    " + arg.getKey() + ": " + (req ? "required" : "optional, not passed") + ", in "
                        + arg.getValue() + " of " + counts.calls() + " calls" + (req ? "; " + source(b, tool,
                        arg.getKey()) : ""));
            }
            Long bare = b.bare().get(tool);
            if (bare != null) {
                out.println("    called with no arguments " + bare + " of " + counts.calls() + " times: chance "
                        + RustText.twoDecimals((bare + 1.0) / (counts.calls() + 2)));
            }
            Bindings.Agreed agreed = b.agreed().get(tool);
            if (agreed != null) {
                out.println("    the binding matched the agent " + chance(agreed.unmentioned())
                        + " when the customer had not named the value, " + chance(agreed.mentioned())
                        + " when they had");
            }
            Bindings.UsedPicks other = b.namedOther().get(tool);
            if (other != null) {
                out.println("    when the customer named another value: used " + other.used() + " of "
                        + other.picks() + " picks");
            }
            Bindings.UsedPicks described = b.describedRead().get(tool);
            if (described != null) {
                out.println("    when the customer described a record already read: used " + described.used()
                        + " of " + described.picks() + " picks");
            }
        }
    }

    /** Where a required argument's values come from. */
    private static String source(Bindings b, String tool, String arg) {
        Bindings.ToolArg key = new Bindings.ToolArg(tool, arg);
        JsonNode constant = b.constant(tool, arg);
        if (constant != null) {
            return "always " + CanonicalJson.write(constant);
        }
        Bindings.Traced list = b.lists().get(key);
        Bindings.Traced traced = list != null ? list : b.sources().get(key);
        if (traced == null) {
            return "never a string in training, so the agent supplies it";
        }
        List<String> from = new ArrayList<>();
        List<Bindings.SourcePath> usable = traced.usable();
        traced.found().forEach((src, n) -> from.add(src.tool() + " " + src.path() + " (" + n + " of "
                + traced.values() + (usable.contains(src) ? "" : ", too few to use") + ")"));
        if (usable.isEmpty()) {
            return (from.isEmpty() ? "found in no earlier result" : "seldom found: " + String.join(", ", from))
                    + ", so the agent supplies it (the flow never looks this up)";
        }
        return (list != null ? "the whole list from " : "from ") + String.join(", ", from);
    }

    private void deciding(Flow flow) {
        out.println();
        String decider = DeciderChoice.defaultFor(flow).wireName();
        out.println("Deciding: with " + decider + " unless --flow-decider says otherwise" + (flow.reach() == null
                ? " (no reach counts, so not with reach)" : ""));
        if (flow.thresholds().isEmpty()) {
            out.println("  threshold: --flow-threshold at every site (0.3 by default)");
        }
        flow.thresholds().forEach((site, t) -> out.println("  " + pad(site, 32) + (t > 1 ? "switched off (threshold "
                + RustText.display(t) + ")" : "threshold " + RustText.display(t))));
    }

    private void arbiter(Flow flow) {
        out.println();
        if (!flow.hasArbiter()) {
            out.println("Arbiter: none (learned without a System-One model)");
            return;
        }
        out.println("Arbiter: asks " + flow.model() + "; fitted on " + count(flow.provenance().arbiterCases(),
                "held-out decision"));
        for (Predicate p : flow.predicates()) {
            out.println("  predicate " + p.id() + (flow.weighed().contains(p) ? "" : " (asked, not weighed)")
                    + ", a yes favors " + favors(p.favors()) + ": " + p.question());
        }
        List<Fold> folds = flow.folds();
        boolean identical = folds.stream().allMatch(f -> f.equals(folds.getFirst()));
        for (int i = 0; i < (identical ? 1 : folds.size()); i++) {
            Fold f = folds.get(i);
            out.println("  " + (identical ? count(folds.size(), "identical fold") : "fold " + i) + ": agreed with the"
                    + " agent " + percent(f.rates().agree()) + ", its choice offered " + percent(f.rates().cover())
                    + "; weights " + weights(f.weights()));
            for (Fold.SiteRates s : f.rates().sites()) {
                out.println("    " + pad(s.site(), 40) + number(s.decisions()) + " decisions, agreed "
                        + percent(s.agreed() / s.decisions()) + ", offered " + percent(s.covered() / s.decisions()));
            }
        }
    }

    private void promotion(Flow flow) {
        out.println();
        Promoted p = flow.promoted();
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

    private static String favors(Predicate.Favors f) {
        return switch (f) {
            case Predicate.Named n -> switch (n.name()) {
                case "same_lookup" -> "the lookup just made, again";
                case "any_lookup" -> "any lookup";
                default -> "handing back";
            };
            case Predicate.Lookup l -> l.tool();
        };
    }

    private static String weights(List<Double> w) {
        List<String> parts = new ArrayList<>();
        w.forEach(v -> parts.add(String.format(Locale.ROOT, "%.3f", v)));
        return "[" + String.join(", ", parts) + "]";
    }

    private static String chance(Bindings.Tally t) {
        return t.agreed() + " of " + t.calls() + " (chance " + RustText.twoDecimals(t.chance()) + ")";
    }

    private static String percent(double share) {
        return Double.isNaN(share) ? "-" : String.format(Locale.ROOT, "%.0f%%", share * 100);
    }

    private static String number(double d) {
        return RustText.display(d);
    }

    private static String count(long n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String pad(String s, int width) {
        return s.length() >= width ? s + "  " : s + " ".repeat(width - s.length());
    }
}
