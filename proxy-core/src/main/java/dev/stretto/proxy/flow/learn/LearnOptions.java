package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.oracle.OracleHandle;
import java.nio.file.Path;
import java.util.Map;
import java.util.Objects;

/**
 * What {@code stretto learn} was asked to do (the options of stretto-learn section 1 that
 * apply to session logs), its files read.
 *
 * @param sessions  where the session logs came from, for messages, or null for logs given in
 *                  memory
 * @param domain    the flow's domain (a manifest's own domain wins)
 * @param manifest  a tool manifest to use instead of the logs' tool lists, or null
 * @param rewards   rewards by session id (a session without one gets 1.0)
 * @param constants whether to learn constant arguments
 * @param halfLife  the half-life of a session's weight in the habit, in sessions, or null
 * @param arbiter   whether and how the flow gets an arbiter
 * @param lookupCost what a wasted lookup costs in turns saved, to learn each site's threshold
 *                   from ({@code --lookup-cost}, {@link ThresholdTuning}), or null to learn none
 * @param perLookup  whether each lookup at each site also gets thresholds of its own by what
 *                   the customer said ({@code --per-lookup}; needs a lookup cost)
 * @param bindSaid   whether lookups also bind values the customer said, by the shapes learned
 *                   of them ({@code --bind-said})
 */
public record LearnOptions(Path sessions, String domain, FlowManifest manifest, Map<String, Double> rewards,
                           boolean constants, Double halfLife, Arbiter arbiter, Double lookupCost,
                           boolean perLookup, boolean bindSaid) {

    /** The options without {@code --bind-said}. */
    public LearnOptions(Path sessions, String domain, FlowManifest manifest, Map<String, Double> rewards,
                        boolean constants, Double halfLife, Arbiter arbiter, Double lookupCost, boolean perLookup) {
        this(sessions, domain, manifest, rewards, constants, halfLife, arbiter, lookupCost, perLookup, false);
    }

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException when the half-life or the lookup cost is not above 0, or
     *                                  a lookup cost is given for a flow with an arbiter, or
     *                                  lookup thresholds are asked for without a lookup cost
     */
    public LearnOptions {
        Objects.requireNonNull(domain, "domain");
        rewards = Map.copyOf(rewards);
        Objects.requireNonNull(arbiter, "arbiter");
        if (halfLife != null && !(halfLife > 0.0)) {
            throw new IllegalArgumentException("--half-life must be > 0");
        }
        if (lookupCost != null && (!(lookupCost > 0.0) || lookupCost.isInfinite())) {
            throw new IllegalArgumentException("--lookup-cost must be a number above 0");
        }
        if (perLookup && lookupCost == null) {
            throw new IllegalArgumentException("--per-lookup tunes thresholds by the cost of a wasted lookup: give"
                    + " --lookup-cost");
        }
        if (lookupCost != null && !(arbiter instanceof HabitOnly)) {
            throw new IllegalArgumentException("--lookup-cost learns thresholds for the reach decider: use it with"
                    + " --habit-only");
        }
    }

    /** The flow's arbiter: none, one fitted on held-out sessions, or one taken from a file. */
    public sealed interface Arbiter {
    }

    /** {@code --habit-only}: every session trains the habit, and the flow has no arbiter. */
    public record HabitOnly() implements Arbiter {
    }

    /**
     * The arbiter path: some tasks are held out, the System-One model is asked at their
     * decisions, and the arbiter is fitted on its answers.
     *
     * @param oracle          who answers ({@code --oracle}, default jev, over the answer cache of
     *                        {@code --oracle-cache}); its model is the flow's
     * @param budget          the most the questions not in the cache may cost, in dollars
     *                        ({@code --oracle-budget}, default 1)
     * @param predicates      the predicates file ({@code --predicates}), or null for none
     * @param manifestOptions offer every read tool at every site ({@code --manifest-options})
     * @param refitHabit      relearn the habit from every session afterwards ({@code --refit-habit})
     */
    public record Fit(OracleHandle oracle, double budget, Path predicates, boolean manifestOptions,
                      boolean refitHabit) implements Arbiter {
        /** Checks the budget. */
        public Fit {
            Objects.requireNonNull(oracle, "oracle");
            if (!(budget >= 0) || Double.isInfinite(budget)) {
                throw new IllegalArgumentException("--oracle-budget must be a number of dollars, 0 or more");
            }
        }
    }

    /**
     * {@code --arbiter-from FILE}: the habit from every session, the arbiter of an arbiter file
     * or of another flow.
     *
     * @param file the arbiter file or flow
     */
    public record From(Path file) implements Arbiter {
        /** Requires the file. */
        public From {
            Objects.requireNonNull(file, "file");
        }
    }
}
