package dev.stretto.proxy.flow.evaluate;

import java.util.List;
import java.util.Objects;

/**
 * A decision logged with {@code --flow-explore}, labelled: what the logging policy offered and
 * did, and for each offered lookup what making it would have led to.
 *
 * @param where      the file and line it was read from, for messages
 * @param site       the site
 * @param logged     the lookup the flow logged, or null when it handed back
 * @param decider    the decider that logged it
 * @param epsilon    the exploration share
 * @param greedy     the rule's own lookup, or null when the rule handed back
 * @param propensity the logged action's probability under the exploring policy
 * @param options    the offered lookups, in the log's order
 * @param labels     each option's label, in the same order
 */
public record LabelledDecision(String where, String site, String logged, String decider, double epsilon,
                               String greedy, double propensity, List<Option> options, List<Label> labels) {

    /** Copies the lists and checks they match. */
    public LabelledDecision {
        Objects.requireNonNull(site, "site");
        options = List.copyOf(options);
        labels = List.copyOf(labels);
        if (options.size() != labels.size()) {
            throw new IllegalArgumentException(labels.size() + " labels for " + options.size() + " options");
        }
    }

    /**
     * An offered lookup, as the policy logged it.
     *
     * @param tool    the lookup
     * @param p       the logging decider's probability
     * @param habit   the habit prior's probability
     * @param binding the binding's chance, or null when it did not bind
     */
    public record Option(String tool, double p, double habit, Double binding) {
        /** Requires the tool. */
        public Option {
            Objects.requireNonNull(tool, "tool");
        }
    }

    /**
     * What making a lookup would have led to (the metrics of one option).
     *
     * @param used   the agent used its result (made the same call itself)
     * @param detour it was a detour (the agent did not need it)
     * @param turn   it saved the agent a turn
     */
    public record Label(double used, double detour, double turn) {
    }

    /** The index of the logged action among the options, or -1 for handing back. */
    public int loggedIndex() {
        return index(logged);
    }

    /** The index of {@code tool} among the options, or -1 for null (handing back). */
    public int index(String tool) {
        if (tool == null) {
            return -1;
        }
        for (int i = 0; i < options.size(); i++) {
            if (options.get(i).tool().equals(tool)) {
                return i;
            }
        }
        throw new IllegalArgumentException("the lookup " + tool + " is not among the policy's options");
    }

    /**
     * The probability that the exploring policy takes option {@code i} (-1: handing back), as
     * the proxy explores (formats 3.4 step 9): the alternatives are the lookups that bind, have
     * {@code p > 0} and are not the rule's pick. Without any, or with epsilon 0, the rule's
     * action has propensity 1; otherwise 1 - epsilon, and an alternative
     * {@code epsilon p / sum of the alternatives' p}.
     */
    public double propensityOf(int i) {
        int greedyIndex = index(greedy);
        double total = 0;
        for (int k = 0; k < options.size(); k++) {
            if (alternative(k, greedyIndex)) {
                total += options.get(k).p();
            }
        }
        boolean exploring = epsilon > 0 && total > 0;
        if (i == greedyIndex) {
            return exploring ? 1 - epsilon : 1;
        }
        return exploring && alternative(i, greedyIndex) ? epsilon * options.get(i).p() / total : 0;
    }

    private boolean alternative(int k, int greedyIndex) {
        return k >= 0 && k != greedyIndex && options.get(k).binding() != null && options.get(k).p() > 0;
    }
}
