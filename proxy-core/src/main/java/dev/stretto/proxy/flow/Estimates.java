package dev.stretto.proxy.flow;

import java.util.List;

/**
 * What a target policy would have done on labelled decisions ({@link Evaluation}, stretto-learn
 * 7), by four
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
    }
}
