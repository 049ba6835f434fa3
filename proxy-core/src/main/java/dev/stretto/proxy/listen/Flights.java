package dev.stretto.proxy.listen;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The host's requests of one session that wait for their answer, in the order they came: by
 * the id as servers tell ids apart, and by progress token. Not thread-safe: the {@link Outbox}
 * uses it under its lock.
 */
final class Flights {

    /**
     * One request waiting.
     *
     * @param key        its id as servers tell ids apart
     * @param id         its id as JSON text, for an error answer
     * @param stream     the response its answer goes to
     * @param progress   the key of its progress token, or null
     * @param initialize whether it is the session's initialize (its answer names the revision)
     */
    record Flight(String key, String id, Outbox.Stream stream, String progress, boolean initialize) {
    }

    private final LinkedHashMap<String, Flight> byKey = new LinkedHashMap<>();
    private final Map<String, Flight> byProgress = new HashMap<>();

    boolean holds(String key) {
        return byKey.containsKey(key);
    }

    boolean isEmpty() {
        return byKey.isEmpty();
    }

    void add(Flight f) {
        byKey.put(f.key(), f);
        if (f.progress() != null) {
            byProgress.put(f.progress(), f);
        }
    }

    /** Takes the request of {@code key} out (its answer came, or it was cancelled); null when none waits. */
    Flight remove(String key) {
        Flight f = byKey.remove(key);
        if (f != null && f.progress() != null && byProgress.get(f.progress()) == f) {
            byProgress.remove(f.progress());
        }
        return f;
    }

    /** The request whose progress token has this key, or null. */
    Flight forProgress(String key) {
        return key == null ? null : byProgress.get(key);
    }

    /** The response of the latest request waiting on an event stream, or null when none does. */
    Outbox.Stream latestOnEventStream() {
        for (Flight f : byKey.sequencedValues().reversed()) {
            if (f.stream().sse) {
                return f.stream();
            }
        }
        return null;
    }

    /** Takes every request out, in the order they came. */
    List<Flight> clear() {
        List<Flight> all = new ArrayList<>(byKey.values());
        byKey.clear();
        byProgress.clear();
        return all;
    }
}
