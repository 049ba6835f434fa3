package dev.stretto.proxy.listen;

import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A listener's sessions: by {@code Mcp-Session-Id} those a host may still use, and every
 * session whose server still runs, counted against the listener's limit. A session leaves the
 * first when it is ended (a DELETE, its idle time, its own end), the second when it is over.
 */
final class SessionTable {
    private final int max;
    private final AtomicInteger running = new AtomicInteger();
    private final ConcurrentHashMap<String, LiveSession> byId = new ConcurrentHashMap<>();
    private final Set<LiveSession> all = ConcurrentHashMap.newKeySet();
    private volatile boolean stopping;

    SessionTable(int max) {
        this.max = max;
    }

    int max() {
        return max;
    }

    /** Takes a place for a new session; false when {@code max} sessions run already, or the listener stops. */
    boolean reserve() {
        while (true) {
            int now = running.get();
            if (now >= max || stopping) {
                return false;
            }
            if (running.compareAndSet(now, now + 1)) {
                return true;
            }
        }
    }

    /** Gives back the place of a session that did not start. */
    void unreserve() {
        running.decrementAndGet();
    }

    /** The session has started: hosts may use it. */
    void add(LiveSession session) {
        all.add(session);
        byId.put(session.info.mcpSessionId(), session);
    }

    /** The session of this id that hosts may use, or null. */
    LiveSession get(String mcpSessionId) {
        return byId.get(mcpSessionId);
    }

    /** Takes the session of this id from hosts (it is being ended); null when there is none. */
    LiveSession remove(String mcpSessionId) {
        return byId.remove(mcpSessionId);
    }

    /** The session is over: its place is free. */
    void over(LiveSession session) {
        byId.remove(session.info.mcpSessionId(), session);
        if (all.remove(session)) {
            running.decrementAndGet();
        }
    }

    /** Every session whose server still runs. */
    List<LiveSession> running() {
        return new ArrayList<>(all);
    }

    /** Every session hosts may still use. */
    List<LiveSession> usable() {
        return new ArrayList<>(byId.values());
    }

    /** No new session from now on. */
    void stopping() {
        stopping = true;
    }

    boolean isStopping() {
        return stopping;
    }
}
