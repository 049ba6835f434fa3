package dev.stretto.cli.tools;

import dev.stretto.proxy.ConfirmLog;
import dev.stretto.proxy.JudgedCalls;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.proxy.Redaction;
import dev.stretto.proxy.flow.FlowLog;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.Source;
import java.io.PrintStream;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Prints a session for people: {@code stretto show}. With the flow log of the session, each
 * run of the flow is printed under the agent's call it followed, as {@code stretto flow} prints it.
 */
final class TimelinePrinter {

    /** Results and arguments longer than this are cut, so each fits on one line. */
    static final int MAX_WIDTH = 100;

    static final DateTimeFormatter UTC =
            DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss.SSS").withZone(ZoneOffset.UTC);

    private final PrintStream out;
    private final Style style;
    private final FlowLogPrinter flows;
    /** The flow's runs not printed yet, by the id of the call each followed, in log order. */
    private final Map<String, Deque<FlowLog.Run>> runs = new HashMap<>();
    private PolicyLines policy = PolicyLines.NONE;

    TimelinePrinter(PrintStream out, boolean colour) {
        this(out, colour, null);
    }

    /** A printer that shows the runs of {@code flowLog} (null for none) under their calls. */
    TimelinePrinter(PrintStream out, boolean colour, FlowLog flowLog) {
        this.out = out;
        this.style = new Style(colour);
        this.flows = new FlowLogPrinter(out, colour);
        if (flowLog != null) {
            for (FlowLog.Run r : flowLog.runs()) {
                runs.computeIfAbsent(r.callId(), k -> new ArrayDeque<>()).add(r);
            }
        }
    }

    void print(Timeline tl) {
        print(tl, JudgedCalls.NONE);
    }

    /** Shows the policy's verdicts {@code lines}: under their calls, the others among the steps. */
    TimelinePrinter withPolicy(PolicyLines lines) {
        this.policy = lines;
        return this;
    }

