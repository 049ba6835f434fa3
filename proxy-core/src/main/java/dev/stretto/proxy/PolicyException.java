package dev.stretto.proxy;

import java.util.List;

/**
 * A policy that cannot be used: a file that is not JSON or YAML, unknown keys, a glob or a
 * regex that is not valid, a rule without an action, and so on. It holds every problem found,
 * each with its place ({@link #problems()}), so that all can be fixed in one go; a session is
 * never started with such a policy, and nothing is allowed silently in its stead.
 */
public final class PolicyException extends Exception {

    private final transient List<PolicyProblem> problems;

    /**
     * The problems of one policy.
     *
     * @param problems what is wrong, in the order of the file; at least one
     * @throws IllegalArgumentException when {@code problems} is empty
     */
    public PolicyException(List<PolicyProblem> problems) {
        super(message(problems));
        this.problems = List.copyOf(problems);
    }

    private static String message(List<PolicyProblem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a policy exception needs a problem");
        }
        return problems.getFirst() + (problems.size() == 1 ? "" : " (and " + (problems.size() - 1)
                + (problems.size() == 2 ? " more problem)" : " more problems)"));
    }

    /**
     * Everything wrong with the policy, in the order of the file.
     *
     * @return at least one problem
     */
    public List<PolicyProblem> problems() {
        return problems;
    }
}
