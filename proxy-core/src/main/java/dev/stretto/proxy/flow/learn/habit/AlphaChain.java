package dev.stretto.proxy.flow.learn.habit;

import dev.stretto.proxy.flow.learn.random.StandardNormal;
import dev.stretto.proxy.flow.learn.random.StdRng;
import dev.stretto.proxy.math.Libm;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.function.DoubleUnaryOperator;
import java.util.function.IntConsumer;

/**
 * The habit's alpha as the reference learns it: the posterior median of
 * {@code log_alpha ~ Normal(0, 2)} given the prequential log-likelihood of the training
 * episodes, from fugue's adaptive Metropolis-Hastings chain (a Gaussian random walk whose
 * scale adapts during warm-up towards 44% acceptance, then stays fixed) driven by Rust's
 * {@code StdRng}. Every random number and every libm call happens in the reference's order,
 * which is what makes the result equal to the last bit (stretto-learn 3.4).
 */
public final class AlphaChain {

    /** What {@code stretto learn} always uses: seed 7, 300 warm-up steps, 600 draws. */
    public static final long SEED = 7;
    public static final int WARM_UP = 300;
    public static final int SAMPLES = 600;

    private static final double PRIOR_SD = 2.0;
    private static final double LN_2PI = 1.8378770664093456;
    private static final double TARGET_ACCEPTANCE = 0.44;
    private static final double ADAPTATION_DECAY = 0.7;

    /**
     * One step of the chain.
     *
     * @param proposal the proposed log alpha
     * @param accepted whether the chain moved there
     */
    public record Move(double proposal, boolean accepted) {
    }

    /**
     * What the chain found.
     *
     * @param median           the posterior median of alpha: the value learning uses
     * @param lo               the 5% quantile of the draws
     * @param hi               the 95% quantile of the draws
     * @param start            the chain's start (log alpha), a Normal(0, 2) draw
     * @param scaleAfterWarmUp the random walk's step size once adaptation stopped
     * @param warmUpAccepted   how many warm-up proposals were accepted
     * @param moves            every step, warm-up first
     */
    public record Result(double median, double lo, double hi, double start, double scaleAfterWarmUp,
                         int warmUpAccepted, List<Move> moves) {
    }

    private AlphaChain() {
    }

    /** The chain with {@code stretto learn}'s settings. */
    public static Result run(PrequentialLikelihood likelihood) {
        return run(likelihood, step -> { });
    }

    /** The chain with {@code stretto learn}'s settings, told the number of each step done. */
    public static Result run(PrequentialLikelihood likelihood, IntConsumer onStep) {
        return run(likelihood::at, SEED, WARM_UP, SAMPLES, onStep);
    }

    /**
     * Runs the chain.
     *
     * @param logLikelihood the log-likelihood of the data at a given alpha (not log alpha)
     * @param onStep        told the number of each step done (for progress)
     */
    public static Result run(DoubleUnaryOperator logLikelihood, long seed, int warmUp, int samples,
                             IntConsumer onStep) {
        StdRng rng = StdRng.seedFromU64(seed);
        double current = StandardNormal.sample(rng, 0.0, PRIOR_SD);
        double start = current;
        double currentWeight = logWeight(current, logLikelihood);
        double scale = 1.0;
        double logScale = 0.0;
        int total = 0;
        int accepted = 0;
        double[] draws = new double[samples];
        List<Move> moves = new ArrayList<>(warmUp + samples);
        double scaleAfterWarmUp = scale;
        for (int step = 0; step < warmUp + samples; step++) {
            boolean warming = step < warmUp;
            rng.genRange(1); // fugue picks the site to move; there is one
            double proposal = current + scale * gaussian(rng);
            double proposalWeight = logWeight(proposal, logLikelihood);
            double logRatio = proposalWeight - currentWeight;
            boolean accept = logRatio >= 0.0 || rng.nextF64() < Libm.exp(logRatio);
            if (warming) {
                total++;
                if (accept) {
                    accepted++;
                }
                if (total >= 10) {
                    logScale += (1.0 / Libm.pow(total, ADAPTATION_DECAY))
                            * ((double) accepted / total - TARGET_ACCEPTANCE);
                    double s = Libm.exp(logScale);
                    scale = Double.isFinite(s) && s > 0.0 ? Math.clamp(s, 0.001, 100.0) : 1.0;
                    logScale = scale == 1.0 ? 0.0 : Libm.log(scale);
                }
                scaleAfterWarmUp = scale;
            }
            moves.add(new Move(proposal, accept));
            if (accept) {
                current = proposal;
                currentWeight = proposalWeight;
            }
            if (!warming) {
                draws[step - warmUp] = Libm.exp(current);
            }
            onStep.accept(step + 1);
        }
        Arrays.sort(draws);
        return new Result(quantile(draws, 0.5), quantile(draws, 0.05), quantile(draws, 0.95), start,
                scaleAfterWarmUp, accepted, List.copyOf(moves));
    }

    /** The prior's log density plus the data's log-likelihood at {@code exp(logAlpha)}. */
    static double logWeight(double logAlpha, DoubleUnaryOperator logLikelihood) {
        double z = logAlpha / PRIOR_SD;
        double prior = -0.5 * z * z - Libm.log(PRIOR_SD) - 0.5 * LN_2PI;
        return prior + logLikelihood.applyAsDouble(Libm.exp(logAlpha));
    }

    /** fugue's own Box-Muller draw (not rand_distr's). */
    private static double gaussian(StdRng rng) {
        double u1 = Math.max(rng.nextF64(), 1e-10);
        double u2 = rng.nextF64();
        return Math.sqrt(-2.0 * Libm.log(u1)) * Libm.cos(2.0 * Math.PI * u2);
    }

    /** fugue's quantile of sorted draws: the element at {@code round((n - 1) q)}. */
    private static double quantile(double[] sorted, double q) {
        return sorted[(int) Math.round((sorted.length - 1) * q)];
    }
}
