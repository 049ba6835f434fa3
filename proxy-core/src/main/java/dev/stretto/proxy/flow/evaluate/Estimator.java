package dev.stretto.proxy.flow.evaluate;

import dev.stretto.proxy.flow.Estimates;
import dev.stretto.proxy.flow.EvaluationTarget;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Estimates what a target policy would have done on logged decisions (stretto-learn 7; see
 * {@link Estimates}).
 */
public final class Estimator {

    /** The model of a lookup with no label anywhere: a lookup, unused, a detour, no turn saved. */
    static final double[] PRIOR = {1, 0, 1, 0};

    private Estimator() {
    }

    /**
     * The estimates of {@code target} on {@code decisions}.
     *
     * @param all every decision, which the model of the doubly robust estimator is fitted on
     */
    public static Estimates of(EvaluationTarget target, List<LabelledDecision> decisions, List<LabelledDecision> all) {
        LabelModel model = new LabelModel(all);
        int n = decisions.size();
        double[][] direct = new double[4][n];
        double[][] ips = new double[4][n];
        double[][] dr = new double[4][n];
        double[] w = new double[n];
        int unsupported = 0;
        for (int j = 0; j < n; j++) {
            LabelledDecision d = decisions.get(j);
            int taken = TargetRule.action(target, d);
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
        List<Estimates.Metric> metrics = new ArrayList<>();
        for (int m = 0; m < 4; m++) {
            double[] snips = new double[n];
            for (int j = 0; j < n; j++) {
                snips[j] = sum == 0 ? Double.NaN : ips[m][j] * n / sum;
            }
            metrics.add(new Estimates.Metric(Estimates.METRICS.get(m), estimate(direct[m]), estimate(ips[m]),
                    sum == 0 ? new Estimates.Estimate(Double.NaN, Double.NaN) : estimate(snips), estimate(dr[m])));
        }
        return new Estimates(n, squares == 0 ? 0 : sum * sum / squares, unsupported, metrics);
    }

/** The mean of per-decision terms and its standard error. */
static Estimates.Estimate estimate(double[] terms) {
        int n = terms.length;
        if (n == 0) {
            return new Estimates.Estimate(Double.NaN, Double.NaN);
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
        return new Estimates.Estimate(mean, n > 1 ? Math.sqrt(squares / (n - 1)) / Math.sqrt(n) : Double.NaN);
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
