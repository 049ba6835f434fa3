package dev.stretto.proxy.flow.evaluate;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.EvaluationTarget;
import java.util.List;

/** What a target policy does at a logged decision, by the rule the proxy applies. */
final class TargetRule {

    private TargetRule() {
    }

    /**
     * The index of the option {@code target} takes at {@code d}, or -1 for handing back.
     * Habit and arbiter: the likeliest lookup (the first of equals), if its probability reaches
     * the threshold, it binds, and its probability times the binding's chance still does.
     * Reach: among the lookups that reach the threshold and bind, the best probability times
     * chance (the first strictly greater), if that reaches the threshold.
     *
     * @throws IllegalArgumentException when the decision was logged by another decider than
     *                                  this arbiter or reach target needs
     */
    static int action(EvaluationTarget target, LabelledDecision d) {
        DeciderKind decider = target.decider();
        double threshold = target.threshold();
        if (decider != DeciderKind.HABIT && !decider.wireName().equals(d.decider())) {
            throw new IllegalArgumentException(d.where() + ": --target " + target.name() + " decides with the logged "
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
            if (best < 0 || p(decider, options.get(i)) > p(decider, options.get(best))) {
                best = i;
            }
        }
        if (best < 0) {
            return -1;
        }
        LabelledDecision.Option o = options.get(best);
        double p = p(decider, o);
        return p >= threshold && o.binding() != null && p * o.binding() >= threshold ? best : -1;
    }

    private static double p(DeciderKind decider, LabelledDecision.Option o) {
        return decider == DeciderKind.HABIT ? o.habit() : o.p();
    }
}
