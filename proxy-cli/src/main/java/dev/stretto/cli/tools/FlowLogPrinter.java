package dev.stretto.cli.tools;

import dev.stretto.proxy.flow.FlowLog;
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

    void print(String name, FlowLog log) {
        int lookups = log.runs().stream().mapToInt(FlowLog.Run::lookupsMade).sum();
        int decisions = log.runs().stream().mapToInt(r -> r.decisions().size()).sum();
        out.println(style.bold("flow log ") + name);
        out.println(style.dim(plural(log.runs().size(), "run") + ", " + plural(decisions, "decision") + ", "
                + plural(lookups, "lookup") + " made"));
        for (FlowLog.Run run : log.runs()) {
            out.println();
            printRun(run, "", "");
        }
    }

    /**
     * Prints one run: a head naming the call it followed, each decision, and what the run made,
     * each line after {@code indent}, the head after {@code label} too.
     */
    void printRun(FlowLog.Run run, String indent, String label) {
        StringBuilder head = new StringBuilder(indent).append(label).append("after call ").append(run.callId());
        if (run.run() != null) {
            head.append(": ").append(run.run().call());
            if (run.run().failed()) {
                head.append(' ').append(style.red("(failed)"));
            }
        }
        out.println(style.bold(head.toString()));
        for (FlowLog.Decided d : run.decisions()) {
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

    private void printDecision(FlowLog.Decided d, FlowLog.RunLine run, String indent) {
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
        if (d.propensity() != null) {
            line.append(style.dim("  " + (d.explored() ? "explored, " : "") + "propensity "
                    + twoDecimals(d.propensity())));
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
    private String outcome(FlowLog.Decided d, FlowLog.RunLine run) {
        return switch (d.outcome(run)) {
            case UNKNOWN -> style.yellow("outcome unknown");
            case NOT_MADE, HANDED_BACK -> style.yellow("NOT MADE");
            case NO_ANSWER -> style.yellow("made, no answer");
            case MADE -> style.green("made");
            case FAILED -> style.red("made, FAILED");
        };
    }

    private static String plural(int n, String what) {
        return n + " " + what + (n == 1 ? "" : "s");
    }

    private static String twoDecimals(double d) {
        return new BigDecimal(d).setScale(2, RoundingMode.HALF_EVEN).toPlainString();
    }
}
