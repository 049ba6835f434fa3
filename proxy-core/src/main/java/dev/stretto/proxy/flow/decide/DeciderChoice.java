package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.model.Flow;

/**
 * Which decider serves a flow: {@code --flow-decider} when given; otherwise the flow's arbiter
 * when it has fitted folds, else {@code reach} when it has reach counts, else {@code habit}.
 * A choice that cannot be served is a start failure, with a message that says how to serve
 * the flow instead. The arbiter asks the System-One model, so serving it needs an oracle.
 */
public final class DeciderChoice {

    private DeciderChoice() {
    }

    /**
     * The decider for {@code flow}.
     *
     * @param requested the {@code --flow-decider} value, or null
     * @param where     how to name the flow in messages (its path)
     * @throws ProxyStartException when the flow cannot be served that way: an arbiter asked of
     *                             a flow learned without one, or reach without reach counts
     */
    public static DeciderKind choose(Flow flow, DeciderKind requested, String where) throws ProxyStartException {
        String instead = flow.reach() != null ? "reach" : "habit";
        if (requested == DeciderKind.ARBITER && !flow.hasArbiter()) {
            throw new ProxyStartException("the flow " + where + " was learned without a System-One model: serve it"
                    + " with --flow-decider " + instead, null);
        }
        if (requested == DeciderKind.REACH && flow.reach() == null) {
            throw new ProxyStartException("the flow " + where + " has no counts for --flow-decider reach: learn it"
                    + " again, or serve it with --flow-decider habit", null);
        }
        return requested != null ? requested : defaultFor(flow);
    }

    /** The decider a flow is served with when none is asked for: its arbiter, else reach with its counts, else habit. */
    public static DeciderKind defaultFor(Flow flow) {
        return flow.hasArbiter() ? DeciderKind.ARBITER : flow.reach() != null ? DeciderKind.REACH : DeciderKind.HABIT;
    }

    /**
     * The line the proxy prints when it starts serving a flow (after the {@code stretto-proxy: }
     * prefix): {@code serving the <domain> flow from <path>, deciding with <decider>[, in shadow]}.
     */
    public static String servingLine(Flow flow, String where, DeciderKind kind, boolean shadow) {
        return "serving the " + flow.manifest().domain() + " flow from " + where + ", deciding with " + kind.wireName()
                + (shadow ? ", in shadow" : "");
    }
}
