package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.proxy.flow.decide.DecisionStep;
import dev.stretto.proxy.flow.decide.FlowDecider;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.decide.Scoring;
import dev.stretto.proxy.flow.tools.LiveTools;
import dev.stretto.proxy.flow.tools.ToolGate;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.trace.episode.EpisodeCut;
import java.util.Objects;

/**
 * The flow's decision at a point of a session, as the served flow would have made it, asking
 * the oracle itself when the decider is the arbiter. A decision the model could not answer
 * (its request failed, or its answer was incomplete) is unanswered: promotion leaves it out.
 */
final class Decider {

    /** What deciding gave. */
    sealed interface Outcome {
    }

    /**
     * The flow decided.
     *
     * @param decision the decision
     */
    record Decided(Decision decision) implements Outcome {
    }

    /** The model gave no usable answer. */
    record Unanswered() implements Outcome {
    }

    private static final String INCOMPLETE = Scoring.HandBack.incomplete(null).reason();

    private final FlowDecider flow;
    private final ToolGate gate;
    private final Oracle oracle;

    /** @param oracle who answers the arbiter's questions, or null for a decider that asks none */
    Decider(FlowDecider flow, ToolGate gate, Oracle oracle) {
        this.flow = Objects.requireNonNull(flow, "flow");
        this.gate = Objects.requireNonNull(gate, "gate");
        this.oracle = oracle;
    }

    Outcome decide(EpisodeCut cut) throws InterruptedException {
        DecisionStep step = flow.decide(cut, tool -> gate.requiredArguments(tool, LiveTools.NONE));
        while (step instanceof DecisionStep.AskOracle ask) {
            if (oracle == null) {
                throw new IllegalStateException("a decider without an oracle asked System-One");
            }
            OracleOutcome outcome = OracleOutcome.ask(oracle, ask.request());
            if (outcome instanceof OracleOutcome.Failed) {
                return new Unanswered();
            }
            step = ask.then().resume(outcome);
        }
        Decision d = ((DecisionStep.Decided) step).decision();
        return INCOMPLETE.equals(d.reason()) ? new Unanswered() : new Decided(d);
    }
}
