package dev.stretto.proxy.active;

import dev.stretto.proxy.policy.PolicyRules;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The policy a session applies ({@code --policy FILE}) and where the calls it holds for a
 * person wait for their answer.
 *
 * @param rules     the policy
 * @param approvals the session's approvals directory ({@code <session>.approvals} beside its
 *                  log), or null until the session knows it; with none an {@code ask} refuses
 */
public record ToolPolicy(PolicyRules rules, Path approvals) {

    /** Checks the parts. */
    public ToolPolicy {
        Objects.requireNonNull(rules, "rules");
    }

    /** This policy with its calls waiting in {@code dir}. */
    public ToolPolicy withApprovals(Path dir) {
        return new ToolPolicy(rules, dir);
    }
}
