package dev.stretto.cli.evaluate;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a target policy would have done on logged decisions (stretto-learn 7), by four
 * estimators of each metric ({@code lookups}, {@code used}, {@code detours}, {@code turns};
 * handing back scores 0 on all):
 * <ul>
 *   <li>direct: the label of the option the target takes;</li>
 *   <li>IPS: the logged action's metric times {@code w = 1 / propensity} where the target takes
 *       the logged action, else 0;</li>
 *   <li>SNIPS: IPS times {@code n / sum of w};</li>
 *   <li>doubly robust: {@code model(target) + w (seen - model(logged))}, where the model of a
 *       lookup is its mean label at that site, else anywhere, else [1, 0, 1, 0].</li>
 * </ul>
 * Each estimate is the mean of per-decision terms, its standard error their standard deviation
 * over the square root of n. The effective sample size is {@code (sum w)^2 / sum w^2}; below
 * the floor the weighted estimates are refused. A decision is unsupported when the target
 * makes a lookup the logging policy could not have made (propensity 0).
 *
 * @param decisions   how many decisions
 * @param ess         the effective sample size of the weights
 * @param unsupported the decisions whose target lookup had propensity 0
 * @param metrics     each metric's estimates, in metric order
 */
public record Estimates(int decisions, double ess, int unsupported, List<Metric> metrics) {

    /** The metrics' names, in order. */
    public static final List<String> METRICS = List.of("lookups", "used", "detours", "turns");

    /** The model of a lookup with no label anywhere: a lookup, unused, a detour, no turn saved. */
    static final double[] PRIOR = {1, 0, 1, 0};

    /** Copies the metrics. */
    public Estimates {
        metrics = List.copyOf(metrics);
    }

    /**
     * One metric's estimates.
     *
     * @param name   the metric
     * @param direct the direct estimate
     * @param ips    inverse propensity scoring
     * @param snips  self-normalised IPS
     * @param dr     doubly robust
     */
    public record Metric(String name, Estimate direct, Estimate ips, Estimate snips, Estimate dr) {
    }

    /**
     * An estimate and its standard error.
     *
     * @param value the estimate
     * @param error its standard error
     */
    public record Estimate(double value, double error) {

        static Estimate of(double[] terms) {
            int n = terms.length;
            if (n == 0) {
                return new Estimate(Double.NaN, Double.NaN);
            }
            double mean = 0;
            for (double t : terms) {
                mean += t;
            }
            mean /= n;
            double squares = 0;
            for (double t : terms) {
                squares += (t - mean) * (t - mean);
            }
            return new Estimate(mean, n > 1 ? Math.sqrt(squares / (n - 1)) / Math.sqrt(n) : Double.NaN);
        }
    }

    /**
     * The estimates of {@code target} on {@code decisions}.
     *
     * @param all every decision, which the model of the doubly robust estimator is fitted on
     */
    public static Estimates of(Target target, List<LabelledDecision> decisions, List<LabelledDecision> all) {
        LabelModel model = new LabelModel(all);
        int n = decisions.size();
        double[][] direct = new double[4][n];
        double[][] ips = new double[4][n];
        double[][] dr = new double[4][n];
        double[] w = new double[n];
        int unsupported = 0;
        for (int j = 0; j < n; j++) {
            LabelledDecision d = decisions.get(j);
            int taken = target.action(d);
            int logged = d.loggedIndex();
            if (taken >= 0 && d.propensityOf(taken) == 0) {
                unsupported++;
            }
            w[j] = taken == logged ? 1 / d.propensity() : 0;
            double[] mine = metrics(d, taken);
            double[] seen = metrics(d, logged);
            double[] predTarget = model.predict(d.site(), d, taken);
            double[] predLogged = model.predict(d.site(), d, logged);
            for (int m = 0; m < 4; m++) {
                direct[m][j] = mine[m];
                ips[m][j] = w[j] * seen[m];
                dr[m][j] = predTarget[m] + w[j] * (seen[m] - predLogged[m]);
            }
        }
        double sum = 0;
        double squares = 0;
        for (double v : w) {
            sum += v;
            squares += v * v;
        }
        List<Metric> metrics = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            double[] snips = new double[n];
            for (int j = 0; j < n; j++) {
                snips[j] = sum == 0 ? Double.NaN : ips[m][j] * n / sum;
            }
            metrics.add(new Metric(METRICS.get(m), Estimate.of(direct[m]), Estimate.of(ips[m]),
                    sum == 0 ? new Estimate(Double.NaN, Double.NaN) : Estimate.of(snips), Estimate.of(dr[m])));
        }
        return new Estimates(n, squares == 0 ? 0 : sum * sum / squares, unsupported, metrics);
    }

    /** The metrics of option {@code i} (handing back, -1: all 0). */
    static double[] metrics(LabelledDecision d, int i) {
        if (i < 0) {
            return new double[4];
        }
        LabelledDecision.Label l = d.labels().get(i);
        return new double[] {1, l.used(), l.detour(), l.turn()};
    }

    /** The doubly robust estimator's model: each lookup's mean metrics at each site, else anywhere. */
    private static final class LabelModel {

        private final Map<String, double[]> bySiteTool = new HashMap<>();
        private final Map<String, double[]> byTool = new HashMap<>();

        LabelModel(List<LabelledDecision> all) {
            for (LabelledDecision d : all) {
                for (int i = 0; i < d.options().size(); i++) {
                    double[] m = metrics(d, i);
                    String tool = d.options().get(i).tool();
                    add(bySiteTool, d.site() + "\u0000" + tool, m);
                    add(byTool, tool, m);
                }
            }
        }

        private static void add(Map<String, double[]> sums, String key, double[] m) {
            double[] s = sums.computeIfAbsent(key, k -> new double[5]);
            for (int k = 0; k < 4; k++) {
                s[k] += m[k];
            }
            s[4]++;
        }

        double[] predict(String site, LabelledDecision d, int i) {
            if (i < 0) {
                return new double[4];
            }
            String tool = d.options().get(i).tool();
            double[] s = bySiteTool.get(site + "\u0000" + tool);
            if (s == null) {
                s = byTool.get(tool);
            }
            if (s == null) {
                return PRIOR.clone();
            }
            double[] mean = new double[4];
            for (int k = 0; k < 4; k++) {
                mean[k] = s[k] / s[4];
            }
            return mean;
        }
    }
}
