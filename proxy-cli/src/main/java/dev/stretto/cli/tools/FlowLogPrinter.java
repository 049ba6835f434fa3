package dev.stretto.cli.tools;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.wire.FlowLogFile;
import dev.stretto.trace.json.CanonicalJson;
import java.io.PrintStream;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Prints a flow log for people: {@code stretto flow} prints all of it, and {@code stretto show}
 * each run under the call it followed.
 */
final class FlowLogPrinter {

    private final PrintStream out;
    private final TimelinePrinter.Style style;

    FlowLogPrinter(PrintStream out, boolean colour) {
        this.out = out;
        this.style = new TimelinePrinter.Style(colour);
    }

    void print(String name, FlowLogFile log) {
        int lookups = log.runs().stream().mapToInt(FlowLogFile.Run::lookupsMade).sum();
        int decisions = log.runs().stream().mapToInt(r -> r.decisions().size()).sum();
        out.println(style.bold("flow log ") + name);
        out.println(style.dim(plural(log.runs().size(), "run") + ", " + plural(decisions, "decision") + ", "
                + plural(lookups, "lookup") + " made"));
        for (FlowLogFile.Run run : log.runs()) {
            out.println();
            printRun(run, "", "");
        }
    }

    /**
     * Prints one run: a head naming the call it followed, each decision, and what the run made,
     * each line after {@code indent}, the head after {@code label} too.
     */
    void printRun(FlowLogFile.Run run, String indent, String label) {
        StringBuilder head = new StringBuilder(indent).append(label).append("after call ").append(text(run.after()));
        if (run.run() != null) {
            head.append(": ").append(run.run().call());
            if (run.run().failed()) {
                head.append(' ').append(style.red("(failed)"));
            }
        }
        out.println(style.bold(head.toString()));
        for (FlowLogFile.Decided d : run.decisions()) {
            printDecision(d, run.run(), indent);
        }
        if (run.run() == null) {
            out.println(indent + "  " + style.yellow("no run line: the session ended during this run"));
            return;
        }
        int made = run.lookupsMade();
        out.println(indent + "  " + style.dim((made == 0 ? "no lookup" : plural(made, "lookup")) + " made, surprise "
                + twoDecimals(run.run().surprise() == 0 ? 0.0 : run.run().surprise())));
    }

    private void printDecision(FlowLogFile.Decided d, FlowLogFile.RunLine run, String indent) {
        StringBuilder line = new StringBuilder(indent).append("  ").append(String.format("%-10s", d.address()));
        line.append(style.dim("at ")).append(d.site() == null ? "(no call)" : d.site()).append("  ");
        if (d.lookup()) {
            line.append("look up ").append(d.tool()).append(' ')
                    .append(TimelinePrinter.cut(CanonicalJson.write(d.arguments())));
        } else {
            line.append("hand back: ").append(d.reason());
        }
        if (d.prob() != null && d.lookup()) {
            line.append(style.dim("  p " + twoDecimals(d.prob())));
            if (d.binding() != null) {
                line.append(style.dim(", arguments " + twoDecimals(d.binding())));
            }
        }
        if (d.lookup()) {
            line.append("  ").append(outcome(d, run));
        }
        if (d.shadow()) {
            line.append("  ").append(style.cyan("SHADOW"));
        }
        if (d.policy() != null) {
            JsonNode p = d.policy();
            line.append(style.dim("  " + (p.path("explored").asBoolean() ? "explored, " : "") + "propensity "
                    + twoDecimals(p.path("propensity").asDouble())));
        }
        if (d.key() != null) {
            line.append(style.dim("  oracle " + d.key().substring(0, Math.min(12, d.key().length()))));
        }
        if (d.ms() > 0) {
            line.append(style.dim("  " + d.ms() + " ms"));
        }
        out.println(line);
    }

    /** What became of a proposed lookup, from the run line. */
    private String outcome(FlowLogFile.Decided d, FlowLogFile.RunLine run) {
        if (run == null) {
            return style.yellow("outcome unknown");
        }
        JsonNode value = run.valueAt(d.address());
        if (value == null || !value.isInt() || value.intValue() == 0) {
            return style.yellow("NOT MADE");
        }
        JsonNode ok = run.valueAt("outcome" + d.address().substring("decide".length()));
        if (ok == null) {
            return style.yellow("made, no answer");
        }
        return ok.asBoolean() ? style.green("made") : style.red("made, FAILED");
    }

    /** A JSON-RPC id as an episode spells it: a string as it is, anything else as its JSON. */
    static String text(JsonNode id) {
        return id.isTextual() ? id.textValue() : CanonicalJson.write(id);
    }

    private static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String twoDecimals(double d) {
        return new BigDecimal(d).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
