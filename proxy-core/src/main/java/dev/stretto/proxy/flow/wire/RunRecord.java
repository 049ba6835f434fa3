package dev.stretto.proxy.flow.wire;

import java.util.List;
import java.util.Objects;

/**
 * One run of the flow as its run line records it: the call it followed and every site it
 * visited, in order ({@code decide#i} before {@code outcome#i}).
 *
 * @param call       the tool of the agent's call
 * @param failed     whether that call failed
 * @param maxLookups the most lookups the run could make ({@code --flow-per-call})
 * @param visits     the sites visited
 */
public record RunRecord(String call, boolean failed, int maxLookups, List<Visit> visits) {

    /** Copies the visits. */
    public RunRecord {
        Objects.requireNonNull(call, "call");
        visits = List.copyOf(visits);
    }

    /** A site of the run: a decision or a lookup's outcome. */
    public sealed interface Visit {
        /** {@code decide#i} or {@code outcome#i}. */
        String address();

        /** The log-probability recorded for it. */
        double logp();
    }

    /**
     * A decision: the tool number looked up, 0 for handing back. Live decisions are logged
     * with log-probability 0.
     *
     * @param index the decision's index i
     * @param value the tool number
     */
    public record Decide(int index, int value) implements Visit {
        @Override
        public String address() {
            return "decide#" + index;
        }

        @Override
        public double logp() {
            return 0.0;
        }
    }

    /**
     * A lookup's outcome.
     *
     * @param index the decision's index i
     * @param ok    whether the lookup succeeded
     * @param logp  {@code ln P(ok)} or {@code ln(1 - P(ok))} under the flow's Outcome distribution
     */
    public record Outcome(int index, boolean ok, double logp) implements Visit {
        @Override
        public String address() {
            return "outcome#" + index;
        }
    }

    /** Minus the sum of the outcomes' log-probabilities; {@code -0.0} when there were none. */
    public double surprise() {
        double sum = 0.0;
        for (Visit v : visits) {
            if (v instanceof Outcome o) {
                sum += o.logp();
            }
        }
        return -sum;
    }
}
