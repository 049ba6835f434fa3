package dev.stretto.demo;

import java.time.Duration;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/** The live sessions of one HTTP server, by id. Safe for any number of threads. */
final class HttpSessions {

    /**
     * One session: the version its {@code initialize} agreed, its own handler (a world with a
     * database gives it its own copy), and a latch that opens when it ends (which releases its
     * GET streams).
     */
    record Session(String id, String protocolVersion, McpHandler handler, CountDownLatch ended) {

        /** Waits until the session ends or {@code limit} passes; true if it ended. */
        boolean awaitEnd(Duration limit) throws InterruptedException {
            return ended.await(limit.toNanos(), TimeUnit.NANOSECONDS);
        }
    }

    private final AtomicLong counter = new AtomicLong();
    private final Map<String, Session> live = new ConcurrentHashMap<>();

    /** Starts a session with the next id, {@code demo-session-<n>} counting from 1. */
    Session open(String protocolVersion, McpHandler handler) {
        Session session = new Session("demo-session-" + counter.incrementAndGet(), protocolVersion, handler,
                new CountDownLatch(1));
        live.put(session.id(), session);
        return session;
    }

    Optional<Session> find(String id) {
        return Optional.ofNullable(live.get(id));
    }

    /** Ends a session; false if no such session was live. */
    boolean end(String id) {
        Session session = live.remove(id);
        if (session == null) {
            return false;
        }
        session.ended().countDown();
        return true;
    }

    void endAll() {
        live.keySet().forEach(this::end);
    }
}
