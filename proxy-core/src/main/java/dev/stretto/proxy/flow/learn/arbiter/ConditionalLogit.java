package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.arbiter.Arbiter;
import dev.stretto.proxy.math.Libm;
import java.util.List;

/**
 * The arbiter's fit (stretto-learn 4.3): the weights that maximise the conditional-logit
 * log-likelihood of the agents' options, {@code sum over cases of (s_actual - ln sum_o exp s_o)}
 * with {@code s_o = x_o . w}, minus the ridge penalty {@code 0.5 |w|^2}, by Newton's method
 * from 0: the gradient and Hessian of the penalised objective, the Newton step solved by
 * Gaussian elimination with partial pivoting (a pivot below 1e-12 in size stops), the step
 * halved until the objective does not decrease (given up below 1e-6), at most 100 iterations,
 * stopping when an iteration gains less than 1e-9. The penalty makes the objective strictly
 * concave, so its maximum is the one point where the gradient is zero.
 */
public final class ConditionalLogit {

    static final int MAX_ITERATIONS = 100;
    static final double MIN_GAIN = 1e-9;
    static final double MIN_STEP = 1e-6;
    static final double MIN_PIVOT = 1e-12;

    private final List<double[][]> designs;
    private final int[] actual;
    private final int dimension;

    /**
     * The objective of these cases.
     *
     * @param designs   each case's features, one row per option, each {@code dimension} long
     * @param actual    each case's chosen option (an index into its rows)
     * @param dimension the number of weights
     * @throws IllegalArgumentException when a row is not {@code dimension} long or a choice is
     *                                  not one of its case's rows
     */
    public ConditionalLogit(List<double[][]> designs, int[] actual, int dimension) {
        if (designs.size() != actual.length) {
            throw new IllegalArgumentException(designs.size() + " designs for " + actual.length + " choices");
        }
        for (int c = 0; c < actual.length; c++) {
            double[][] x = designs.get(c);
            if (actual[c] < 0 || actual[c] >= x.length) {
                throw new IllegalArgumentException("case " + c + " chose option " + actual[c] + " of " + x.length);
            }
            for (double[] row : x) {
                if (row.length != dimension) {
                    throw new IllegalArgumentException("case " + c + " has " + row.length + " features, not "
                            + dimension);
                }
            }
        }
        this.designs = List.copyOf(designs);
        this.actual = actual.clone();
        this.dimension = dimension;
    }

    /**
     * How the fit went.
     *
     * @param weights    the weights found
     * @param iterations the Newton steps taken
     * @param objective  the penalised log-likelihood at the weights
     */
    public record Fit(double[] weights, int iterations, double objective) {
    }

    /** Newton's method from 0, as described on the class. */
    public Fit fit() {
        double[] w = new double[dimension];
        double current = objective(w);
        int iterations = 0;
        while (iterations < MAX_ITERATIONS) {
            double[] g = gradient(w);
            double[][] h = hessian(w);
            // The Newton step d solves (-H) d = g; -H is positive definite.
            double[][] a = new double[dimension][];
            for (int i = 0; i < dimension; i++) {
                a[i] = new double[dimension];
                for (int j = 0; j < dimension; j++) {
                    a[i][j] = -h[i][j];
                }
            }
            double[] d = solve(a, g.clone());
            if (d == null) {
                break;
            }
            double step = 1.0;
            double[] next = null;
            double value = Double.NaN;
            while (step >= MIN_STEP) {
                double[] trial = new double[dimension];
                for (int i = 0; i < dimension; i++) {
                    trial[i] = w[i] + step * d[i];
                }
                value = objective(trial);
                if (value >= current) {
                    next = trial;
                    break;
                }
                step /= 2;
            }
            if (next == null) {
                break;
            }
            iterations++;
            double gain = value - current;
            w = next;
            current = value;
            if (gain < MIN_GAIN) {
                break;
            }
        }
        return new Fit(w, iterations, current);
    }

    /** The penalised log-likelihood at {@code w}. */
    public double objective(double[] w) {
        double total = 0;
        for (int c = 0; c < actual.length; c++) {
            double[] s = scores(designs.get(c), w);
            double max = Double.NEGATIVE_INFINITY;
            for (double v : s) {
                max = Math.max(max, v);
            }
            double sum = 0;
            for (double v : s) {
                sum += Libm.exp(v - max);
            }
            total += s[actual[c]] - max - Libm.log(sum);
        }
        double penalty = 0;
        for (double v : w) {
            penalty += v * v;
        }
        return total - 0.5 * penalty;
    }

    /** The penalised objective's gradient at {@code w}: {@code sum (x_actual - E_p[x]) - w}. */
    public double[] gradient(double[] w) {
        double[] g = new double[dimension];
        for (int c = 0; c < actual.length; c++) {
            double[][] x = designs.get(c);
            double[] p = Arbiter.softmax(scores(x, w));
            for (int k = 0; k < dimension; k++) {
                double mean = 0;
                for (int o = 0; o < x.length; o++) {
                    mean += p[o] * x[o][k];
                }
                g[k] += x[actual[c]][k] - mean;
            }
        }
        for (int k = 0; k < dimension; k++) {
            g[k] -= w[k];
        }
        return g;
    }

    /** The penalised objective's Hessian at {@code w}: {@code -sum Cov_p[x] - I}. */
    public double[][] hessian(double[] w) {
        double[][] h = new double[dimension][dimension];
        for (double[][] x : designs) {
            double[] p = Arbiter.softmax(scores(x, w));
            double[] mean = new double[dimension];
            for (int o = 0; o < x.length; o++) {
                for (int k = 0; k < dimension; k++) {
                    mean[k] += p[o] * x[o][k];
                }
            }
            for (int o = 0; o < x.length; o++) {
                for (int i = 0; i < dimension; i++) {
                    double di = x[o][i] - mean[i];
                    for (int j = 0; j < dimension; j++) {
                        h[i][j] -= p[o] * di * (x[o][j] - mean[j]);
                    }
                }
            }
        }
        for (int i = 0; i < dimension; i++) {
            h[i][i] -= 1;
        }
        return h;
    }

    private static double[] scores(double[][] x, double[] w) {
        double[] s = new double[x.length];
        for (int o = 0; o < x.length; o++) {
            for (int k = 0; k < w.length; k++) {
                s[o] += x[o][k] * w[k];
            }
        }
        return s;
    }

    /** Solves {@code a x = b} by Gaussian elimination with partial pivoting; null when a pivot is below 1e-12. */
    static double[] solve(double[][] a, double[] b) {
        int n = b.length;
        for (int col = 0; col < n; col++) {
            int pivot = col;
            for (int r = col + 1; r < n; r++) {
                if (Math.abs(a[r][col]) > Math.abs(a[pivot][col])) {
                    pivot = r;
                }
            }
            if (Math.abs(a[pivot][col]) < MIN_PIVOT) {
                return null;
            }
            double[] rowSwap = a[col];
            a[col] = a[pivot];
            a[pivot] = rowSwap;
            double bSwap = b[col];
            b[col] = b[pivot];
            b[pivot] = bSwap;
            for (int r = col + 1; r < n; r++) {
                double f = a[r][col] / a[col][col];
                for (int k = col; k < n; k++) {
                    a[r][k] -= f * a[col][k];
                }
                b[r] -= f * b[col];
            }
        }
        double[] x = new double[n];
        for (int r = n - 1; r >= 0; r--) {
            double sum = b[r];
            for (int k = r + 1; k < n; k++) {
                sum -= a[r][k] * x[k];
            }
            x[r] = sum / a[r][r];
        }
        return x;
    }
}
