package dev.stretto.proxy.http;

import java.util.LinkedHashSet;
import java.util.SequencedSet;

/**
 * Where one logical event stream stands across its connections: the last event id seen (sent
 * as {@code Last-Event-ID} when it is reopened) and the server's last {@code retry:} hint.
 * Owned by the one thread that reads the stream.
 */
final class StreamCursor {

    /** Enough to recognise a replay of what a dropped connection already delivered. */
    private static final int REMEMBERED_IDS = 1024;

    private String lastEventId;
    private long retryMillis = -1;
    private final SequencedSet<String> seen = new LinkedHashSet<>();

    /**
     * True the first time this stream delivers an event with this id. Event ids are compared
     * within one logical stream only: a server that numbers each stream from 1 loses nothing,
     * while a resumed connection that replays what the dropped one delivered is not forwarded
     * twice.
     */
    boolean firstSighting(String id) {
        if (!seen.add(id)) {
            return false;
        }
        if (seen.size() > REMEMBERED_IDS) {
            seen.removeFirst();
        }
        return true;
    }

    String lastEventId() {
        return lastEventId;
    }

    long retryMillis() {
        return retryMillis;
    }

    void update(SseParser parser) {
        if (parser.lastEventId() != null) {
            lastEventId = parser.lastEventId();
        }
        if (parser.retryMillis() >= 0) {
            retryMillis = parser.retryMillis();
        }
    }
}
