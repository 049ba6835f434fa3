package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.Progress;
import dev.stretto.proxy.flow.arbiter.OptionFeatures;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.learn.LearnOptions;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.oracle.OracleHandle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.OracleException;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The arbiter path's asking and fitting (stretto-learn 4.2, 4.3): the held-out decisions'
 * questions, a look at what the cache already answers (and, for {@code --oracle jev}, what the
 * rest would cost and whether there is a key to ask with) before anything is asked, then the
 * answers, the cases and the fit.
 */
public final class ArbiterLearner {

    private final LearnOptions.Fit options;
    private final OracleHandle oracle;
    private final Progress progress;

    /**
     * @param options how to fit; its oracle answers (the caller opened it and closes it)
     */
    public ArbiterLearner(LearnOptions.Fit options, Progress progress) {
        this.options = Objects.requireNonNull(options, "options");
        this.oracle = options.oracle();
        this.progress = Objects.requireNonNull(progress, "progress");
    }

    /**
     * What the arbiter was fitted on.
     *
     * @param fit   the fitted fold and its Newton steps
     * @param cases the cases
     */
    public record Result(ArbiterFit.Result fit, List<ArbiterCase> cases) {
        /** Copies the cases. */
        public Result {
            Objects.requireNonNull(fit, "fit");
            cases = List.copyOf(cases);
        }
    }

    /**
     * Asks about the decisions of {@code heldOut} and fits the arbiter.
     *
     * @param flow the flow learned from the training tasks, with the predicates to ask and weigh
     *             and the model to ask
     * @throws FlowException       when the answers cannot be had: a key or a cache entry is
     *                              missing, the budget is too small, or the model fails
     * @throws InterruptedException when interrupted while waiting for the model
     */
    public Result learn(Flow flow, List<Episode> heldOut) throws FlowException, InterruptedException {
        List<HeldOutDecision> decisions = new ArrayList<>();
        List<ArbiterQuestions.Asked> asked = ArbiterQuestions.of(flow, heldOut, decisions);
        OracleCache cache = oracle.oracle().cacheInUse().orElse(null);
        List<Request> missing = new ArrayList<>();
        if (cache != null) {
            for (ArbiterQuestions.Asked a : asked) {
                if (!cached(cache, a.request().key())) {
                    missing.add(a.request());
                }
            }
        }
        progress.line("arbiter: " + decisions.size() + " decisions in the " + heldOut.size()
                + " held-out sessions, " + asked.size() + " at sites with lookups to ask about" + cacheNote(asked,
                missing));
        checkCanAsk(asked, missing);
        List<ArbiterCase> cases = new ArrayList<>();
        int incomplete = 0;
        progress.start("asking System-One", asked.size());
        for (int i = 0; i < asked.size(); i++) {
            ArbiterQuestions.Asked a = asked.get(i);
            OracleOutcome outcome = OracleOutcome.ask(oracle.oracle(), a.request());
            switch (outcome) {
                case OracleOutcome.Failed f -> throw new FlowException("the System-One model did not answer about"
                        + " the decision after " + a.decision().site().name() + " in session "
                        + a.decision().episode() + ": " + f.error());
                case OracleOutcome.Answered answered -> {
                    ArbiterCase c = ArbiterCase.of(a.decision(), answered.response(), flow);
                    if (c == null) {
                        incomplete++;
                    } else {
                        cases.add(c);
                    }
                }
            }
            progress.update(i + 1);
        }
        ArbiterFit.Result fit = ArbiterFit.fit(cases, OptionFeatures.weightCount(flow.weighed().size()));
        long covered = cases.stream().filter(ArbiterCase::covered).count();
        progress.line("arbiter: " + cases.size() + " cases" + (incomplete > 0 ? " (" + incomplete
                + " incomplete answers left out)" : "") + ", " + covered + " with the agent's choice offered; "
                + fit.fold().weights().size() + " weights fitted in " + fit.iterations() + " Newton steps");
        return new Result(fit, cases);
    }

    private static boolean cached(OracleCache cache, String key) {
        try {
            return cache.find(key).isPresent();
        } catch (OracleException unreadable) {
            return false;
        }
    }

    private String cacheNote(List<ArbiterQuestions.Asked> asked, List<Request> missing) {
        if (asked.isEmpty()) {
            return "";
        }
        return switch (oracle.mode()) {
            case MOCK -> " (mock answers)";
            case REPLAY -> " (" + (asked.size() - missing.size()) + " answered in the cache " + oracle.cacheDirectory()
                    + ")";
            case JEV -> " (" + (asked.size() - missing.size()) + " answered in the cache " + oracle.cacheDirectory() + ", "
                    + missing.size() + " to ask for about " + OracleBudget.format(OracleBudget.dollars(missing)) + ")";
        };
    }

    private void checkCanAsk(List<ArbiterQuestions.Asked> asked, List<Request> missing) throws FlowException {
        if (missing.isEmpty()) {
            return;
        }
        switch (oracle.mode()) {
            case REPLAY -> throw new FlowException("--oracle replay answers from the cache only, and " + missing.size()
                    + " of the " + asked.size() + " questions are not in " + oracle.cacheDirectory() + " (the first: "
                    + missing.getFirst().key() + "); ask them with --oracle jev, or import the answers"
                    + " (stretto import-answers)");
            case JEV -> {
                double cost = OracleBudget.dollars(missing);
                if (cost > options.budget()) {
                    throw new FlowException("the " + missing.size() + " questions not in the cache " + oracle.cacheDirectory()
                            + " would cost about " + OracleBudget.format(cost) + ", more than --oracle-budget "
                            + OracleBudget.format(options.budget()) + ": raise the budget to ask them");
                }
                if (!oracle.hasKey()) {
                    throw new FlowException(missing.size() + " questions about the held-out sessions are not in the"
                            + " cache " + oracle.cacheDirectory() + ", and asking System-One (--oracle jev, the default)"
                            + " needs a TypeSafe API key: set TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE, or use"
                            + " --oracle replay with a cache of answers, --oracle mock to try it out, or --habit-only"
                            + " to learn without a model");
                }
            }
            case MOCK -> {
                // Mock answers are never cached and cost nothing.
            }
        }
    }
}
