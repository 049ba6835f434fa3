package dev.stretto.cli.learn;

import dev.stretto.proxy.oracle.Oracle;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@code stretto learn} was asked to do (the options of stretto-learn section 1 that
 * apply to session logs).
 *
 * @param sessions  the directory of session logs
 * @param domain    the flow's domain (a manifest file's own domain wins)
 * @param out       where to write the flow
 * @param manifest  a tool manifest to use instead of the logs' tool lists, or null
 * @param rewards   a JSON object of rewards by session id, or null (every session gets 1.0)
 * @param constants whether to learn constant arguments
 * @param halfLife  the half-life of a session's weight in the habit, in sessions, or null
 * @param arbiter   whether and how the flow gets an arbiter
 * @param lookupCost what a wasted lookup costs in turns saved, to learn each site's threshold
 *                   from ({@code --lookup-cost}, {@link ThresholdTuning}), or null to learn none
 */
public record LearnOptions(Path sessions, String domain, Path out, Path manifest, Path rewards, boolean constants,
                           Double halfLife, Arbiter arbiter, Double lookupCost) {

    public LearnOptions {
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(arbiter, "arbiter");
        if (halfLife != null && !(halfLife > 0.0)) {
            throw new IllegalArgumentException("--half-life must be > 0");
        }
        if (lookupCost != null && (!(lookupCost > 0.0) || lookupCost.isInfinite())) {
            throw new IllegalArgumentException("--lookup-cost must be a number above 0");
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
     * @param oracle          who answers ({@code --oracle}, default jev)
     * @param cache           the answer cache ({@code --oracle-cache}, default {@code .oracle-cache})
     * @param budget          the most the questions not in the cache may cost, in dollars
     *                        ({@code --oracle-budget}, default 1)
     * @param predicates      the predicates file ({@code --predicates}), or null for none
     * @param manifestOptions offer every read tool at every site ({@code --manifest-options})
     * @param refitHabit      relearn the habit from every session afterwards ({@code --refit-habit})
     */
    public record Fit(Oracle.Mode oracle, Path cache, double budget, Path predicates, boolean manifestOptions,
                      boolean refitHabit) implements Arbiter {
        /** Checks the budget. */
        public Fit {
            Objects.requireNonNull(oracle, "oracle");
            Objects.requireNonNull(cache, "cache");
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
