package dev.stretto.cli.learn.arbiter;

import dev.stretto.cli.learn.LearnException;
import dev.stretto.cli.learn.LearnOptions;
import dev.stretto.cli.learn.Progress;
import dev.stretto.proxy.flow.arbiter.OptionFeatures;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.OracleException;
import dev.stretto.proxy.oracle.OracleSettings;
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
    private final OracleSettings settings;
    private final Progress progress;

    /**
     * @param settings the System-One settings (the key, used by {@code --oracle jev} only)
     */
    public ArbiterLearner(LearnOptions.Fit options, OracleSettings settings, Progress progress) {
        this.options = Objects.requireNonNull(options, "options");
        this.settings = Objects.requireNonNull(settings, "settings");
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
     * @throws LearnException       when the answers cannot be had: a key or a cache entry is
     *                              missing, the budget is too small, or the model fails
     * @throws InterruptedException when interrupted while waiting for the model
     */
    public Result learn(Flow flow, List<Episode> heldOut) throws LearnException, InterruptedException {
        List<HeldOutDecision> decisions = new ArrayList<>();
        List<ArbiterQuestions.Asked> asked = ArbiterQuestions.of(flow, heldOut, decisions);
        OracleCache cache = new OracleCache(options.cache());
        List<Request> missing = new ArrayList<>();
        if (options.oracle() != Oracle.Mode.MOCK) {
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
        Oracle answering;
        try {
            answering = Oracle.of(options.oracle(), cache, settings);
        } catch (IllegalArgumentException e) {
            // The certificates of SSL_CERT_FILE cannot be used.
            throw new LearnException("cannot ask System-One: " + e.getMessage());
        }
        try (Oracle oracle = answering) {
            progress.start("asking System-One", asked.size());
            for (int i = 0; i < asked.size(); i++) {
                ArbiterQuestions.Asked a = asked.get(i);
                OracleOutcome outcome = OracleOutcome.ask(oracle, a.request());
                switch (outcome) {
                    case OracleOutcome.Failed f -> throw new LearnException("the System-One model did not answer about"
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
        return switch (options.oracle()) {
            case MOCK -> " (mock answers)";
            case REPLAY -> " (" + (asked.size() - missing.size()) + " answered in the cache " + options.cache() + ")";
            case JEV -> " (" + (asked.size() - missing.size()) + " answered in the cache " + options.cache() + ", "
                    + missing.size() + " to ask for about " + OracleBudget.format(OracleBudget.dollars(missing)) + ")";
        };
    }

    private void checkCanAsk(List<ArbiterQuestions.Asked> asked, List<Request> missing) throws LearnException {
        if (missing.isEmpty()) {
            return;
        }
        switch (options.oracle()) {
            case REPLAY -> throw new LearnException("--oracle replay answers from the cache only, and " + missing.size()
                    + " of the " + asked.size() + " questions are not in " + options.cache() + " (the first: "
                    + missing.getFirst().key() + "); ask them with --oracle jev, or import the answers"
                    + " (stretto import-answers)");
            case JEV -> {
                double cost = OracleBudget.dollars(missing);
                if (cost > options.budget()) {
                    throw new LearnException("the " + missing.size() + " questions not in the cache " + options.cache()
                            + " would cost about " + OracleBudget.format(cost) + ", more than --oracle-budget "
                            + OracleBudget.format(options.budget()) + ": raise the budget to ask them");
                }
                if (settings.apiKey() == null) {
                    throw new LearnException(missing.size() + " questions about the held-out sessions are not in the"
                            + " cache " + options.cache() + ", and asking System-One (--oracle jev, the default)"
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
