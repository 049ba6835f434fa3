package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.proxy.flow.arbiter.Arbiter;
import dev.stretto.proxy.flow.model.Fold;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The arbiter fitted on the cases (stretto-learn 4.3): the model's rates, per site and overall
 * (how often it picked the agent's option, and how often that option was offered), and the
 * weights of {@link ConditionalLogit} over the cases whose agent option was offered, each with
 * its reliability feature from the pooled rates. {@code learn} writes five copies of the one
 * fold this makes.
 */
public final class ArbiterFit {

    private ArbiterFit() {
    }

    /**
     * The fitted fold and how many Newton steps it took.
     *
     * @param fold       the weights and rates
     * @param iterations the Newton steps
     */
    public record Result(Fold fold, int iterations) {
    }

    /**
     * Fits the cases.
     *
     * @param weights how many weights (the features of each option, reliability included)
     */
    public static Result fit(List<ArbiterCase> cases, int weights) {
        Fold.Rates rates = rates(cases);
        List<double[][]> designs = new ArrayList<>();
        List<Integer> actual = new ArrayList<>();
        for (ArbiterCase c : cases) {
            if (c.covered()) {
                designs.add(c.features().withReliability(Arbiter.reliability(rates, c.site())));
                actual.add(c.actual());
            }
        }
        ConditionalLogit.Fit fit = new ConditionalLogit(designs, actual.stream().mapToInt(Integer::intValue).toArray(),
                weights).fit();
        List<Double> w = new ArrayList<>();
        for (double v : fit.weights()) {
            w.add(v);
        }
        return new Result(new Fold(w, rates), fit.iterations());
    }

    /**
     * Each site's {@code [decisions, agreed, covered]}, sorted by site, and overall
     * {@code agree} (0.5 without cases) and {@code cover} (1.0 without cases).
     */
    static Fold.Rates rates(List<ArbiterCase> cases) {
        Map<String, double[]> bySite = ByteOrder.map();
        double agreed = 0;
        double covered = 0;
        for (ArbiterCase c : cases) {
            double[] n = bySite.computeIfAbsent(c.site(), s -> new double[3]);
            n[0]++;
            if (c.agreed()) {
                n[1]++;
                agreed++;
            }
            if (c.covered()) {
                n[2]++;
                covered++;
            }
        }
        List<Fold.SiteRates> sites = new ArrayList<>();
        bySite.forEach((site, n) -> sites.add(new Fold.SiteRates(site, n[0], n[1], n[2])));
        return new Fold.Rates(sites, cases.isEmpty() ? 0.5 : agreed / cases.size(),
                cases.isEmpty() ? 1.0 : covered / cases.size());
    }
}