    /** Prints {@code tl} with the confirmation judge's {@code judged} calls marked. */
    void print(Timeline tl, JudgedCalls judged) {
        var h = tl.header();
        out.println(style.bold("session ") + h.session());
        out.println(style.dim("started ") + UTC.format(Instant.ofEpochMilli(h.startedUnixMs())) + " UTC");
        // The agent's model only when --agent-model named it: the host's own name is not a model.
        out.println(style.dim("domain  ") + tl.domain()
                + (h.agentModel() != null ? style.dim("   agent ") + h.agentModel() : "")
                + (tl.clientName() != null ? style.dim("   client ") + tl.clientName() : ""));
        if (!h.serverCommand().isEmpty()) {
            // Redacted again: logs written by older versions may hold what they missed.
            out.println(style.dim("server  ") + String.join(" ", Redaction.command(h.serverCommand())));
        }
        out.println();
        for (Timeline.Step step : tl.steps()) {
            printPolicy(policy.until(step.tMs()));
            switch (step) {
                case Timeline.Said s -> out.println(time(s.tMs()) + (s.role() == Timeline.Role.USER
                        ? style.cyan("user      ") : style.green("assistant ")) + oneLine(s.text()));
                case Timeline.TurnStarted ts -> printTurn(ts.turn(), judged);
                case Timeline.ResultArrived r -> {
                    // Results are shown under their call.
                }
            }
        }
        List<PolicyVerdict> left = policy.rest();
        printPolicy(left.stream().filter(v -> v.kind() != PolicyVerdict.Kind.CALL).toList());
        List<PolicyVerdict> unplacedCalls = left.stream()
                .filter(v -> v.kind() == PolicyVerdict.Kind.CALL).toList();
        if (!unplacedCalls.isEmpty()) {
            out.println();
            out.println(style.yellow("policy verdicts on calls not in the log:"));
            for (PolicyVerdict v : unplacedCalls) {
                out.println(time(v.tMs()) + PolicyLines.call(v));
                out.println("             " + coloured(v));
            }
        }
        List<FlowLog.Run> unmatched = runs.values().stream().flatMap(Deque::stream)
                .sorted(java.util.Comparator.comparing(r -> r.callId())).toList();
        if (!unmatched.isEmpty()) {
            out.println();
            out.println(style.yellow("flow runs after calls this log does not hold:"));
            unmatched.forEach(r -> flows.printRun(r, "  ", ""));
        }
        int byCommit = 0;
        for (Timeline.Turn t : tl.turns()) {
            byCommit += (int) t.calls().stream().filter(c -> t.commitOf(c) != null).count();
        }
        int lookups = (int) tl.calls().stream().filter(Timeline.Call::isLookup).count() - byCommit;
        List<String> own = new ArrayList<>();
        if (lookups > 0) {
            own.add(lookups + (lookups == 1 ? " lookup" : " lookups"));
        }
        if (byCommit > 0) {
            own.add(byCommit + " by commits");
        }
        if (!judged.unplaced().isEmpty()) {
            out.println();
            out.println(style.yellow("judgments of calls not in the log:"));
            for (ConfirmLog.Judged j : judged.unplaced()) {
                out.println("           " + j.tool() + ' ' + cut(CanonicalJson.write(j.arguments())));
                printJudgment(j, "             ");
            }
        }
        out.println();
        out.println(style.dim(tl.calls().size() + (tl.calls().size() == 1 ? " call" : " calls")
                + (own.isEmpty() ? "" : " (" + String.join(", ", own) + ")")
                + ", " + tl.failedCalls() + " failed, " + tl.turns().size() + (tl.turns().size() == 1 ? " turn, " : " turns, ")
                + (judged.count() == 0 ? "" : judged.count() + " judged"
                        + (judged.refused() == 0 ? "" : " (" + judged.refused() + " refused)") + ", ")
                + (policy.count() == 0 ? "" : policy.count() + (policy.count() == 1 ? " policy verdict" : " policy verdicts")
                        + (policy.refused() == 0 ? "" : " (" + policy.refused() + " refused)") + ", ")
                + SessionTable.duration(tl.endMs())));
    }

    /**
     * One judgment of the confirmation judge: its answers and verdict on one line, then the
     * values the proposal check flagged.
     */
    private void printJudgment(ConfirmLog.Judged j, String prefix) {
        List<String> answers = new ArrayList<>();
        if (j.pYes() != null) {
            answers.add("p_yes " + CanonicalJson.formatFixed(j.pYes(), 2));
        }
        if (j.pSecond() != null) {
            answers.add("p_second " + CanonicalJson.formatFixed(j.pSecond(), 2) + (j.secondShadow() ? " shadow" : ""));
        }
        String shown = answers.isEmpty() ? "" : " (" + String.join(", ", answers) + ")";
        String verdict = switch (j.verdict()) {
            case REFUSED -> style.red("REFUSED, no explicit agreement" + shown);
            case LOGGED_ONLY -> style.yellow("no explicit agreement, logged only" + shown);
            case SKIPPED -> style.yellow("skipped: " + j.skipped());
            case NO_ANSWER -> style.yellow("no answer: " + (j.error() == null ? "unknown" : oneLine(j.error())));
            case AGREED -> style.green("agreed" + shown);
        };
        out.println(prefix + "judge: " + verdict + style.dim("  word list: " + (j.wordList() ? "yes" : "no") + "  "
                + j.ms() + " ms"));
        for (var flag : j.proposalCheck()) {
            out.println(prefix + style.yellow("proposal check: " + flag.argument() + " " + CanonicalJson.write(flag.value())
                    + " is from a record the customer did not choose"));
        }
    }

