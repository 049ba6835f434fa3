package dev.stretto.cli.promote;

import dev.stretto.proxy.flow.decide.DeciderKind;
import dev.stretto.proxy.flow.model.Promoted;
import dev.stretto.proxy.oracle.Oracle;
import java.nio.file.Path;
import java.util.Objects;

/**
 * What {@code stretto promote} was asked to do (stretto-learn 6.1, for session logs).
 *
 * @param flow     the flow to score
 * @param sessions the session logs recorded while it ran in shadow
 * @param out      where to write the promoted flow
 * @param oracle   who answers the arbiter's questions ({@code --oracle}, default replay)
 * @param cache    the answer cache ({@code --oracle-cache}, default {@code .oracle-cache})
 * @param decider  the decider ({@code --decider}), or null for the flow's default
 * @param bar      the threshold the flow decides with and the bar its sites are held to
 * @param perCall  the most lookups chained after one call ({@code --per-call}, 8)
 * @param report   where to write the Markdown report, or null for standard output
 * @param scoring  which scoring algorithm
 */
public record PromoteOptions(Path flow, Path sessions, Path out, Oracle.Mode oracle, Path cache, DeciderKind decider,
                             Promoted.Bar bar, int perCall, Path report, Algorithm scoring) {

    /** The two ways of scoring (stretto-learn 6.3 and 6.4). */
    public enum Algorithm {
        /** The newest: decisions as served (pending calls, chains through promoted sites), iterated. */
        CHAINED,
        /** The older single pass, which promoted flows were scored with before. */
        SINGLE_PASS
    }

    public PromoteOptions {
        Objects.requireNonNull(flow, "flow");
        Objects.requireNonNull(sessions, "sessions");
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(oracle, "oracle");
        Objects.requireNonNull(cache, "cache");
        Objects.requireNonNull(bar, "bar");
        Objects.requireNonNull(scoring, "scoring");
        if (perCall < 0) {
            throw new IllegalArgumentException("--per-call must not be negative");
        }
    }
}
