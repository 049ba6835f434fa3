package dev.stretto.proxy.flow.model;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * A back-off n-gram model over step symbols: the counts of what the agent did next after
 * each history of up to {@code order} symbols. Both the flow's {@code habit.base} and its
 * {@code reach} have this shape.
 *
 * <p>A prediction for a history starts from the uniform distribution {@code 1/vocabSize} and,
 * for each level j from 0 to {@code order} whose counts hold the context made of the last j
 * symbols (left-padded with {@link #PAD}), replaces each action's value p by
 * {@code (n(context, a) + alpha * p) / (total(context) + alpha)}; a level without the context
 * leaves the values unchanged.
 *
 * @param order     the longest history, 2 in every flow stretto writes
 * @param alpha     the smoothing weight learned from the sessions
 * @param vocabSize the number of action ids: the vocabulary plus one for any unlisted action
 * @param levels    for j = 0 .. order, the counts after each history of j symbols, keyed by
 *                  the history and sorted by it
 */
public record Backoff(int order, double alpha, int vocabSize, List<Map<List<Long>, Counts>> levels) {

    /** The symbol that pads a history before the episode's first step (u32 max). */
    public static final long PAD = 4294967295L;

    /**
     * Copies the levels, each sorted by history.
     *
     * @throws IllegalArgumentException when there are not {@code order + 1} levels, a history
     *                                  of level j does not hold j symbols, a symbol is not an
     *                                  unsigned 32-bit value or an action id is not below
     *                                  {@code vocabSize}
     */
    public Backoff {
        if (order < 0) {
            throw new IllegalArgumentException("order must not be negative");
        }
        if (vocabSize < 1) {
            throw new IllegalArgumentException("vocab_size must be at least 1");
        }
        Objects.requireNonNull(levels, "levels");
        if (levels.size() != order + 1) {
            throw new IllegalArgumentException("an order-" + order + " model has " + (order + 1) + " levels, not "
                    + levels.size());
        }
        List<Map<List<Long>, Counts>> copy = new ArrayList<>(levels.size());
        for (int j = 0; j < levels.size(); j++) {
            Map<List<Long>, Counts> level = levels.get(j);
            Objects.requireNonNull(level, "levels[" + j + "]");
            for (Map.Entry<List<Long>, Counts> e : level.entrySet()) {
                checkHistory(e.getKey(), j, "levels[" + j + "]");
                checkActions(e.getValue(), vocabSize, "levels[" + j + "]");
            }
            copy.add(Sorted.by(copyKeys(level), Sorted.SYMBOLS, "levels[" + j + "]"));
        }
        levels = List.copyOf(copy);
    }

    static <V> Map<List<Long>, V> copyKeys(Map<List<Long>, V> map) {
        LinkedHashMap<List<Long>, V> out = new LinkedHashMap<>();
        for (Map.Entry<List<Long>, V> e : map.entrySet()) {
            out.put(List.copyOf(e.getKey()), e.getValue());
        }
        return out;
    }

    static void checkHistory(List<Long> history, int length, String where) {
        Objects.requireNonNull(history, where);
        if (history.size() != length) {
            throw new IllegalArgumentException(where + ": the history " + history + " should hold " + length
                    + " symbols");
        }
        for (Long s : history) {
            if (s == null || s < 0 || s > PAD) {
                throw new IllegalArgumentException(where + ": " + s + " is not a symbol (0 to " + PAD + ")");
            }
        }
    }

    static void checkActions(Counts counts, int vocabSize, String where) {
        Objects.requireNonNull(counts, where);
        for (Integer a : counts.byAction().keySet()) {
            if (a >= vocabSize) {
                throw new IllegalArgumentException(where + ": action id " + a + " is not below vocab_size "
                        + vocabSize);
            }
        }
    }

    /**
     * The predicted value of every action id after {@code history} (the symbols of the steps
     * so far, oldest first), as described above. For {@code habit.base} the values sum to
     * one; for {@code reach} each is read on its own.
     */
    public double[] predict(List<Long> history) {
        double[] p = new double[vocabSize];
        Arrays.fill(p, 1.0 / vocabSize);
        for (int j = 0; j <= order; j++) {
            Counts c = levels.get(j).get(context(history, j));
            if (c != null) {
                applyCounts(p, c, alpha);
            }
        }
        return p;
    }

    /** {@code p[a] = (n(a) + weight * p[a]) / (total + weight)} for every action id. */
    static void applyCounts(double[] p, Counts c, double weight) {
        double denominator = c.total() + weight;
        for (int a = 0; a < p.length; a++) {
            p[a] = (c.of(a) + weight * p[a]) / denominator;
        }
    }

    /** The last {@code length} symbols of {@code history}, left-padded with {@link #PAD}. */
    public static List<Long> context(List<Long> history, int length) {
        Long[] ctx = new Long[length];
        for (int i = 0; i < length; i++) {
            int from = history.size() - length + i;
            ctx[i] = from >= 0 ? history.get(from) : PAD;
        }
        return List.of(ctx);
    }
}