    private void printTurn(Timeline.Turn turn, JudgedCalls judged) {
        out.println(time(turn.startMs()) + style.bold("turn " + turn.number()));
        for (Timeline.Call c : turn.calls()) {
            StringBuilder line = new StringBuilder("           ");
            if (c.sentMs() != turn.startMs()) {
                line.append(style.dim("+" + (c.sentMs() - turn.startMs()) + " ms "));
            }
            line.append(c.name()).append(' ').append(cut(CanonicalJson.write(c.arguments())));
            line.append(style.dim("  id " + c.id()));
            if (c.result() != null) {
                // A call the proxy held back for the flow's lookups: the agent waited until the copy.
                line.append(style.dim("  " + c.durationMs() + " ms" + (c.deliveredMs() == null ? ""
                        : " (" + (c.deliveredMs() - c.sentMs()) + " ms with the flow's lookups)")));
            }
            if (c.isCommit()) {
                line.append("  ").append(style.cyan("COMMIT"));
            } else if (turn.commitOf(c) != null) {
                line.append("  ").append(style.cyan("BY COMMIT"));
            } else if (c.isLookup()) {
                line.append("  ").append(style.yellow("LOOKUP"));
            }
            if (c.isRefused()) {
                line.append("  ").append(style.red("REFUSED"));
            } else if (c.result() != null && c.result().error()) {
                line.append("  ").append(style.red("ERROR"));
            }
            out.println(line);
            String prefix = "             ";
            for (ConfirmLog.Judged j : judged.of(c)) {
                printJudgment(j, prefix);
            }
            for (PolicyVerdict v : policy.ofCall(c.id())) {
                out.println(prefix + coloured(v));
            }
            if (c.result() != null && c.isCommit()) {
                // A commit's result is one part per call it was asked to make.
                for (String part : c.result().content().split("\n\n")) {
                    out.println(prefix + "-> " + oneLine(part));
                }
            } else if (c.result() != null) {
                String text = oneLine(c.result().content());
                out.println(prefix + "-> " + (c.result().error() ? style.red(text) : text));
            } else if (c.cancelledMs() != null) {
                out.println(prefix + style.yellow("cancelled by the host after " + (c.cancelledMs() - c.sentMs())
                        + " ms, no result"));
            } else if (c.replaced()) {
                out.println(prefix + style.yellow("replaced by a later call with the same id, no result"));
            } else {
                out.println(prefix + style.yellow("no answer"));
            }
            Deque<FlowLog.Run> followed = c.from() == Source.CLIENT ? runs.get(c.id()) : null;
            if (followed != null && !followed.isEmpty()) {
                flows.printRun(followed.poll(), prefix, "flow ");
            }
        }
    }

    private void printPolicy(List<PolicyVerdict> verdicts) {
        for (PolicyVerdict v : verdicts) {
            out.println(time(v.tMs()) + coloured(v));
        }
    }

    private String coloured(PolicyVerdict v) {
        String text = PolicyLines.text(v);
        return PolicyLines.refusing(v) ? style.red(text) : v.answer() == PolicyVerdict.Answer.WAITING
                || v.action() == PolicyAction.LOG ? style.yellow(text) : style.green(text);
    }

    private String time(long tMs) {
        return style.dim(String.format("%7d ms  ", tMs));
    }

    /** The text on one line (every run of whitespace one space), cut to {@link #MAX_WIDTH}. */
    static String oneLine(String s) {
        return cut(s.strip().replaceAll("\\s+", " "));
    }

    static String cut(String s) {
        if (s.codePointCount(0, s.length()) <= MAX_WIDTH) {
            return s;
        }
        return s.substring(0, s.offsetByCodePoints(0, MAX_WIDTH - 1)) + "…";
    }

    /** ANSI styles, or plain text when colours are off. */
    record Style(boolean on) {
        String wrap(String code, String s) {
            return on ? "\u001b[" + code + "m" + s + "\u001b[0m" : s;
        }

        String bold(String s) {
            return wrap("1", s);
        }

        String dim(String s) {
            return wrap("2", s);
        }

        String red(String s) {
            return wrap("31", s);
        }

        String green(String s) {
            return wrap("32", s);
        }

        String yellow(String s) {
            return wrap("33", s);
        }

        String cyan(String s) {
            return wrap("36", s);
        }
    }
}
