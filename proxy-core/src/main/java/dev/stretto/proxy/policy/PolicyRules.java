package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.PolicyAction;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/**
 * A policy as a session applies it: read and checked by {@link PolicyReader}.
 *
 * @param source         the file (or name) it came from, as messages name it
 * @param document       the policy as a JSON document (a YAML file's too)
 * @param rules          the rules, in the file's order
 * @param budgets        the budgets, in the file's order
 * @param pinning        what a changed tool gets
 * @param serverRequests what each kind of the server's own requests gets (allow or deny), by
 *                       method; a method not named is allowed
 * @param askTimeout     how long a call an {@code ask} holds waits for a person
 */
public record PolicyRules(String source, JsonNode document, List<Rule> rules, List<Budget> budgets, Pinning pinning,
                          Map<String, PolicyAction> serverRequests, Duration askTimeout) {

    /** The server's requests a policy may deny. */
    public static final List<String> SERVER_REQUESTS = List.of("sampling/createMessage", "elicitation/create",
            "roots/list");

    /** How long an ask waits when the policy does not say. */
    public static final Duration ASK_TIMEOUT = Duration.ofSeconds(60);

    public PolicyRules {
        rules = List.copyOf(rules);
        budgets = List.copyOf(budgets);
        serverRequests = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(serverRequests));
    }

    /** Whether some rule or budget may hold a call for a person's approval. */
    public boolean asks() {
        return rules.stream().anyMatch(r -> r.action() == PolicyAction.ASK)
                || budgets.stream().anyMatch(b -> b.action() == PolicyAction.ASK);
    }

    /** What the server's request {@code method} gets. */
    public PolicyAction serverRequest(String method) {
        return serverRequests.getOrDefault(method, PolicyAction.ALLOW);
    }
}
