package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.oracle.OracleHandle;
import java.util.Objects;

/**
 * What {@code stretto promote} was asked to do (stretto-learn 6.1, for session logs).
 *
 * @param oracle  who answers the arbiter's questions ({@code --oracle}, default replay, over
 *                the cache of {@code --oracle-cache}), or null when the flow is not scored with
 *                its arbiter
 * @param decider the decider ({@code --decider}), or null for the flow's default
 * @param bar     the threshold the flow decides with and the bar its sites are held to
 * @param perCall the most lookups chained after one call ({@code --per-call}, 8)
 * @param scoring which scoring algorithm
 */
public record PromoteOptions(OracleHandle oracle, DeciderKind decider, Promoted.Bar bar, int perCall,
                             Algorithm scoring) {

    /** The two ways of scoring (stretto-learn 6.3 and 6.4). */
    public enum Algorithm {
        /** The newest: decisions as served (pending calls, chains through promoted sites), iterated. */
        CHAINED,
        /** The older single pass, which promoted flows were scored with before. */
        SINGLE_PASS
    }

    /**
     * Checks the options.
     *
     * @throws IllegalArgumentException when {@code perCall} is negative
     */
    public PromoteOptions {
        Objects.requireNonNull(bar, "bar");
        Objects.requireNonNull(scoring, "scoring");
        if (perCall < 0) {
            throw new IllegalArgumentException("--per-call must not be negative");
        }
    }
}
