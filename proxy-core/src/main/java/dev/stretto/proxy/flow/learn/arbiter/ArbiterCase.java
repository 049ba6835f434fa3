package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.arbiter.ArbiterAnswers;
import dev.stretto.proxy.flow.arbiter.OptionFeatures;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.flow.predict.Steps;
import dev.stretto.proxy.oracle.Response;
import java.util.List;
import java.util.Objects;

/**
 * A held-out decision the System-One model answered: a case the arbiter is fitted on
 * (stretto-learn 4.2). The features are those the arbiter judges with when serving.
 *
 * @param site     the site's name
 * @param features the options' features
 * @param actual   the index of the agent's option among the options, or -1 when the site did
 *                 not offer it
 */
public record ArbiterCase(String site, OptionFeatures features, int actual) {

    /** Requires the site and features. */
    public ArbiterCase {
        Objects.requireNonNull(site, "site");
        Objects.requireNonNull(features, "features");
    }

    /**
     * The case of {@code decision} with the model's {@code response}, or null when the response
     * is incomplete.
     *
     * @param flow the flow being learned (its habit, predicates and weighed predicates)
     */
    public static ArbiterCase of(HeldOutDecision decision, Response response, Flow flow) {
        List<String> offered = decision.offered();
        ArbiterAnswers answers = ArbiterAnswers.of(response, offered, flow.predicates());
        if (answers == null) {
            return null;
        }
        List<Long> history = Steps.history(Steps.of(flow, decision.view().episode()));
        OptionFeatures f = OptionFeatures.of(offered, new Predictions(flow).habitPrior(history, offered), answers,
                flow.weighed(), decision.site().tool());
        return new ArbiterCase(decision.site().name(), f, f.options().indexOf(decision.agentOption()));
    }

    /** Whether the agent's option was among those offered. */
    public boolean covered() {
        return actual >= 0;
    }

    /** Whether the model's {@code next} answer picked the agent's option. */
    public boolean agreed() {
        return covered() && features.picked() == actual;
    }
}
