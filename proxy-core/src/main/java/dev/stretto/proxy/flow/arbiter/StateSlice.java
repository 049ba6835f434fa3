package dev.stretto.proxy.flow.arbiter;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The state of a next-step request: the slice of the conversation the System-One model reads
 * (formats 4.5). Keys, sorted on the wire as every object in a request's state:
 * <ul>
 *   <li>{@code customer_request}: the first user message, clipped to 1000 characters, or null;</li>
 *   <li>{@code later_customer_messages}: the last 4 other user messages, each clipped to 600;
 *       only when there are any;</li>
 *   <li>{@code agent_last_message}: the agent's last text that is not empty or white space,
 *       clipped to 600; only when there is one;</li>
 *   <li>{@code earlier_lookups}: for the calls before the last 4, the latest 16 as lines
 *       {@code <tool>(<arguments JSON clipped to 160>) → ok|error}; only when there are any;</li>
 *   <li>{@code latest_results}: the last 4 calls, each {@code tool_call}, {@code arguments},
 *       {@code result} (clipped to 1500) and {@code error: true} when it failed; a call
 *       without a result shows {@code (no result recorded)} as an error.</li>
 * </ul>
 * Calls are every call of the episode in order, the proxy's own lookups included; clipping is
 * {@link Clip}'s.
 */
public final class StateSlice {

    static final int REQUEST_CHARS = 1000;
    static final int MESSAGE_CHARS = 600;
    static final int LATER_MESSAGES = 4;
    static final int LATEST_CALLS = 4;
    static final int EARLIER_LINES = 16;
    static final int ARGUMENT_CHARS = 160;
    static final int RESULT_CHARS = 1500;
    static final String NO_RESULT = "(no result recorded)";

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private StateSlice() {
    }

    /** The state for a decision on {@code episode} (the episode cut at the decision's call). */
    public static ObjectNode of(Episode episode) {
        List<String> customer = new ArrayList<>();
        String agentLast = null;
        List<ToolCall> calls = new ArrayList<>();
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : episode.events()) {
            switch (e) {
                case Event.User u -> customer.add(u.text());
                case Event.Assistant a -> {
                    if (a.text() != null && !Clip.trim(a.text()).isEmpty()) {
                        agentLast = a.text();
                    }
                    calls.addAll(a.calls());
                }
                case Event.ToolResult r -> results.putIfAbsent(r.callId(), r);
            }
        }
        ObjectNode state = JSON.objectNode();
        state.set("customer_request", customer.isEmpty() ? JSON.nullNode()
                : JSON.textNode(Clip.clip(customer.getFirst(), REQUEST_CHARS)));
        if (customer.size() > 1) {
            ArrayNode later = state.putArray("later_customer_messages");
            for (String m : customer.subList(Math.max(1, customer.size() - LATER_MESSAGES), customer.size())) {
                later.add(Clip.clip(m, MESSAGE_CHARS));
            }
        }
        if (agentLast != null) {
            state.put("agent_last_message", Clip.clip(agentLast, MESSAGE_CHARS));
        }
        int latestFrom = Math.max(0, calls.size() - LATEST_CALLS);
        if (latestFrom > 0) {
            ArrayNode earlier = state.putArray("earlier_lookups");
            for (ToolCall c : calls.subList(Math.max(0, latestFrom - EARLIER_LINES), latestFrom)) {
                Event.ToolResult r = results.get(c.id());
                earlier.add(c.name() + "(" + Clip.clip(CanonicalJson.write(c.arguments()), ARGUMENT_CHARS) + ") \u2192 "
                        + (r != null && !r.error() ? "ok" : "error"));
            }
        }
        ArrayNode latest = state.putArray("latest_results");
        for (ToolCall c : calls.subList(latestFrom, calls.size())) {
            Event.ToolResult r = results.get(c.id());
            ObjectNode item = latest.addObject();
            item.put("tool_call", c.name());
            item.set("arguments", c.arguments());
            item.put("result", r == null ? NO_RESULT : Clip.clip(r.content(), RESULT_CHARS));
            if (r == null || r.error()) {
                item.put("error", true);
            }
        }
        return state;
    }

}
