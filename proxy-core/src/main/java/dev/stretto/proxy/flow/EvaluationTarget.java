package dev.stretto.proxy.flow;

import java.util.Objects;

/**
 * A deciding rule to evaluate on labelled decisions ({@link Evaluation}; {@code stretto
 * evaluate --target NAME=DECIDER@THRESHOLD}): which probabilities it decides with and at which
 * threshold, by the rule the proxy applies. {@code habit} uses the
 * habit prior every decision logs; {@code arbiter} and {@code reach} use the logged decider's
 * probabilities, so every decision must have been logged by that decider.
 *
 * @param name      the name reports use
 * @param decider   the decider
 * @param threshold the threshold
 */
public record EvaluationTarget(String name, DeciderKind decider, double threshold) {

    /**
     * Requires the name and decider.
     *
     * @throws NullPointerException when either is null
     */
    public EvaluationTarget {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(decider, "decider");
    }

    /**
     * Parses {@code NAME=DECIDER@THRESHOLD}.
     *
     * @param text such as {@code greedy=reach@0.3}
     * @return the target
     * @throws IllegalArgumentException with what is wrong
     */
    public static EvaluationTarget parse(String text) {
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
        return new EvaluationTarget(text.substring(0, eq), decider, threshold);
    }
}
