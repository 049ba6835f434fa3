package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.wire.LookupAnswer;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.Predicate;

/**
 * The proxy's own requests to the server, ids {@code stretto-<n>} counted once per session
 * (the commit tool's calls and a flow's lookups share the counter), and what waits for each
 * answer. An id is the proxy's from when it is sent until its answer comes, even after its wait
 * timed out (a late answer is for nobody); an id the host has in flight for a request of its
 * own is skipped. Actor thread only.
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
    record Answered(String id, JsonNode response, LookupAnswer answer) implements Outcome {
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

    /** Whether a line of the host's uses an id of the proxy's still taken. */
    sealed interface Clash {

        /** It does not. */
        record None() implements Clash {
        }

        /**
         * It uses the id of a request that waits for its answer.
         *
         * @param key that request's id key
         */
        record Open(String key) implements Clash {
        }

        /**
         * It uses the id of a request that timed out, whose answer may still come.
         *
         * @param id the id
         */
        record Late(String id) implements Clash {
        }
    }

    /** One request waiting for its answer. */
    record Waiting(String id, String tool, long deadlineNanos, Consumer<Outcome> then) {
    }

    private static final String PREFIX = "stretto-";

    private long issued;
    private final Map<String, Waiting> waiting = new LinkedHashMap<>();
    /** Requests that timed out and whose answer may still come: their ids stay taken until it does. */
    private final Set<String> late = new HashSet<>();

    /**
     * The id of the next request: {@code stretto-1}, {@code stretto-2}, ..., skipping any whose
     * key {@code taken} says the host has in flight.
     */
    String nextId(Predicate<String> taken) {
        String id;
        do {
            id = PREFIX + (++issued);
        } while (taken.test(IdKey.ofString(id)));
        return id;
    }

    /** Waits for the answer to {@code id} until {@code deadlineNanos}; {@code then} gets the outcome. */
    void await(String id, String tool, long deadlineNanos, Consumer<Outcome> then) {
        waiting.put(IdKey.ofString(id), new Waiting(id, tool, deadlineNanos, then));
    }

    /** Whether a request with id key {@code key} waits for its answer. */
    boolean isWaiting(String key) {
        return waiting.containsKey(key);
    }

    /** Whether {@code key} is the id of a request that timed out and whose answer may still come. */
    boolean isLate(String key) {
        return late.contains(key);
    }

    /** Whether some id is taken: a request waits, or a late answer may still come. */
    boolean anyTaken() {
        return !waiting.isEmpty() || !late.isEmpty();
    }

    /**
     * Whether {@code line} (of well-formed JSON) uses an id still taken: any string that a
     * server could take for the id of one of its messages (every duplicate, every spelling of
     * the key, each message of a batch), found only when the line mentions {@code stretto-}.
     */
    Clash clash(byte[] line) {
        if (!anyTaken() || !AnySpelling.mentions(line, PREFIX)) {
            return new Clash.None();
        }
        List<KeyScan.Message> scan;
        try {
            scan = KeyScan.of(line);
        } catch (java.io.IOException e) {
            return new Clash.None();
        }
        Clash found = new Clash.None();
        for (KeyScan.Message m : scan) {
            for (String id : m.stringIds()) {
                String key = IdKey.ofString(id);
                if (waiting.containsKey(key)) {
                    return new Clash.Open(key);
                }
                if (late.contains(key)) {
                    found = new Clash.Late(id);
                }
            }
        }
        return found;
    }

    /**
     * Whether {@code key} is the id of a request this session's proxy sent, whatever became of
     * it: a second answer to one is nobody's.
     */
    boolean wasIssued(String key) {
        if (key == null || !key.startsWith("\"" + PREFIX) || !key.endsWith("\"")) {
            return false;
        }
        String n = key.substring(PREFIX.length() + 1, key.length() - 1);
        if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(Character::isDigit) || n.startsWith("0")) {
            return false;
        }
        return Long.parseLong(n) <= issued;
    }

    /**
     * Ends the wait for {@code key}: the one waiting, or null when none is (any more); a late
     * answer frees its id.
     */
    Waiting claim(String key) {
        Waiting w = waiting.remove(key);
        if (w == null) {
            late.remove(key);
        }
        return w;
    }

    /** Ends and returns the waits whose deadline is at or before {@code nowNanos}; their ids stay taken. */
    List<Waiting> expired(long nowNanos) {
        List<Waiting> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, Waiting>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Waiting> e = it.next();
            if (e.getValue().deadlineNanos() - nowNanos <= 0) {
                it.remove();
                late.add(e.getKey());
                out.add(e.getValue());
            }
        }
        return out;
    }

    /** Ends and returns every wait: the server is gone, and no answer will come. */
    List<Waiting> all() {
        List<Waiting> out = new ArrayList<>(waiting.values());
        waiting.clear();
        late.clear();
        return out;
    }

    /** Whether no request waits for its answer. */
    boolean isEmpty() {
        return waiting.isEmpty();
    }
}
