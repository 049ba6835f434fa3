package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.oracle.Request;
import java.util.Objects;

/**
 * Where a decision stands: decided, or waiting for the System-One model. A decider that needs
 * the model (the arbiter) returns {@link AskOracle} with the one request of this decision; its
 * owner sends the request off its own thread and, when the outcome arrives, calls
 * {@link Continuation#resume} on the thread that owns the run to get the next step.
 */
public sealed interface DecisionStep {

    /**
     * The decision is made.
     *
     * @param decision what the flow proposes
     */
    record Decided(Decision decision) implements DecisionStep {
        /** Requires a decision. */
        public Decided {
            Objects.requireNonNull(decision, "decision");
        }
    }

    /**
     * Ask the System-One model first.
     *
     * @param request the request
     * @param then    what to do with the outcome
     */
    record AskOracle(Request request, Continuation then) implements DecisionStep {
        /** Requires both. */
        public AskOracle {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(then, "then");
        }
    }

    /** The rest of a decision once the model's outcome is known. */
    @FunctionalInterface
    interface Continuation {
        /** Continues the decision with {@code outcome}. */
        DecisionStep resume(OracleOutcome outcome);
    }
}
