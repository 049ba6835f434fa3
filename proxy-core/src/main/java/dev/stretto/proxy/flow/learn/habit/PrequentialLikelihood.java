package dev.stretto.proxy.flow.learn.habit;

import dev.stretto.proxy.math.Libm;
import java.util.List;

/**
 * The prequential log-likelihood of episodes under the back-off model as a function of
 * alpha: each step is predicted from the counts of every step before it (earlier episodes
 * and the episode's own earlier steps, weight 1 each), then counted.
 *
 * <p>The counts a step sees do not depend on alpha, so they are recorded once; each
 * evaluation then does the same floating-point operations, in the same order, as
 * rebuilding the model would (the Metropolis-Hastings chain evaluates it hundreds of times).
 */
public final class PrequentialLikelihood {

    private final int vocabSize;
    /** Per step and level: the action's count and the context's total, NaN when unseen. */
    private final double[] counts;
    private final double[] totals;
    private final int steps;

    /** Records the counts each step of {@code episodes} (in order) is predicted from. */
    public PrequentialLikelihood(List<EncodedEpisode> episodes, int vocabSize) {
        this.vocabSize = vocabSize;
        int n = 0;
        for (EncodedEpisode e : episodes) {
            n += e.length();
        }
        this.steps = n;
        int levels = BackoffCounts.ORDER + 1;
        this.counts = new double[n * levels];
        this.totals = new double[n * levels];
        BackoffCounts model = new BackoffCounts();
        int k = 0;
        for (EncodedEpisode e : episodes) {
            for (int t = 0; t < e.length(); t++) {
                for (int j = 0; j < levels; j++) {
                    BackoffCounts.Tally c = model.at(e.symbols(), t, j);
                    counts[k * levels + j] = c == null ? Double.NaN : c.of(e.actions()[t]);
                    totals[k * levels + j] = c == null ? Double.NaN : c.total;
                }
                model.add(e, t, List.of(e.actions()[t]), 1.0);
                k++;
            }
        }
    }

    /** The log-likelihood at {@code alpha}, with libm's {@code log} as the reference's. */
    public double at(double alpha) {
        int levels = BackoffCounts.ORDER + 1;
        double ll = 0.0;
        for (int k = 0; k < steps; k++) {
            double p = 1.0 / vocabSize;
            for (int j = 0; j < levels; j++) {
                double total = totals[k * levels + j];
                if (!Double.isNaN(total)) {
                    p = (counts[k * levels + j] + alpha * p) / (total + alpha);
                }
            }
            ll += Libm.log(p);
        }
        return ll;
    }
}
