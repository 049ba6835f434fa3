package dev.stretto.cli.tools;

import dev.stretto.proxy.flow.Evaluation;
import dev.stretto.proxy.flow.EvaluationTarget;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;

/** {@code stretto evaluate}: off-policy estimates of other deciding rules from labelled, explored decisions. */
final class EvaluateCli {

    static final String COMMAND = "evaluate";

    static final String HELP = """
            Usage: stretto evaluate --target NAME=DECIDER@THRESHOLD [--target ...] [--min-ess N] FILE|DIR...

            Estimates what another deciding rule would have done, from decisions a flow
            logged while exploring (stretto-proxy --flow-explore EPSILON): each decision line
            of the flow logs carries its policy (every lookup offered, with the decider's and
            the habit's probabilities and the binding's chance, the rule's own choice, and the
            probability of what was taken), and must carry a "labels" list, one
            {"used": ..., "detour": ..., "turn": ...} per offered lookup in the policy's order
            (numbers or true/false): whether the agent used that lookup's result, whether it
            was a detour, whether it saved a turn. Run lines are skipped; a DIR stands for its
            *.flow.jsonl files.

            A target decides by the proxy's rule with the logged probabilities: habit uses the
            habit prior every decision logs; arbiter and reach use the logged decider's, so
            every decision must have been logged by that decider. THRESHOLD is from 0 to 1.

            For each target, over all decisions and at each site, four metrics (lookups made,
            used, detours, turns saved; handing back counts 0) by four estimators: direct (the
            target's option's own label), IPS (the logged metric weighted by 1/propensity
            where the target took the logged action), SNIPS (IPS normalised by the weights)
            and doubly robust (a per-site mean-label model corrected by the weighted
            residual), each with its standard error; the effective sample size of the
            weights, and how many decisions the target looks up what the logging policy
            could never have (unsupported).

            Options:
              --target NAME=DECIDER@THRESHOLD   a rule to evaluate (repeatable; at least one)
              --min-ess N   the effective sample size below which the weighted estimates
                            are refused (default 10)
              -h, --help    show this help

            Exit status:
              0  success
              1  a file is missing or cannot be read, a line is not a labelled decision, or a
                 target needs decisions of another decider (stderr: stretto: <file>:<line>:
                 <reason>)
              2  usage error
            """;

    private EvaluateCli() {
    }

    static int run(String[] args, PrintStream out, PrintStream err) throws UsageException, IOException {
        Args a = Args.parse(COMMAND, args, 1, Set.of("--help", "-h"), Set.of("--min-ess"), Set.of("--target"));
        if (Stretto.helpAsked(a, out, HELP)) {
            return Stretto.EXIT_OK;
        }
        List<EvaluationTarget> targets = new ArrayList<>();
        for (String t : a.repeated().getOrDefault("--target", List.of())) {
            targets.add(target(t));
        }
        if (targets.isEmpty()) {
            throw new UsageException(COMMAND, "at least one --target NAME=DECIDER@THRESHOLD is needed");
        }
        List<String> files = a.operands();
        if (files.isEmpty()) {
            throw new UsageException(COMMAND, "no flow log given");
        }
        double minEss = 10;
        if (a.values().containsKey("--min-ess")) {
            try {
                minEss = Double.parseDouble(a.values().get("--min-ess"));
            } catch (NumberFormatException e) {
                minEss = Double.NaN;
            }
            if (!(minEss >= 0)) {
                throw new UsageException(COMMAND, "--min-ess takes a number, 0 or more, not '"
                        + a.values().get("--min-ess") + "'");
            }
        }
        List<Path> logs = logs(files);
        try {
            Evaluation evaluation = Evaluation.of(logs, targets);
            if (evaluation.decisions() == 0) {
                err.println("stretto: no labelled decisions in " + String.join(", ", files));
                return Stretto.EXIT_BAD_INPUT;
            }
            out.print(EvaluateReport.of(logs.size(), evaluation, minEss));
        } catch (IllegalArgumentException e) {
            err.println("stretto: " + e.getMessage());
            return Stretto.EXIT_BAD_INPUT;
        }
        return Stretto.EXIT_OK;
    }

    private static EvaluationTarget target(String text) throws UsageException {
        try {
            return EvaluationTarget.parse(text);
        } catch (IllegalArgumentException e) {
            throw new UsageException(COMMAND, e.getMessage());
        }
    }

    private static List<Path> logs(List<String> operands) throws IOException {
        List<Path> logs = new ArrayList<>();
        for (String o : operands) {
            Path p = Path.of(o);
            if (Files.isDirectory(p)) {
                try (Stream<Path> files = Files.list(p)) {
                    files.filter(f -> f.getFileName().toString().endsWith(".flow.jsonl")).sorted().forEach(logs::add);
                }
            } else if (!Files.exists(p)) {
                throw new NoSuchFileException(o);
            } else {
                logs.add(p);
            }
        }
        return logs;
    }
}
