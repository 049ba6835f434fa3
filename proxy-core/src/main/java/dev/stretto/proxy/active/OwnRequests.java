package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Consumer;

/**
 * The proxy's own requests to the server, ids {@code stretto-<n>} counted once per session
 * (the commit tool's calls and, later, a flow's lookups share the counter), and what waits for
 * each answer. An answer that comes after its wait ended is not for anyone. Actor thread only.
 */
final class OwnRequests {

    /** How a request of the proxy ended. */
    sealed interface Outcome {
    }

    /**
     * The server answered.
     *
     * @param id       the request's id ({@code stretto-<n>})
     * @param response the whole response (null when it is not JSON)
     * @param answer   its text and whether the call failed
     */
    record Answered(String id, JsonNode response, ProxyLines.Answer answer) implements Outcome {
    }

    /**
     * No answer came within the limit; one that comes later is dropped. The requester says so
     * on stderr, in its own words.
     *
     * @param id    the request's id
     * @param limit how long the proxy waited
     */
    record TimedOut(String id, Duration limit) implements Outcome {
    }

    /** No answer will come: the server is gone (or its input is closed). */
    record ServerGone() implements Outcome {
    }

    /** One request waiting for its answer. */
    record Waiting(String id, String tool, long deadlineNanos, Consumer<Outcome> then) {
    }

    private static final String PREFIX = "stretto-";

    private long issued;
    private final Map<String, Waiting> waiting = new LinkedHashMap<>();

    /** The id of the next request: {@code stretto-1}, {@code stretto-2}, ... */
    String nextId() {
        return PREFIX + (++issued);
    }

    /** Waits for the answer to {@code id} until {@code deadlineNanos}; {@code then} gets the outcome. */
    void await(String id, String tool, long deadlineNanos, Consumer<Outcome> then) {
        waiting.put(IdKey.ofString(id), new Waiting(id, tool, deadlineNanos, then));
    }

    /** Whether {@code key} is the id of a request this session's proxy sent. */
    boolean isOwn(String key) {
        if (key == null || !key.startsWith("\"" + PREFIX) || !key.endsWith("\"")) {
            return false;
        }
        String n = key.substring(PREFIX.length() + 1, key.length() - 1);
        if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(Character::isDigit) || n.startsWith("0")) {
            return false;
        }
        return Long.parseLong(n) <= issued;
    }

    /** Ends the wait for {@code key}: the one waiting, or null when none is (any more). */
    Waiting claim(String key) {
        return waiting.remove(key);
    }

    /** Ends and returns the waits whose deadline is at or before {@code nowNanos}. */
    List<Waiting> expired(long nowNanos) {
        List<Waiting> out = new ArrayList<>();
        for (Iterator<Waiting> it = waiting.values().iterator(); it.hasNext(); ) {
            Waiting w = it.next();
            if (w.deadlineNanos() - nowNanos <= 0) {
                it.remove();
                out.add(w);
            }
        }
        return out;
    }

    /** Ends and returns every wait. */
    List<Waiting> all() {
        List<Waiting> out = new ArrayList<>(waiting.values());
        waiting.clear();
        return out;
    }

    /** Whether no request waits for its answer. */
    boolean isEmpty() {
        return waiting.isEmpty();
    }
}
