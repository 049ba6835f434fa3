package dev.stretto.proxy.flow.arbiter;

import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.math.Libm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a fitted fold judges a decision (formats 2.5): each option's probability is the softmax
 * of its features times the fold's weights, times the site's coverage. A site's rates are
 * shrunk towards the fold's overall ones by ten pseudo-decisions: reliability
 * {@code (agreed + 10 * agree) / (decisions + 10)} and coverage
 * {@code (covered + 10 * cover) / (decisions + 10)}; a site the fold never judged gets the
 * overall rates.
 */
public final class Arbiter {

    /** How many decisions' worth of the overall rate a site's rate starts from. */
    static final double PSEUDO_DECISIONS = 10;

    private Arbiter() {
    }

    /** {@code (count + 10 * overall) / (decisions + 10)}: a site's rate shrunk towards the overall one. */
    public static double shrunk(double count, double decisions, double overall) {
        return (count + PSEUDO_DECISIONS * overall) / (decisions + PSEUDO_DECISIONS);
    }

    /** How often the model agreed with the agent at {@code site}, by the fold's rates. */
    public static double reliability(Fold.Rates rates, String site) {
        Fold.SiteRates s = rates.site(site);
        return s == null ? rates.agree() : shrunk(s.agreed(), s.decisions(), rates.agree());
    }

    /** How often the agent's option was among those offered at {@code site}, by the fold's rates. */
    public static double coverage(Fold.Rates rates, String site) {
        Fold.SiteRates s = rates.site(site);
        return s == null ? rates.cover() : shrunk(s.covered(), s.decisions(), rates.cover());
    }

    /**
     * The probability of each option at {@code site}, in option order.
     *
     * @throws IllegalArgumentException when the fold's weights do not match the features
     */
    public static Map<String, Double> judge(Fold fold, String site, OptionFeatures features) {
        double[][] x = features.withReliability(reliability(fold.rates(), site));
        List<Double> w = fold.weights();
        double[] scores = new double[x.length];
        for (int i = 0; i < x.length; i++) {
            if (x[i].length != w.size()) {
                throw new IllegalArgumentException("the arbiter has " + w.size() + " weights for " + x[i].length
                        + " features");
            }
            for (int k = 0; k < w.size(); k++) {
                scores[i] += x[i][k] * w.get(k);
            }
        }
        double[] p = softmax(scores);
        double cover = coverage(fold.rates(), site);
        Map<String, Double> probs = new LinkedHashMap<>();
        for (int i = 0; i < p.length; i++) {
            probs.put(features.options().get(i), p[i] * cover);
        }
        return probs;
    }

    /** {@code exp(s_i - max) / sum}: the softmax, shifted by the largest score so nothing overflows. */
    public static double[] softmax(double[] scores) {
        double max = Double.NEGATIVE_INFINITY;
        for (double s : scores) {
            max = Math.max(max, s);
        }
        double[] e = new double[scores.length];
        double sum = 0;
        for (int i = 0; i < scores.length; i++) {
            e[i] = Libm.exp(scores[i] - max);
            sum += e[i];
        }
        for (int i = 0; i < e.length; i++) {
            e[i] /= sum;
        }
        return e;
    }
}
