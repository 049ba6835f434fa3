package dev.stretto.proxy.flow.model;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The flow's next-action model: a back-off model and a layer of counts per group and
 * two-symbol history on top of it.
 *
 * <p>A prediction takes the base's prediction P and, when {@code top} holds the key (group,
 * last two symbols), replaces each action's value by
 * {@code (n(key, a) + beta * P(a)) / (total(key) + beta)}. In flows learned without goals
 * {@code top} repeats the base's level 2 under group 1 and {@code beta} equals alpha, so the
 * level-2 counts are applied twice; the reference does exactly that and so does this class.
 *
 * @param base the back-off model
 * @param beta the group layer's smoothing weight
 * @param top  the group layer's counts, keyed by (group, two-symbol history) and sorted
 */
public record Habit(Backoff base, double beta, Map<GroupContext, Counts> top) {

    /** A key of the group layer: a group and a two-symbol history. */
    public record GroupContext(long group, List<Long> history) {
        /** Copies the history. */
        public GroupContext {
            history = List.copyOf(history);
        }
    }

    static final Comparator<GroupContext> ORDER =
            Comparator.comparingLong(GroupContext::group).thenComparing(GroupContext::history, Sorted.SYMBOLS);

    /**
     * Copies {@code top} sorted by key.
     *
     * @throws IllegalArgumentException when a key's history does not hold {@code base.order()}
     *                                  symbols or an action id is not below the vocabulary size
     */
    public Habit {
        Objects.requireNonNull(base, "base");
        for (Map.Entry<GroupContext, Counts> e : Objects.requireNonNull(top, "top").entrySet()) {
            Backoff.checkHistory(e.getKey().history(), base.order(), "top");
            Backoff.checkActions(e.getValue(), base.vocabSize(), "top");
        }
        top = Sorted.by(top, ORDER, "top");
    }

    /** The probability of every action id after {@code history} for episodes of {@code group}. */
    public double[] predict(long group, List<Long> history) {
        double[] p = base.predict(history);
        Counts c = top.get(new GroupContext(group, Backoff.context(history, base.order())));
        if (c != null) {
            Backoff.applyCounts(p, c, beta);
        }
        return p;
    }
}
