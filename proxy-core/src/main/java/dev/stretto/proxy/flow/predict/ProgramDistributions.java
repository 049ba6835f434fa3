package dev.stretto.proxy.flow.predict;

import dev.stretto.proxy.flow.model.Counts;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.math.Libm;
import java.util.List;
import java.util.Map;

/**
 * The two distributions of the flow's standard program, with counts from the habit's level 1
 * (what followed each step symbol in training):
 * <ul>
 *   <li>{@code Decide(prev, failed)}: a categorical over handing back and every read tool (by
 *       {@link ToolNumbers}), the posterior predictive of a flat Dirichlet over handing back
 *       and the lookups the site offers; lookups not offered get 0. Only simulators use it:
 *       the live proxy logs decisions with log-probability 0.</li>
 *   <li>{@code Outcome(d)}: a Bernoulli whose {@code P(ok) = (n_ok + 1) / (n_ok + n_fail + 2)},
 *       with {@code n_ok} and {@code n_fail} the level-1 totals of the tool's ok and failed
 *       symbols: how many steps followed such calls in training.</li>
 * </ul>
 * Log-probabilities come from the C library's {@code log}, as the reference's do, since they
 * reach the flow log.
 */
public final class ProgramDistributions {

    private final Flow flow;

    /** The distributions of {@code flow}. */
    public ProgramDistributions(Flow flow) {
        this.flow = flow;
    }

    /**
     * {@code Decide(prev, failed)} after a call of {@code tool}: the probability of each
     * decision value 0 .. {@code numbers.reads()}.
     */
    public double[] decide(String tool, boolean failed, ToolNumbers numbers) {
        Sites.Site site = new Sites.Site(tool, failed);
        Map<String, Long> offered = flow.sites().next().getOrDefault(site, Map.of());
        double[] counts = levelOne(flow.actionId(tool), failed ? Step.FAILED : Step.OK);
        double total = counts[counts.length - 1];
        double[] p = new double[numbers.reads() + 1];
        double lookups = 0.0;
        for (String lookup : offered.keySet()) {
            lookups += counts[flow.actionId(lookup)];
        }
        double denominator = total + 1 + offered.size();
        p[ToolNumbers.HAND_BACK] = (total - lookups + 1) / denominator;
        for (String lookup : offered.keySet()) {
            if (numbers.offered(lookup)) {
                p[numbers.number(lookup)] = (counts[flow.actionId(lookup)] + 1) / denominator;
            }
        }
        return p;
    }

    /** {@code P(ok)} of {@code Outcome(d)} for a lookup of {@code tool}. */
    public double okProbability(String tool) {
        int action = flow.actionId(tool);
        double ok = levelOne(action, Step.OK)[flow.vocab().size() + 1];
        double failed = levelOne(action, Step.FAILED)[flow.vocab().size() + 1];
        return (ok + 1) / (ok + failed + 2);
    }

    /** The log-probability of a lookup of {@code tool} succeeding ({@code ok}) or failing. */
    public double outcomeLogp(String tool, boolean ok) {
        double p = okProbability(tool);
        return Libm.log(ok ? p : 1.0 - p);
    }

    /**
     * The level-1 counts after the symbols of {@code action} with {@code outcome}, whatever
     * their feature: one count per action id, the total last.
     */
    private double[] levelOne(int action, int outcome) {
        int size = flow.vocab().size() + 1;
        double[] counts = new double[size + 1];
        if (flow.habit().base().levels().size() < 2) {
            return counts;
        }
        long first = Step.symbol(action, outcome, 0);
        for (Map.Entry<List<Long>, Counts> e : flow.habit().base().levels().get(1).entrySet()) {
            long s = e.getKey().get(0);
            if (s >= first && s <= first + Step.MAX_FEATURE) {
                for (Map.Entry<Integer, Double> n : e.getValue().byAction().entrySet()) {
                    counts[n.getKey()] += n.getValue();
                }
                counts[size] += e.getValue().total();
            }
        }
        return counts;
    }
}
