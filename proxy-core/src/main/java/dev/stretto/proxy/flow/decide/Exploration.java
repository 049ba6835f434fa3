package dev.stretto.proxy.flow.decide;

/**
 * Exploration ({@code --flow-explore EPSILON}, {@code --flow-explore-seed SEED}): with
 * probability epsilon a decision takes another lookup that binds instead of the rule's pick,
 * chosen in proportion to its probability, and logs the propensity so the decisions can be
 * evaluated offline.
 *
 * @param epsilon the share of decisions that explore, 0 to 1
 * @param seed    the seed mixed into every decision's draws
 */
public record Exploration(double epsilon, long seed) {

    /**
     * Checks the share.
     *
     * @throws IllegalArgumentException when epsilon is not a number from 0 to 1
     */
    public Exploration {
        if (!(epsilon >= 0.0 && epsilon <= 1.0)) {
            throw new IllegalArgumentException("--flow-explore takes a number from 0 to 1, not " + epsilon);
        }
    }
}
