package dev.stretto.cli.learn.habit;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * What followed one context: a weight per action id and the total weight of the context.
 * An action appears once anything was added for it, even a weight of 0 (old sessions can
 * weigh nothing under a short half-life), as the reference writes such entries too.
 */
public final class Counts {

    private final TreeMap<Integer, Double> byAction = new TreeMap<>();
    private double total;

    void add(int action, double weight) {
        byAction.merge(action, weight, Double::sum);
    }

    void addTotal(double weight) {
        total += weight;
    }

    /** The weight of each action id seen after the context, by id. */
    public SortedMap<Integer, Double> byAction() {
        return Collections.unmodifiableSortedMap(byAction);
    }

    /** The weight of an action id, 0 when it never followed. */
    public double of(int action) {
        Double w = byAction.get(action);
        return w == null ? 0.0 : w;
    }

    /** The context's total weight. */
    public double total() {
        return total;
    }
}
