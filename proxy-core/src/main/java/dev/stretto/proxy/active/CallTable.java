package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.stretto.trace.episode.ToolCall;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the actor waits to see answered, by id. Actor thread only.
 *
 * <ul>
 * <li>Calls awaiting their first answer, by {@linkplain IdKey id key}: the agent's and the
 * proxy's own. That answer belongs to the session's episode, as it does when the log is
 * read.</li>
 * <li>The host's {@code tools/list} and (with {@code --commit}) {@code initialize} requests,
 * whose answers the proxy reads, and with {@code --commit} writes anew.</li>
 * <li>The host's requests in flight: sent on (or held for a check) and not yet answered, by
 * their {@linkplain IdKey#flight flight key}, and whether each is a {@code tools/call}. The
 * proxy picks ids for its own requests that none of these has, so the server never has two
 * requests with one id and each answer goes to whoever asked; with policy checks, a call whose
 * id is in flight, or a request with the id of a call in flight, is refused ({@link #SAME_ID}),
 * since the server's answers could not be told apart. A request the server never answers (one
 * the host cancelled) stays; MCP forbids using an id twice in a session anyway.</li>
 * </ul>
 */
final class CallTable {

    /** Why a request whose id the host has in flight already is refused, with policy checks. */
    static final CallReader.Refusal SAME_ID = new CallReader.Refusal(CallReader.INVALID_REQUEST, "its id is the id of"
            + " another request of the host's still in flight, so the server's answers could not be told apart",
            NullNode.instance);

    private final Map<String, ToolCall> awaitingAnswer = new HashMap<>();
    private final Set<String> listings = new HashSet<>();
    private final Set<String> initializes = new HashSet<>();
    private final Map<String, Boolean> inFlight = new HashMap<>();

    /** A message with a method and an id: a request, whose answer the host waits for. */
    static boolean isRequest(JsonNode m) {
        JsonNode id = m.get("id");
        return m.isObject() && m.path("method").isTextual() && id != null && !id.isNull();
    }

    // ---- calls awaiting their first answer

    /** {@code call}'s first answer, when it comes with id key {@code key}, joins the episode. */
    void track(String key, ToolCall call) {
        awaitingAnswer.put(key, call);
    }

    /** The tools/call requests in a logged message (one, or a batch): their answers join the episode. */
    void trackCalls(JsonNode message) {
        for (JsonNode m : message.isArray() ? message : List.of(message)) {
            ToolCall.ofRequest(m).ifPresent(c -> awaitingAnswer.put(IdKey.of(m.get("id")), c));
        }
    }

    /** The call whose first answer this is (no longer awaited), or null. */
    ToolCall claim(String key) {
        return awaitingAnswer.remove(key);
    }

    // ---- listings and initializes

    /** The answer to the host's {@code tools/list} with id key {@code key} is read when it comes. */
    void expectListing(String key) {
        listings.add(key);
    }

    /** Whether this is the answer to a {@code tools/list} of the host's (expected no longer). */
    boolean claimListing(String key) {
        return listings.remove(key);
    }

    /** The answer to the host's {@code initialize} with id key {@code key} is written anew when it comes. */
    void expectInitialize(String key) {
        initializes.add(key);
    }

    /** Whether this is the answer to an {@code initialize} of the host's (expected no longer). */
    boolean claimInitialize(String key) {
        return initializes.remove(key);
    }

    // ---- the host's requests in flight

    /** The host sent a request with this flight key ({@code call}: a tools/call). */
    void sent(String flight, boolean call) {
        inFlight.merge(flight, call, Boolean::logicalOr);
    }

    /** The host sent this batch on: its requests are in flight, and its calls' answers join the episode. */
    void sentBatch(JsonNode batch) {
        trackCalls(batch);
        for (JsonNode m : batch) {
            if (isRequest(m)) {
                sent(IdKey.flight(m.get("id")), "tools/call".equals(m.get("method").textValue()));
            }
        }
    }

    /** The request with this flight key was answered (by the server or the proxy). */
    void answered(String flight) {
        inFlight.remove(flight);
    }

    /** The server answered with this batch: the requests its responses answer are answered. */
    void answeredBatch(JsonNode batch) {
        for (JsonNode m : batch) {
            if (m.get("id") != null && (m.has("result") || m.has("error"))) {
                awaitingAnswer.remove(IdKey.of(m.get("id")));
                answered(IdKey.flight(m.get("id")));
            }
        }
    }

    /**
     * The proxy answers the host with {@code message} (one answer, or a batch of them): what it
     * answers is answered.
     *
     * @return whether it answers a call awaiting its answer (the answer then joins the episode)
     */
    boolean answeredByProxy(JsonNode message) {
        boolean answersACall = false;
        for (JsonNode m : message.isArray() ? message : List.of(message)) {
            JsonNode id = m.get("id");
            if (id != null) {
                answered(IdKey.flight(id));
                answersACall |= awaitingAnswer.remove(IdKey.of(id)) != null;
            }
        }
        return answersACall;
    }

    /** Whether a request with this flight key is in flight. */
    boolean inFlight(String flight) {
        return inFlight.containsKey(flight);
    }

    /** Whether a tools/call with this flight key is in flight. */
    boolean callInFlight(String flight) {
        return Boolean.TRUE.equals(inFlight.get(flight));
    }
}
