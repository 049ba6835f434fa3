package dev.stretto.cli.tools;

import dev.stretto.cli.OracleEnvironment;
import dev.stretto.cli.learn.LearnException;
import dev.stretto.cli.learn.Progress;
import dev.stretto.cli.promote.PromoteOptions;
import dev.stretto.cli.promote.PromoteReport;
import dev.stretto.cli.promote.Promoter;
import dev.stretto.proxy.flow.decide.DeciderKind;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Promoted;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleSettings;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Set;

/** {@code stretto promote}: its options, help and messages; the scoring is {@link Promoter}'s. */
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
        PromoteOptions options = options(a);
        OutputFile.prepare(COMMAND, "--out", options.out(), "the flow");
        if (options.report() != null) {
            OutputFile.prepare(COMMAND, "--report", options.report(), "the report");
        }
        Progress progress = new Progress(err, bars);
        try {
            Flow flow = FlowFile.read(options.flow());
            Promoter.Result r = new Promoter(options, progress, settings(options, env)).promote(flow);
            FlowFile.write(r.flow(), options.out());
            String report = PromoteReport.of(r, options);
            if (options.report() == null) {
                out.print(report);
            } else {
                Files.writeString(options.report(), report, StandardCharsets.UTF_8);
            }
            Promoted p = r.flow().promoted();
            long promoted = p.sites().values().stream().filter(Promoted.SiteScore::promoted).count();
            progress.line("scored " + r.episodes() + " episodes (" + r.unanswered() + " decisions left out,"
                    + " unanswered); " + promoted + " of " + p.sites().size() + " sites promoted");
            if (promoted == 0) {
                progress.line("no site met the bar, so the promoted flow hands back after every call");
            }
            return Stretto.EXIT_OK;
        } catch (LearnException e) {
            progress.line(e.getMessage());
            return Stretto.EXIT_BAD_INPUT;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            progress.line("interrupted while waiting for the System-One model; nothing was written");
            return Stretto.EXIT_BAD_INPUT;
        }
    }

    private static OracleSettings settings(PromoteOptions options, Map<String, String> env) throws LearnException {
        try {
            return OracleEnvironment.read(env, options.oracle());
        } catch (IllegalArgumentException e) {
            throw new LearnException(e.getMessage());
        }
    }

    private static PromoteOptions options(Args a) throws UsageException {
        a.requireOptionsOnly(COMMAND, "--flow", "--sessions", "--out");
        Map<String, String> v = a.values();
        DeciderKind decider = null;
        if (v.containsKey("--decider")) {
            try {
                decider = DeciderKind.ofWireName(v.get("--decider"));
            } catch (IllegalArgumentException e) {
                throw new UsageException(COMMAND, "--decider takes arbiter, habit or reach, not '" + v.get("--decider")
                        + "'");
            }
        }
        Oracle.Mode oracle = OracleOption.parse(COMMAND, v.get("--oracle"), Oracle.Mode.REPLAY);
        PromoteOptions.Algorithm scoring = switch (v.getOrDefault("--scoring", "chained")) {
            case "chained" -> PromoteOptions.Algorithm.CHAINED;
            case "single-pass" -> PromoteOptions.Algorithm.SINGLE_PASS;
            default -> throw new UsageException(COMMAND, "--scoring takes chained or single-pass, not '"
                    + v.get("--scoring") + "'");
        };
        Promoted.Bar bar = new Promoted.Bar(share(v, "--threshold", 0.3), share(v, "--min-used", 0.7),
                share(v, "--min-lower", 0.5), count(v, "--min-tasks", 3));
        return new PromoteOptions(Path.of(v.get("--flow")), Path.of(v.get("--sessions")), Path.of(v.get("--out")),
                oracle, Path.of(v.getOrDefault("--oracle-cache", ".oracle-cache")), decider, bar,
                (int) count(v, "--per-call", 8), v.containsKey("--report") ? Path.of(v.get("--report")) : null,
                scoring);
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
