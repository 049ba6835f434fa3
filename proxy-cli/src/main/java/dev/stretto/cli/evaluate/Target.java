package dev.stretto.cli.evaluate;

import dev.stretto.proxy.flow.decide.DeciderKind;
import java.util.List;
import java.util.Objects;

/**
 * A policy to evaluate ({@code --target NAME=DECIDER@THRESHOLD}): which probabilities it
 * decides with and at which threshold, by the rule the proxy applies. {@code habit} uses the
 * habit prior every decision logs; {@code arbiter} and {@code reach} use the logged decider's
 * probabilities, so every decision must have been logged by that decider.
 *
 * @param name      the name reports use
 * @param decider   the decider
 * @param threshold the threshold
 */
public record Target(String name, DeciderKind decider, double threshold) {

    /** Requires the name and decider. */
    public Target {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(decider, "decider");
    }

    /**
     * Parses {@code NAME=DECIDER@THRESHOLD}.
     *
     * @throws IllegalArgumentException with what is wrong
     */
    public static Target parse(String text) {
        int eq = text.indexOf('=');
        int at = text.lastIndexOf('@');
        if (eq <= 0 || at < eq) {
            throw new IllegalArgumentException("--target takes NAME=DECIDER@THRESHOLD (such as greedy=reach@0.3), not '"
                    + text + "'");
        }
        DeciderKind decider;
        try {
            decider = DeciderKind.ofWireName(text.substring(eq + 1, at));
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("--target " + text + ": " + e.getMessage());
        }
        double threshold;
        try {
            threshold = Double.parseDouble(text.substring(at + 1));
        } catch (NumberFormatException e) {
            threshold = Double.NaN;
        }
        if (!(threshold >= 0 && threshold <= 1)) {
            throw new IllegalArgumentException("--target " + text + ": the threshold must be a number from 0 to 1");
        }
        return new Target(text.substring(0, eq), decider, threshold);
    }

    /**
     * The index of the option this policy takes at {@code d}, or -1 for handing back.
     * Habit and arbiter: the likeliest lookup (the first of equals), if its probability reaches
     * the threshold, it binds, and its probability times the binding's chance still does.
     * Reach: among the lookups that reach the threshold and bind, the best probability times
     * chance (the first strictly greater), if that reaches the threshold.
     *
     * @throws IllegalArgumentException when the decision was logged by another decider than
     *                                  this arbiter or reach target needs
     */
    public int action(LabelledDecision d) {
        if (decider != DeciderKind.HABIT && !decider.wireName().equals(d.decider())) {
            throw new IllegalArgumentException(d.where() + ": --target " + name + " decides with the logged "
                    + decider.wireName() + " probabilities, but this decision was logged by " + d.decider());
        }
        List<LabelledDecision.Option> options = d.options();
        if (decider == DeciderKind.REACH) {
            int best = -1;
            double bestScore = 0;
            for (int i = 0; i < options.size(); i++) {
                LabelledDecision.Option o = options.get(i);
                if (o.p() >= threshold && o.binding() != null && (best < 0 || o.p() * o.binding() > bestScore)) {
                    best = i;
                    bestScore = o.p() * o.binding();
                }
            }
            return best >= 0 && bestScore >= threshold ? best : -1;
        }
        int best = -1;
        for (int i = 0; i < options.size(); i++) {
            if (best < 0 || p(options.get(i)) > p(options.get(best))) {
                best = i;
            }
        }
        if (best < 0) {
            return -1;
        }
        LabelledDecision.Option o = options.get(best);
        double p = p(o);
        return p >= threshold && o.binding() != null && p * o.binding() >= threshold ? best : -1;
    }

    private double p(LabelledDecision.Option o) {
        return decider == DeciderKind.HABIT ? o.habit() : o.p();
    }
}
