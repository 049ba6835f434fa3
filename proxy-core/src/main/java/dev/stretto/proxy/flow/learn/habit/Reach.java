package dev.stretto.proxy.flow.learn.habit;

import java.util.List;
import java.util.TreeSet;
import java.util.function.IntPredicate;

/**
 * The counts of the {@code reach} decider (stretto-learn 3.7): after each context, which
 * actions the agent went on to take before its next write. Each step adds its weight to the
 * total of its contexts and to every action among it and the steps after it up to (not
 * including) the first write step; a step that is itself a write reaches nothing.
 */
public final class Reach {

    private Reach() {
    }

    /**
     * Counts the reach of the episodes.
     *
     * @param isWrite whether an action id is a tool of kind {@code write}
     */
    public static BackoffCounts count(List<EncodedEpisode> episodes, IntPredicate isWrite) {
        BackoffCounts reach = new BackoffCounts();
        for (EncodedEpisode e : episodes) {
            int[] actions = e.actions();
            for (int t = 0; t < actions.length; t++) {
                TreeSet<Integer> ahead = new TreeSet<>();
                for (int u = t; u < actions.length && !isWrite.test(actions[u]); u++) {
                    ahead.add(actions[u]);
                }
                reach.add(e, t, ahead, e.weight());
            }
        }
        return reach;
    }
}
