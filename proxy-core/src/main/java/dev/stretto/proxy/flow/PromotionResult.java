package dev.stretto.proxy.flow;

import java.util.Objects;

/**
 * What {@link Promotion#promote()} found.
 *
 * @param flow       the flow with its promotion record ({@link #promoted()})
 * @param decider    the decider it was scored with
 * @param sessions   the sessions (episodes) scored
 * @param unanswered the decisions left out because the System-One model gave no answer
 * @param passes     the scoring passes made (1 for single-pass scoring)
 */
public record PromotionResult(Flow flow, DeciderKind decider, int sessions, long unanswered, int passes) {

    /**
     * Checks the result.
     *
     * @throws NullPointerException when the flow or decider is null
     */
    public PromotionResult {
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(decider, "decider");
    }

    /**
     * The promotion record: the bar and each site's score.
     *
     * @return the flow's record
     */
    public Promoted promoted() {
        return dev.stretto.proxy.flow.model.Flow.of(flow).promoted();
    }
}
