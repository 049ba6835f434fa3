package dev.stretto.proxy.policy;

import dev.stretto.proxy.PolicyAction;
import java.util.List;

/**
 * What a policy makes of one call: the action that won, who decided it and why, every rule
 * and budget that matched, and the budgets the call counts against once it goes to the server.
 *
 * @param action  the strictest action of those that apply; {@link PolicyAction#ALLOW} when none does
 * @param by      who decided: {@code policy rule <id>}, {@code policy budget <id>} or {@code
 *                policy pinning}; null for an allow no rule decided
 * @param rule    the deciding rule's or budget's id ({@code pinning} for pinning), or null
 * @param reason  why, bare (the rule's reason, or the policy's own words)
 * @param matched the ids of every rule and budget that matched, in the policy's order
 * @param counts  the budgets the call counts against if it is sent
 */
public record Decision(PolicyAction action, String by, String rule, String reason, List<String> matched,
                       List<Budget> counts) {

    public Decision {
        matched = List.copyOf(matched);
        counts = List.copyOf(counts);
    }

    /**
     * What the agent is told in place of the call's result when it is refused, in the guards'
     * shape.
     */
    public String refusal(String tool) {
        return refusal(tool, reason);
    }

    /** The refusal with {@code why} in place of the decision's own reason (a person's no, a timeout). */
    public String refusal(String tool, String why) {
        return "Refused by the policy check, so " + tool + " was not run and nothing changed: " + why + " (" + by + ").";
    }
}
