package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.proxy.PolicyAction;
import dev.stretto.proxy.PolicyVerdict;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A recorded session replayed through a policy, as the proxy would have applied it: each
 * {@code tools/list} answer taken in (hints, pins, hidden tools), each tool call decided
 * against the session as it stood (budgets spent by the calls before it that the policy lets
 * through, an {@code ask} counted as approved), each request of the server's judged. A call
 * gets a verdict when a rule or budget matched it; allows decided by no rule are only counted.
 */
public final class PolicyReplayer {

    private final PolicySession session;
    private final List<PolicyVerdict> verdicts = new ArrayList<>();
    private final Set<String> listings = new HashSet<>();
    private int calls;

    private PolicyReplayer(PolicyRules rules) {
        this.session = new PolicySession(rules);
    }

    /**
     * The replay of one session.
     *
     * @param verdicts what the policy would have done, in the log's order
     * @param calls    how many tool calls the log holds
     */
    public record Result(List<PolicyVerdict> verdicts, int calls) {
    }

    /** Replays {@code log} through {@code rules}. */
    public static Result replay(SessionLog log, PolicyRules rules) {
        PolicyReplayer r = new PolicyReplayer(rules);
        for (LogEntry e : log.entries()) {
            if (e.payload() instanceof Payload.Message m && PolicyVerdict.of(e).isEmpty()) {
                JsonNode tree = m.tree().orElse(null);
                if (tree != null && tree.isArray()) {
                    tree.forEach(el -> r.message(e.tMs(), e.from(), el));
                } else if (tree != null) {
                    r.message(e.tMs(), e.from(), tree);
                }
            }
        }
        return new Result(List.copyOf(r.verdicts), r.calls);
    }

    private void message(long t, Source from, JsonNode msg) {
        if (!msg.isObject()) {
            return;
        }
        JsonNode method = msg.get("method");
        JsonNode id = msg.get("id");
        boolean request = method != null && method.isTextual() && id != null && !id.isNull();
        boolean agentSide = from == Source.CLIENT || from == Source.PROXY;
        if (request && agentSide && method.textValue().equals("tools/list")) {
            listings.add(key(id));
        } else if (request && agentSide && method.textValue().equals("tools/call")) {
            call(t, msg, id);
        } else if (request && from == Source.SERVER) {
            if (session.serverRequest(method.textValue()) == PolicyAction.DENY) {
                verdicts.add(Verdicts.serverRequest(t, method.textValue(), ToolCall.idText(id)));
            }
        } else if (method == null && id != null && from == Source.SERVER && listings.remove(key(id))) {
            PolicySession.Listing l = session.listed(msg.path("result").get("tools"));
            for (PolicySession.Change c : l.changes()) {
                verdicts.add(Verdicts.changed(t, c, session.policy().pinning()));
            }
            for (PolicySession.Hidden h : l.hidden()) {
                verdicts.add(Verdicts.hidden(t, h));
            }
        }
    }

    private void call(long t, JsonNode msg, JsonNode id) {
        JsonNode params = msg.path("params");
        JsonNode name = params.get("name");
        if (name == null || !name.isTextual()) {
            return;
        }
        calls++;
        JsonNode args = params.get("arguments");
        if (args == null || !args.isObject()) {
            args = JsonNodeFactory.instance.objectNode();
        }
        Decision d = session.decide(name.textValue(), args, t);
        if (d.action() != PolicyAction.ALLOW || !d.matched().isEmpty()) {
            verdicts.add(Verdicts.call(t, name.textValue(), ToolCall.idText(id), args, d, null, null));
        }
        if (!d.action().refuses()) {
            session.sent(name.textValue(), d, t);
        }
    }

    private static String key(JsonNode id) {
        return id.isNumber() ? id.decimalValue().stripTrailingZeros().toPlainString() : "s" + id.asText();
    }
}
