package dev.stretto.cli.tools;

import dev.stretto.cli.OracleEnvironment;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.Flow;
import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Promotion;
import dev.stretto.proxy.flow.PromotionResult;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** {@code stretto promote}: its options, help and messages; the scoring is the library's {@link Promotion}. */
final class PromoteCli {

    static final String COMMAND = "promote";

    static final String HELP = """
            Usage: stretto promote --flow FILE --sessions DIR --out FILE [options]

            Scores a flow on the sessions it ran in shadow (stretto-proxy --flow FILE
            --flow-shadow --record DIR) and writes it with a promotion record: the flow then
            acts only at the sites where the agent really made the lookups it would have
            made, and hands back after every other call.

            The flow's decisions are made again on each session, as served (with its
            decider and --threshold; an arbiter's questions answered from the oracle cache
            the shadow runs filled), and scored against what the agent did next. Per site
            (the call the flow decided after, "tool (error)" when it failed): decisions,
            lookups proposed, lookups used (the agent made the same call, with the same
            arguments, in a later turn), and the tasks (sessions) with lookups. A site is
            promoted when lookups > 0, used/lookups >= --min-used, the 90% Wilson lower bound
            of used/lookups >= --min-lower, and tasks >= --min-tasks.

            Scoring (--scoring):
              chained       (default) at each call's result, the flow decides with the turn's
                            calls already sent pending; after a used lookup whose call has a
                            result, it goes on as if it had made it, up to --per-call; first
                            through every site, then only through the promoted ones, until
                            the promotion repeats (at most 8 more passes)
              single-pass   the reference's older scoring: turns split into single calls, one
                            decision after each result, used when the agent made the call
                            anywhere later; promoted flows of older versions were scored so

            Options:
              --flow FILE          the flow to promote (required)
              --sessions DIR       the sessions it ran in (required; *.jsonl directly in DIR,
                                   flow and confirmation logs skipped)
              --out FILE           where to write the promoted flow (required)
              --report FILE        where to write the Markdown report (default: stdout)
              --decider NAME       arbiter, habit or reach (default: the arbiter when the flow
                                   has one, else reach when it has the counts, else habit)
              --oracle MODE        who answers the arbiter's questions: replay (default, the
                                   cache only), jev (the cache, else TypeSafe's service) or mock
              --oracle-cache DIR   the answer cache (default .oracle-cache)
              --threshold P        the decision threshold (default 0.3)
              --min-used SHARE     the least share of lookups used (default 0.7)
              --min-lower BOUND    the least Wilson lower bound of that share (default 0.5)
              --min-tasks N        the fewest tasks with lookups (default 3)
              --per-call N         the most lookups chained after one call (default 8)
              --scoring NAME       chained (default) or single-pass, see above
              -h, --help           show this help

            On stderr: stretto: scored <n> episodes (<u> decisions left out, unanswered); <p>
            of <s> sites promoted (and, when none is, a line saying the promoted flow hands
            back after every call).

            Exit status:
              0  the promoted flow was written
              1  the flow or a session cannot be read, there are no sessions, or the flow
                 cannot be scored with the decider asked for (stderr says why)
              2  usage error
            """;

private PromoteCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err, boolean bars, Map<String, String> env)
            throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--help", "-h"), Set.of("--flow", "--sessions", "--out",
                "--report", "--decider", "--oracle", "--oracle-cache", "--threshold", "--min-used", "--min-lower",
                "--min-tasks", "--per-call", "--scoring"));
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        a.requireOptionsOnly(COMMAND, "--flow", "--sessions", "--out");
        Map<String, String> v = a.values();
        Path sessions = Path.of(v.get("--sessions"));
        Path target = Path.of(v.get("--out"));
        Path report = v.containsKey("--report") ? Path.of(v.get("--report")) : null;
        DeciderKind decider = decider(v);
        OracleMode mode = OracleOption.parse(COMMAND, v.get("--oracle"), OracleMode.REPLAY);
        Promotion.Scoring scoring = switch (v.getOrDefault("--scoring", "chained")) {
            case "chained" -> Promotion.Scoring.CHAINED;
            case "single-pass" -> Promotion.Scoring.SINGLE_PASS;
            default -> throw new UsageException(COMMAND, "--scoring takes chained or single-pass, not '"
                    + v.get("--scoring") + "'");
        };
        double threshold = share(v, "--threshold", 0.3);
        double minUsed = share(v, "--min-used", 0.7);
        double minLower = share(v, "--min-lower", 0.5);
        long minTasks = count(v, "--min-tasks", 3);
        int perCall = (int) count(v, "--per-call", 8);
        OutputFile.prepare(COMMAND, "--out", target, "the flow");
        if (report != null) {
            OutputFile.prepare(COMMAND, "--report", report, "the report");
        }
        ProgressBars progress = new ProgressBars(err, bars);
        Flow flow = FlowFiles.read(Path.of(v.get("--flow")));
        try (Oracle oracle = oracle(env, mode, Path.of(v.getOrDefault("--oracle-cache", ".oracle-cache")))) {
            PromotionResult r = Promotion.of(flow).sessionsIn(sessions)
                    .decider(decider).oracle(oracle).threshold(threshold).minUsed(minUsed).minLower(minLower)
                    .minTasks(minTasks).perCall(perCall).scoring(scoring).progress(progress).promote();
            FlowFiles.write(r.flow(), target);
            String text = PromoteReport.of(r, sessions, scoring, perCall);
            if (report == null) {
                out.print(text);
            } else {
                Files.writeString(report, text, StandardCharsets.UTF_8);
            }
            Promoted p = r.promoted();
            long promoted = p.sites().values().stream().filter(Promoted.SiteScore::promoted).count();
            progress.line("scored " + r.sessions() + " episodes (" + r.unanswered() + " decisions left out,"
                    + " unanswered); " + promoted + " of " + p.sites().size() + " sites promoted");
            if (promoted == 0) {
                progress.line("no site met the bar, so the promoted flow hands back after every call");
            }
            return Stretto.EXIT_OK;
        } catch (FlowException e) {
            progress.line(e.getMessage());
            return Stretto.EXIT_BAD_INPUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            progress.line("interrupted while waiting for the System-One model; nothing was written");
            return Stretto.EXIT_BAD_INPUT;
        }
    }

    /**
     * The oracle that answers an arbiter's questions: {@code --oracle} (default replay) over
     * {@code --oracle-cache}, with the environment's settings.
     *
     * @throws FlowException when the settings cannot be used, or System-One cannot be asked
     */
    private static Oracle oracle(Map<String, String> env, OracleMode mode, Path cache) throws FlowException {
        OracleSettings settings;
        try {
            settings = OracleEnvironment.read(env, mode).cache(cache).build();
        } catch (IllegalArgumentException e) {
            throw new FlowException(e.getMessage());
        }
        try {
            return settings.open();
        } catch (IllegalArgumentException e) {
            throw new FlowException("cannot ask System-One: " + e.getMessage());
        }
    }

    private static DeciderKind decider(Map<String, String> v) throws UsageException {
        if (!v.containsKey("--decider")) {
            return null;
        }
        try {
            return DeciderKind.ofWireName(v.get("--decider"));
        } catch (IllegalArgumentException e) {
            throw new UsageException(COMMAND, "--decider takes arbiter, habit or reach, not '" + v.get("--decider")
                    + "'");
        }
    }

    private static double share(Map<String, String> v, String option, double dflt) throws UsageException {
        if (!v.containsKey(option)) {
            return dflt;
        }
        try {
            double d = Double.parseDouble(v.get(option));
            if (d >= 0 && d <= 1) {
                return d;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new UsageException(COMMAND, option + " takes a number from 0 to 1, not '" + v.get(option) + "'");
    }

    private static long count(Map<String, String> v, String option, long dflt) throws UsageException {
        if (!v.containsKey(option)) {
            return dflt;
        }
        try {
            long n = Long.parseLong(v.get(option));
            if (n >= 0 && n <= Integer.MAX_VALUE) {
                return n;
            }
        } catch (NumberFormatException e) {
            // Said below.
        }
        throw new UsageException(COMMAND, option + " takes a whole number, 0 or more, not '" + v.get(option) + "'");
    }
}
