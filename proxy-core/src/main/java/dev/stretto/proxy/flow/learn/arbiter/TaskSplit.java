package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.math.Fnv1a64;
import dev.stretto.proxy.math.SplitMix64;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * Which tasks train the habit and which are held out to fit the arbiter on (stretto-learn
 * 4.1): {@code round(0.3 n)} tasks (halves away from zero), at least one and at most
 * {@code n - 1}, are held out: those whose {@code mix(fnv1a64("learn-split/" + task))} is
 * smallest (unsigned), with {@code mix} the splitmix64 finaliser. Both sides keep the tasks'
 * order.
 *
 * @param training the training tasks, in their original order
 * @param heldOut  the held-out tasks, in their original order
 */
public record TaskSplit(List<String> training, List<String> heldOut) {

    static final double HELD_OUT_SHARE = 0.3;

    /** Copies the lists. */
    public TaskSplit {
        training = List.copyOf(training);
        heldOut = List.copyOf(heldOut);
    }

    /**
     * Splits the tasks (distinct, in order of first appearance).
     *
     * @param episodes how many episodes the tasks have, for the message
     * @throws FlowException when there are fewer than two tasks
     */
    public static TaskSplit of(List<String> tasks, int episodes) throws FlowException {
        int n = tasks.size();
        if (n < 2) {
            throw new FlowException(episodes + " episodes of " + n + " tasks are too few to split into training and"
                    + " held-out tasks");
        }
        int held = (int) Math.min(Math.max(Math.round(HELD_OUT_SHARE * n), 1), n - 1);
        List<String> ranked = new ArrayList<>(tasks);
        ranked.sort(Comparator.comparing(TaskSplit::rank, Long::compareUnsigned));
        Set<String> out = new HashSet<>(ranked.subList(0, held));
        List<String> training = new ArrayList<>();
        List<String> heldOut = new ArrayList<>();
        for (String t : tasks) {
            (out.contains(t) ? heldOut : training).add(t);
        }
        return new TaskSplit(training, heldOut);
    }

    /** The value a task is ranked by (unsigned). */
    static long rank(String task) {
        return SplitMix64.mix(Fnv1a64.hash("learn-split/" + task));
    }
}
