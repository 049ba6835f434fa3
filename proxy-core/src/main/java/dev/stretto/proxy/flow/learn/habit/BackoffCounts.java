package dev.stretto.proxy.flow.learn.habit;

import dev.stretto.proxy.flow.model.Backoff;
import dev.stretto.proxy.flow.model.Counts;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The counts of a back-off model of order 2 as learning adds them up: for each context of 0,
 * 1 and 2 symbols before a step, how much weight each next action got. The habit, the reach
 * counts and the models of feature selection are all of this shape; {@link #toBackoff} gives
 * the flow's model.
 */
public final class BackoffCounts {

    /** The longest context. */
    public static final int ORDER = 2;

    /**
     * What followed one context. An action appears once anything was added for it, even a
     * weight of 0 (old sessions can weigh nothing under a short half-life): the reference
     * writes such entries too.
     */
    static final class Tally {
        final TreeMap<Integer, Double> byAction = new TreeMap<>();
        double total;

        double of(int action) {
            Double w = byAction.get(action);
            return w == null ? 0.0 : w;
        }
    }

    private final List<Map<List<Long>, Tally>> levels = new ArrayList<>();

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
                counts.add(e, t, List.of(e.actions()[t]), e.weight());
            }
        }
        return counts;
    }

    /**
     * Adds {@code weight} for each of {@code actions} and once to the total, after the first
     * {@code t} steps of {@code e}, at every level. The habit adds one action per step; the
     * reach counts add every action reached, so their totals count steps.
     */
    public void add(EncodedEpisode e, int t, Collection<Integer> actions, double weight) {
        for (int j = 0; j <= ORDER; j++) {
            Tally c = levels.get(j).computeIfAbsent(context(e.symbols(), t, j), h -> new Tally());
            for (int a : actions) {
                c.byAction.merge(a, weight, Double::sum);
            }
            c.total += weight;
        }
    }

    /** The counts after a context of {@code length} symbols before step {@code t}, or null. */
    Tally at(long[] symbols, int t, int length) {
        return levels.get(length).get(context(symbols, t, length));
    }

    /** The last {@code length} symbols of {@code symbols[0..t]}, left-padded with {@link Backoff#PAD}. */
    static List<Long> context(long[] symbols, int t, int length) {
        Long[] h = new Long[length];
        for (int k = 0; k < length; k++) {
            int source = t - length + k;
            h[k] = source < 0 ? Backoff.PAD : symbols[source];
        }
        return List.of(h);
    }

    /** The flow's model of these counts. */
    public Backoff toBackoff(double alpha, int vocabSize) {
        List<Map<List<Long>, Counts>> out = new ArrayList<>();
        for (Map<List<Long>, Tally> level : levels) {
            Map<List<Long>, Counts> counts = new HashMap<>();
            level.forEach((h, c) -> counts.put(h, new Counts(c.byAction, c.total)));
            out.add(counts);
        }
        return new Backoff(ORDER, alpha, vocabSize, out);
    }
}
