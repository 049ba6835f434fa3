package dev.stretto.proxy.flow.learn.arbiter;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ConditionalLogitTest {

    /** Twelve cases of three options, two features each, with choices that favour neither weight extremely. */
    private static ConditionalLogit twoWeights() {
        List<double[][]> designs = new ArrayList<>();
        int[] actual = new int[12];
        for (int c = 0; c < 12; c++) {
            designs.add(new double[][] {
                {Math.sin(c), 1.0},
                {Math.cos(c) * 2, 0.0},
                {0.3 * (c % 4) - 0.5, c % 3 == 0 ? 1.0 : -1.0},
            });
            actual[c] = c % 3 == 1 ? 1 : c % 5 == 0 ? 2 : 0;
        }
        return new ConditionalLogit(designs, actual, 2);
    }

    /** The penalised log-likelihood written out directly, with the JDK's own log and exp. */
    private static double directObjective(double w0, double w1) {
        double total = 0;
        for (int c = 0; c < 12; c++) {
            double[] s = {Math.sin(c) * w0 + w1, Math.cos(c) * 2 * w0, (0.3 * (c % 4) - 0.5) * w0
                    + (c % 3 == 0 ? 1.0 : -1.0) * w1};
            int a = c % 3 == 1 ? 1 : c % 5 == 0 ? 2 : 0;
            total += s[a] - Math.log(Math.exp(s[0]) + Math.exp(s[1]) + Math.exp(s[2]));
        }
        return total - 0.5 * (w0 * w0 + w1 * w1);
    }

    @Test
    void theNewtonOptimumHasAZeroGradientAndIsTheBruteForceMaximum() {
        ConditionalLogit logit = twoWeights();
        ConditionalLogit.Fit fit = logit.fit();
        for (double g : logit.gradient(fit.weights())) {
            assertEquals(0.0, g, 1e-9);
        }
        // Brute force: a grid over [-3, 3]^2, then ever finer grids around the best point.
        double bestW0 = 0;
        double bestW1 = 0;
        double best = directObjective(0, 0);
        double span = 3;
        for (int round = 0; round < 12; round++) {
            double c0 = bestW0;
            double c1 = bestW1;
            for (int i = -50; i <= 50; i++) {
                for (int j = -50; j <= 50; j++) {
                    double w0 = c0 + span * i / 50;
                    double w1 = c1 + span * j / 50;
                    double v = directObjective(w0, w1);
                    if (v > best) {
                        best = v;
                        bestW0 = w0;
                        bestW1 = w1;
                    }
                }
            }
            span /= 10;
        }
        assertArrayEquals(new double[] {bestW0, bestW1}, fit.weights(), 1e-7);
        assertEquals(best, fit.objective(), 1e-9);
        assertEquals(directObjective(fit.weights()[0], fit.weights()[1]), logit.objective(fit.weights()), 1e-12);
        assertTrue(fit.iterations() > 1 && fit.iterations() < 20, "iterations: " + fit.iterations());
    }

    @Test
    void withoutCasesTheRidgeKeepsEveryWeightAtZero() {
        ConditionalLogit.Fit fit = new ConditionalLogit(List.of(), new int[0], 5).fit();
        assertArrayEquals(new double[5], fit.weights());
        assertEquals(0.0, fit.objective());
    }

    @Test
    void aSingularSystemHasNoSolution() {
        assertNull(ConditionalLogit.solve(new double[][] {{1, 2}, {2, 4}}, new double[] {1, 2}));
        assertArrayEquals(new double[] {1, 2},
                ConditionalLogit.solve(new double[][] {{0, 1}, {2, 0}}, new double[] {2, 2}), 1e-15);
    }
}
