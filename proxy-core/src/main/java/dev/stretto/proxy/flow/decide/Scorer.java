package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.predict.Predictions;

/**
 * Weighs the options at a site (step 6 of a decision). The habit and reach scorers answer at
 * once; the arbiter's asks the System-One model first (see {@link Scoring.Ask}).
 */
public interface Scorer {

    /** The decider this scorer is. */
    DeciderKind kind();

    /** The probabilities of the options at the site, or a question to ask first. */
    Scoring score(SiteQuestion question);

    /** The habit decider: the habit prior of each offered lookup, handing back the rest. */
    static Scorer habit(Flow flow) {
        Predictions predictions = new Predictions(flow);
        return new Scorer() {
            @Override
            public DeciderKind kind() {
                return DeciderKind.HABIT;
            }

            @Override
            public Scoring score(SiteQuestion q) {
                return new Scoring.Scored(predictions.habitPrior(q.history(), q.offered()));
            }
        };
    }

    /**
     * The reach decider: each offered lookup's reach prediction, handing back 0.
     *
     * @throws IllegalArgumentException when the flow has no reach counts
     */
    static Scorer reach(Flow flow) {
        if (flow.reach() == null) {
            throw new IllegalArgumentException("the flow has no counts for the reach decider");
        }
        Predictions predictions = new Predictions(flow);
        return new Scorer() {
            @Override
            public DeciderKind kind() {
                return DeciderKind.REACH;
            }

            @Override
            public Scoring score(SiteQuestion q) {
                return new Scoring.Scored(predictions.reach(q.history(), q.offered()));
            }
        };
    }
}
