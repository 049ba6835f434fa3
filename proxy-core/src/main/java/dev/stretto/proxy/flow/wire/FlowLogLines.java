package dev.stretto.proxy.flow.wire;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.proxy.flow.decide.Policy;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Map;

/**
 * The lines of a flow log ({@code <session>.flow.jsonl}): one JSON object per line, keys
 * sorted, numbers in Rust's spelling ({@code 0.0}, {@code -0.0}), without the newline.
 *
 * <p>A decision line holds {@code action} ({@code lookup} or {@code hand_back}), {@code tool}
 * and {@code arguments} (lookups) or {@code reason} (hand-backs), {@code site}, {@code probs},
 * {@code prob}, {@code binding}, {@code oracle}, {@code predicates}, {@code key}, {@code after}
 * (the agent's request id as sent), {@code address} ({@code decide#i}), {@code ms}, and
 * {@code policy} and {@code shadow} when they apply. A run line is
 * {@code {"after":id,"run":{"call","failed","max_lookups","sites":[[address,value,logp],...],"surprise"}}}.
 */
public final class FlowLogLines {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private FlowLogLines() {
    }

    /**
     * A decision line.
     *
     * @param decision the decision
     * @param after    the id of the agent's request the run follows
     * @param index    the decision's index in the run
     * @param ms       how long the decision took, in milliseconds
     * @param shadow   whether the flow runs in shadow mode
     */
    public static String decision(Decision decision, JsonNode after, int index, long ms, boolean shadow) {
        ObjectNode line = JSON.objectNode();
        line.put("action", decision.lookup() ? "lookup" : "hand_back");
        line.put("address", "decide#" + index);
        line.set("after", after.deepCopy());
        if (decision.lookup()) {
            line.set("arguments", decision.arguments());
            line.put("tool", decision.tool());
        } else {
            line.put("reason", decision.reason());
        }
        line.set("binding", number(decision.binding()));
        line.set("key", decision.key() == null ? JSON.nullNode() : JSON.textNode(decision.key()));
        line.put("ms", ms);
        line.set("oracle", decision.oracle());
        line.set("predicates", numbers(decision.predicates()));
        line.set("prob", number(decision.prob()));
        line.set("probs", numbers(decision.probs()));
        line.set("site", decision.site() == null ? JSON.nullNode() : JSON.textNode(decision.site()));
        if (decision.policy() != null) {
            line.set("policy", policy(decision.policy()));
        }
        if (shadow) {
            line.put("shadow", true);
        }
        return CanonicalJson.write(line);
    }

    /** The run line of a run that followed the agent's request {@code after}. */
    public static String run(JsonNode after, RunRecord run) {
        ObjectNode line = JSON.objectNode();
        line.set("after", after.deepCopy());
        ObjectNode r = line.putObject("run");
        r.put("call", run.call());
        r.put("failed", run.failed());
        r.put("max_lookups", run.maxLookups());
        ArrayNode sites = r.putArray("sites");
        for (RunRecord.Visit v : run.visits()) {
            ArrayNode site = sites.addArray();
            site.add(v.address());
            switch (v) {
                case RunRecord.Decide d -> site.add(d.value());
                case RunRecord.Outcome o -> site.add(o.ok());
            }
            site.add(v.logp());
        }
        r.put("surprise", run.surprise());
        return CanonicalJson.write(line);
    }

    private static ObjectNode policy(Policy p) {
        ObjectNode o = JSON.objectNode();
        o.put("decider", p.decider());
        o.put("epsilon", p.epsilon());
        o.put("events", p.events());
        o.put("explored", p.explored());
        o.set("greedy", p.greedy() == null ? JSON.nullNode() : JSON.textNode(p.greedy()));
        ArrayNode options = o.putArray("options");
        for (Policy.Option opt : p.options()) {
            ObjectNode each = options.addObject();
            each.set("arguments", opt.arguments() == null ? JSON.nullNode() : opt.arguments());
            each.set("binding", number(opt.binding()));
            each.put("habit", opt.habit());
            each.put("p", opt.p());
            each.put("tool", opt.tool());
            if (opt.unbound() != null) {
                each.put("unbound", opt.unbound());
            }
        }
        o.put("propensity", p.propensity());
        o.put("task_id", p.taskId());
        o.put("threshold", p.threshold());
        return o;
    }

    private static JsonNode number(Double d) {
        return d == null ? JSON.nullNode() : JSON.numberNode(d);
    }

    private static ObjectNode numbers(Map<String, Double> map) {
        ObjectNode o = JSON.objectNode();
        map.forEach(o::put);
        return o;
    }
}
