package dev.stretto.proxy.flow.run;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.Exploration;
import java.util.Set;

/**
 * How a flow is served ({@code stretto-proxy --flow-*}).
 *
 * @param threshold    the decision threshold ({@code --flow-threshold}, 0.3)
 * @param decider      the decider ({@code --flow-decider}), or null for the flow's default
 * @param perCall      the most lookups after one call ({@code --flow-per-call}, 8)
 * @param perSession   the most lookups in a session ({@code --flow-per-session}, 40)
 * @param maxQuestions the most System-One questions in a session ({@code --flow-questions}, 300)
 * @param tools        the only tools the flow may look up ({@code --flow-tools}), or null for any
 * @param shadow       decide and log, but never look up ({@code --flow-shadow})
 * @param exploration  exploration ({@code --flow-explore}, {@code --flow-explore-seed}), or null
 * @param taskId       the task id ({@code --task-id}), or null for the session id
 */
public record FlowOptions(double threshold, DeciderKind decider, int perCall, int perSession, int maxQuestions,
                          Set<String> tools, boolean shadow, Exploration exploration, String taskId) {

    /** The defaults: threshold 0.3, the flow's decider, 8 per call, 40 per session, 300 questions. */
    public static final FlowOptions DEFAULTS = new FlowOptions(0.3, null, 8, 40, 300, null, false, null, null);

    /**
     * Checks the numbers.
     *
     * @throws IllegalArgumentException when the threshold is not a number or a limit is negative
     */
    public FlowOptions {
        if (Double.isNaN(threshold)) {
            throw new IllegalArgumentException("--flow-threshold must be a number");
        }
        if (perCall < 0 || perSession < 0 || maxQuestions < 0) {
            throw new IllegalArgumentException("--flow-per-call, --flow-per-session and --flow-questions must not be"
                    + " negative");
        }
        tools = tools == null ? null : Set.copyOf(tools);
    }
}
