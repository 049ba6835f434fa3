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
 * @param scoring    how the decisions were scored
 * @param perCall    the most lookups chained after one call
 */
public record PromotionResult(Flow flow, DeciderKind decider, int sessions, long unanswered, int passes,
                              Promotion.Scoring scoring, int perCall) {

    /**
     * Checks the result.
     *
     * @throws NullPointerException when the flow, decider or scoring is null
     */
    public PromotionResult {
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(decider, "decider");
        Objects.requireNonNull(scoring, "scoring");
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
