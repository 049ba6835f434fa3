package dev.stretto.proxy.judge;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import java.util.Objects;

/**
 * The exchange a change is judged on: the customer's last message and the agent's last
 * non-empty text before it (its proposal). Both are empty when the conversation has not had
 * them yet; the model then hears that nothing was said.
 *
 * @param proposal what the agent said last before the customer's last message
 * @param customer the customer's last message
 */
public record Exchange(String proposal, String customer) {

    /** How much of the agent's message the model sees: its last 1500 characters. */
    public static final int PROPOSAL_CHARS = 1500;

    /** How much of the customer's reply the model sees: its first 600 characters. */
    public static final int CUSTOMER_CHARS = 600;

    /** @throws NullPointerException if either is null */
    public Exchange {
        Objects.requireNonNull(proposal, "proposal");
        Objects.requireNonNull(customer, "customer");
    }

    /** The exchange of an episode, walking it in order. */
    public static Exchange of(Episode episode) {
        String lastAgentText = "";
        String proposal = "";
        String customer = "";
        for (Event e : episode.events()) {
            switch (e) {
                case Event.Assistant a when a.text() != null && !a.text().isEmpty() -> lastAgentText = a.text();
                case Event.User u -> {
                    proposal = lastAgentText;
                    customer = u.text();
                }
                default -> {
                }
            }
        }
        return new Exchange(proposal, customer);
    }

    /**
     * The state the judge's questions are about: {@code agent_said_last} (the proposal's last
     * 1500 characters), {@code customer_replied} (the reply's first 600) and
     * {@code call_about_to_be_made} ({@code tool}, {@code arguments}). Characters are Unicode
     * code points, as the reference counts them.
     */
    public JsonNode state(String tool, JsonNode arguments) {
        ObjectNode state = JsonNodeFactory.instance.objectNode();
        state.put("agent_said_last", last(proposal, PROPOSAL_CHARS));
        state.put("customer_replied", first(customer, CUSTOMER_CHARS));
        ObjectNode call = state.putObject("call_about_to_be_made");
        call.put("tool", tool);
        call.set("arguments", arguments.deepCopy());
        return state;
    }

    static String first(String s, int codePoints) {
        if (s.codePointCount(0, s.length()) <= codePoints) {
            return s;
        }
        return s.substring(0, s.offsetByCodePoints(0, codePoints));
    }

    static String last(String s, int codePoints) {
        int n = s.codePointCount(0, s.length());
        if (n <= codePoints) {
            return s;
        }
        return s.substring(s.offsetByCodePoints(0, n - codePoints));
    }
}
