package dev.stretto.proxy.flow.tools;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.manifest.ToolKind;
import java.util.List;
import java.util.Objects;
import java.util.Set;

/**
 * Whether the proxy may actually call a lookup the flow proposed. All of these must hold: the
 * flow's manifest marks the tool {@code read}; once the server has answered a
 * {@code tools/list}, it lists the tool and does not set {@code readOnlyHint: false} (before
 * any listing every tool passes); its pinned contract, if the flow has one and the listing
 * gives one, equals the live one; and it is among {@code --flow-tools} when that option is
 * given. A refused lookup is still logged as proposed; the run then hands back.
 */
public final class ToolGate {

    private final Flow flow;
    private final Set<String> allowed;

    /**
     * The gate of {@code flow}.
     *
     * @param allowed the tools of {@code --flow-tools}, or null when the option is not given
     */
    public ToolGate(Flow flow, Set<String> allowed) {
        this.flow = Objects.requireNonNull(flow, "flow");
        this.allowed = allowed == null ? null : Set.copyOf(allowed);
    }

    /** Whether a lookup may be made, and if not, why. */
    public sealed interface Verdict {
    }

    /** The lookup may be made. */
    public record Allowed() implements Verdict {
    }

    /**
     * The lookup may not be made.
     *
     * @param why    why, for people
     * @param change the contract change behind it, or null
     */
    public record Refused(String why, ContractChange change) implements Verdict {
        /** Requires a reason. */
        public Refused {
            Objects.requireNonNull(why, "why");
        }
    }

    /**
     * A tool whose input changed since the flow was learned.
     *
     * @param tool   the tool
     * @param pinned the contract the flow pinned
     * @param now    the contract the server lists now
     */
    public record ContractChange(String tool, String pinned, String now) {
        /** The message printed once per tool (after the {@code stretto-proxy: } prefix). */
        public String message() {
            return tool + "'s input changed since the flow was learned (" + pinned + " \u2192 " + now
                    + "); the flow no longer looks it up";
        }
    }

    /** The verdict on looking {@code tool} up, given what the server listed so far. */
    public Verdict check(String tool, LiveTools live) {
        if (!flow.manifest().isRead(tool)) {
            return new Refused(tool + " is not a read tool in the flow's manifest", null);
        }
        if (live.listed()) {
            LiveTools.Listed listed = live.get(tool);
            if (listed == null) {
                return new Refused("the server does not list " + tool, null);
            }
            if (listed.kind() == ToolKind.WRITE) {
                return new Refused("the server marks " + tool + " readOnlyHint: false", null);
            }
            String pinned = flow.contracts().get(tool);
            if (pinned != null && listed.contract() != null && !pinned.equals(listed.contract())) {
                ContractChange change = new ContractChange(tool, pinned, listed.contract());
                return new Refused(change.message(), change);
            }
        }
        if (allowed != null && !allowed.contains(tool)) {
            return new Refused(tool + " is not among --flow-tools", null);
        }
        return new Allowed();
    }

    /**
     * The arguments {@code tool} requires, for binding a lookup training never made: from the
     * server's listing, else from the flow's pinned contract; null when neither tells.
     */
    public List<String> requiredArguments(String tool, LiveTools live) {
        LiveTools.Listed listed = live.get(tool);
        if (listed != null && listed.contract() != null) {
            return listed.required();
        }
        String pinned = flow.contracts().get(tool);
        return pinned == null ? null : Contract.required(pinned);
    }
}
