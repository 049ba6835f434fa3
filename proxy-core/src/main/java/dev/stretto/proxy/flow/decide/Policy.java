package dev.stretto.proxy.flow.decide;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import java.util.Objects;

/**
 * How an explored decision was drawn (the flow log's {@code policy}), so that decisions logged
 * with {@code --flow-explore} can be evaluated offline.
 *
 * @param decider    the decider's name
 * @param threshold  the threshold that applied at the site
 * @param epsilon    the exploration share
 * @param explored   whether the draw replaced the rule's pick
 * @param greedy     the rule's lookup, or null when the rule handed back
 * @param propensity the probability of the logged action under the exploring policy
 * @param taskId     the task id the draws were keyed with
 * @param events     how many events the episode held before the decision
 * @param options    every offered lookup, in option order
 */
public record Policy(String decider, double threshold, double epsilon, boolean explored, String greedy,
                     double propensity, String taskId, int events, List<Option> options) {

    /** Copies the options. */
    public Policy {
        Objects.requireNonNull(decider, "decider");
        Objects.requireNonNull(taskId, "taskId");
        options = List.copyOf(options);
    }

    /**
     * One offered lookup.
     *
     * @param tool      the lookup
     * @param p         the decider's probability
     * @param habit     the habit prior's probability
     * @param binding   the binding's chance, or null when it does not bind
     * @param arguments the bound arguments, or null when it does not bind
     * @param unbound   why it does not bind, or null when it does
     */
    public record Option(String tool, double p, double habit, Double binding, ObjectNode arguments, String unbound) {
        /** Copies the arguments. */
        public Option {
            Objects.requireNonNull(tool, "tool");
            arguments = arguments == null ? null : arguments.deepCopy();
        }

        /** The arguments; a copy. */
        @Override
        public ObjectNode arguments() {
            return arguments == null ? null : arguments.deepCopy();
        }
    }
}
