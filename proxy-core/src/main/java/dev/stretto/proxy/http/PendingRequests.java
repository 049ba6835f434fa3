package dev.stretto.proxy.http;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * The host's requests still waiting for their answer, by id (as JSON text). Whoever claims a
 * request first answers it: the server's response on any stream, or the proxy's own error.
 * So a response replayed on a resumed or standalone stream is never forwarded twice, and an
 * error is never sent after the real answer.
 */
final class PendingRequests {

    /** One request awaiting its answer; {@code answered} completes when it is claimed. */
    record Pending(String id, String method, CompletableFuture<Void> answered) {

        boolean isInitialize() {
            return "initialize".equals(method);
        }
    }

    private final ConcurrentMap<String, Pending> byId = new ConcurrentHashMap<>();

    /**
     * Registers a request. A host that reuses an id still in flight replaces the earlier entry:
     * the first answer with that id then goes to the host once, as on stdio.
     */
    Pending add(String id, String method) {
        Pending p = new Pending(id, method, new CompletableFuture<>());
        byId.put(id, p);
        return p;
    }

    boolean contains(String id) {
        return byId.containsKey(id);
    }

    /** Claims whatever request waits under {@code id}; null when none does. */
    Pending claim(String id) {
        Pending p = id == null ? null : byId.remove(id);
        if (p != null) {
            p.answered().complete(null);
        }
        return p;
    }

    /** Claims this very request; false when it was answered (or replaced) already. */
    boolean claim(Pending p) {
        if (byId.remove(p.id(), p)) {
            p.answered().complete(null);
            return true;
        }
        return false;
    }

    boolean isPending(Pending p) {
        return byId.get(p.id()) == p;
    }

    /** Peeks at the request waiting under {@code id}, without claiming it. */
    Pending get(String id) {
        return id == null ? null : byId.get(id);
    }

    List<Pending> snapshot() {
        return List.copyOf(byId.values());
    }
}
