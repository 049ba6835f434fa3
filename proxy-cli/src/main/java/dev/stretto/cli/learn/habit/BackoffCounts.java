package dev.stretto.cli.learn.habit;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The counts of the back-off model of order 2 (stretto-formats 2.2): for each context of 0,
 * 1 and 2 symbols before a step, how much weight each next action got. The habit, the reach
 * counts and the models of feature selection are all of this shape; {@link #prob} predicts
 * with them as the reference does, the last level applied last.
 */
public final class BackoffCounts {

    /** The symbol before a history's first step ({@code u32::MAX}). */
    public static final long PAD = 0xFFFFFFFFL;
    /** The longest context. */
    public static final int ORDER = 2;

    private final List<Map<History, Counts>> levels = new ArrayList<>();

    /** Empty counts. */
    public BackoffCounts() {
        for (int j = 0; j <= ORDER; j++) {
            levels.add(new HashMap<>());
        }
    }

    /** The habit's counts: each step's action after its contexts, with its episode's weight. */
    public static BackoffCounts of(List<EncodedEpisode> episodes) {
        BackoffCounts counts = new BackoffCounts();
        for (EncodedEpisode e : episodes) {
            for (int t = 0; t < e.length(); t++) {
                counts.add(e.symbols(), t, e.actions()[t], e.weight());
            }
        }
        return counts;
    }

    /** Adds {@code weight} for {@code action} after {@code symbols[0..t]}, at every level. */
    public void add(long[] symbols, int t, int action, double weight) {
        for (int j = 0; j <= ORDER; j++) {
            Counts c = levels.get(j).computeIfAbsent(History.before(symbols, t, j), h -> new Counts());
            c.add(action, weight);
            c.addTotal(weight);
        }
    }

    /**
     * Adds {@code weight} for each of {@code actions} and once to the total, after
     * {@code symbols[0..t]}, at every level: the reach counts, whose totals count steps.
     */
    public void addEach(long[] symbols, int t, Collection<Integer> actions, double weight) {
        for (int j = 0; j <= ORDER; j++) {
            Counts c = levels.get(j).computeIfAbsent(History.before(symbols, t, j), h -> new Counts());
            for (int a : actions) {
                c.add(a, weight);
            }
            c.addTotal(weight);
        }
    }

    /** The counts of one context, or null when it never occurred. */
    public Counts at(History h) {
        return levels.get(h.length()).get(h);
    }

    /**
     * The probability of {@code action} after {@code symbols[0..t]}: from the uniform
     * {@code 1/vocabSize}, each level whose context occurred in turn gives
     * {@code (n + alpha p) / (total + alpha)}.
     */
    public double prob(long[] symbols, int t, int action, double alpha, int vocabSize) {
        double p = 1.0 / vocabSize;
        for (int j = 0; j <= ORDER; j++) {
            Counts c = levels.get(j).get(History.before(symbols, t, j));
            if (c != null) {
                p = (c.of(action) + alpha * p) / (c.total() + alpha);
            }
        }
        return p;
    }

    /** Level {@code j}'s contexts in the order the flow file lists them. */
    public SortedMap<History, Counts> level(int j) {
        return Collections.unmodifiableSortedMap(new TreeMap<>(levels.get(j)));
    }
}
