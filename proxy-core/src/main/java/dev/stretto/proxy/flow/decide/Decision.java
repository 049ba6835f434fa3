package dev.stretto.proxy.flow.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * What the flow proposed at one decision: a lookup with its bound arguments, or handing back
 * with the reason. Everything here is logged (formats 3.7); whether a proposed lookup is then
 * made is the run's business (the server's listing, contracts, {@code --flow-tools}, shadow
 * mode).
 *
 * @param lookup     whether the flow proposed a lookup
 * @param tool       the lookup's tool, or null when handing back
 * @param arguments  the lookup's bound arguments, or null when handing back
 * @param reason     why the flow hands back, or null for a lookup
 * @param site       the site's name ({@code tool} or {@code tool (error)}), or null when the
 *                   last step is not a call
 * @param probs      the decider's probability of every option, {@code respond} included, in
 *                   option order; empty when nothing was computed
 * @param prob       the probability of the lookup proposed or explained, or null
 * @param binding    the chance of the binding when one was made, or null
 * @param oracle     the arbiter's next-step distribution; an empty object otherwise
 * @param predicates the arbiter's yes-probability of each predicate; empty otherwise
 * @param key        the oracle request's cache key (arbiter decisions), or null
 * @param policy     the exploration record, or null without {@code --flow-explore}
 */
public record Decision(boolean lookup, String tool, ObjectNode arguments, String reason, String site,
                       Map<String, Double> probs, Double prob, Double binding, JsonNode oracle,
                       Map<String, Double> predicates, String key, Policy policy) {

    /** Checks that a lookup has a tool and arguments and a hand-back a reason. */
    public Decision {
        if (lookup) {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(arguments, "arguments");
            arguments = arguments.deepCopy();
        } else {
            Objects.requireNonNull(reason, "reason");
        }
        probs = Collections.unmodifiableMap(new LinkedHashMap<>(probs));
        oracle = oracle == null ? JsonNodeFactory.instance.objectNode() : oracle.deepCopy();
        predicates = Collections.unmodifiableMap(new LinkedHashMap<>(predicates));
    }

    /** Handing back before any probability was computed. */
    public static Decision handBack(String reason, String site) {
        return new Decision(false, null, null, reason, site, Map.of(), null, null, null, Map.of(), null, null);
    }

    /** The arguments; a copy, since JSON trees are mutable. */
    @Override
    public ObjectNode arguments() {
        return arguments == null ? null : arguments.deepCopy();
    }

    /** The arbiter's distribution; a copy. */
    @Override
    public JsonNode oracle() {
        return oracle.deepCopy();
    }

    /** This decision with an exploration record. */
    public Decision withPolicy(Policy newPolicy) {
        return new Decision(lookup, tool, arguments, reason, site, probs, prob, binding, oracle, predicates, key,
                newPolicy);
    }
}
