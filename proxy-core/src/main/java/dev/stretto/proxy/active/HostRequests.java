package dev.stretto.proxy.active;

import java.util.HashMap;
import java.util.Map;

/**
 * The host's requests in flight: sent on (or held for a check) and not yet answered, by their
 * {@linkplain IdKey#flight flight key}, and whether each is a {@code tools/call}. The proxy
 * picks ids for its own requests that none of these has, so the server never has two requests
 * with one id and each answer goes to whoever asked; with policy checks, a call whose id is in
 * flight, or a request with the id of a call in flight, is refused, since the server's answers
 * could not be told apart. A request the server never answers (one the host cancelled) stays;
 * MCP forbids using an id twice in a session anyway. Actor thread only.
 */
final class HostRequests {
    private final Map<String, Boolean> calls = new HashMap<>();

    /** The host sent a request with this flight key ({@code call}: a tools/call). */
    void sent(String key, boolean call) {
        calls.merge(key, call, Boolean::logicalOr);
    }

    /** The request with this flight key was answered (by the server or the proxy). */
    void answered(String key) {
        calls.remove(key);
    }

    /** Whether a request with this flight key is in flight. */
    boolean inFlight(String key) {
        return calls.containsKey(key);
    }

    /** Whether a tools/call with this flight key is in flight. */
    boolean callInFlight(String key) {
        return Boolean.TRUE.equals(calls.get(key));
    }
}
