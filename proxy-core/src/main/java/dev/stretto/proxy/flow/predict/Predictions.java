package dev.stretto.proxy.flow.predict;

import dev.stretto.proxy.flow.model.Flow;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The probabilities the habit and reach deciders give the options at a site: handing back
 * ({@link #RESPOND}) and each offered lookup.
 */
public final class Predictions {

    /** The option of handing back, as probabilities and logs name it. */
    public static final String RESPOND = "respond";

    private final Flow flow;

    /** The predictions of {@code flow}. */
    public Predictions(Flow flow) {
        this.flow = flow;
    }

    /**
     * The habit's probability of every action id after {@code history}, the group layer
     * applied on top of the back-off model (for goal-free flows that applies the level-2
     * counts twice, as the reference does).
     */
    public double[] habit(List<Long> history) {
        return flow.habit().predict(flow.group(), history);
    }

    /**
     * The habit prior: each offered lookup's habit probability, and {@code respond}
     * {@code max(0, 1 - sum of the lookups)} (replies, writes and lookups not offered all
     * count as handing back). Lookups in the order given, {@code respond} last.
     */
    public Map<String, Double> habitPrior(List<Long> history, List<String> offered) {
        double[] p = habit(history);
        Map<String, Double> out = new LinkedHashMap<>();
        double sum = 0.0;
        for (String lookup : offered) {
            double v = p[flow.actionId(lookup)];
            out.put(lookup, v);
            sum += v;
        }
        out.put(RESPOND, Math.max(0.0, 1.0 - sum));
        return out;
    }

    /**
     * The reach decider's probabilities: each offered lookup's reach prediction (whether the
     * agent makes it before its next write), read on its own, and {@code respond} 0.
     *
     * @throws IllegalStateException when the flow has no reach counts
     */
    public Map<String, Double> reach(List<Long> history, List<String> offered) {
        if (flow.reach() == null) {
            throw new IllegalStateException("the flow has no reach counts");
        }
        double[] p = flow.reach().predict(history);
        Map<String, Double> out = new LinkedHashMap<>();
        for (String lookup : offered) {
            out.put(lookup, p[flow.actionId(lookup)]);
        }
        out.put(RESPOND, 0.0);
        return out;
    }
}
