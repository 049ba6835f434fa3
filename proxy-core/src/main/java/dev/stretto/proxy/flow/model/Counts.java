package dev.stretto.proxy.flow.model;

import java.util.Comparator;
import java.util.Map;

/**
 * What followed one context in training: a (possibly weighted) count per action id and the
 * context's total. Counts are doubles because learning can weight old sessions down; the
 * file writes them with a decimal point ({@code 6.0}).
 *
 * <p>In {@code habit} the total is the sum of the counts. In {@code reach} it is the number
 * of steps after the context, and each action counts the steps from which it occurred before
 * the agent's next write, so the counts need not sum to the total and may be empty.
 *
 * @param byAction count per action id (the file's {@code by_action} pairs), sorted by id
 * @param total    the context's total
 */
public record Counts(Map<Integer, Double> byAction, double total) {

    /** Copies {@code byAction} sorted by action id; ids must not be negative. */
    public Counts {
        byAction = Sorted.by(byAction, Comparator.naturalOrder(), "by_action");
        for (Integer id : byAction.keySet()) {
            if (id < 0) {
                throw new IllegalArgumentException("by_action: negative action id " + id);
            }
        }
    }

    /** The count of {@code action}, 0 when it never followed. */
    public double of(int action) {
        Double n = byAction.get(action);
        return n == null ? 0.0 : n;
    }
}
