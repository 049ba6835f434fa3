package dev.stretto.proxy.flow;

import java.util.Objects;

/**
 * What {@link Learning#learn()} made.
 *
 * @param flow     the flow
 * @param sessions how many sessions it was learned from (after the logs of several servers
 *                 were merged)
 */
public record LearnedFlow(Flow flow, int sessions) {

    /**
     * Checks the flow.
     *
     * @throws NullPointerException when it is null
     */
    public LearnedFlow {
        Objects.requireNonNull(flow, "flow");
    }
}
