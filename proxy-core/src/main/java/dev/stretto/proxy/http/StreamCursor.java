package dev.stretto.proxy.http;

/**
 * Where one logical event stream stands across its connections: the last event id seen (sent
 * as {@code Last-Event-ID} when it is reopened) and the server's last {@code retry:} hint.
 * Owned by the one thread that reads the stream. (Which events were delivered already is
 * known session-wide, by {@link ServerMessages}.)
 */
final class StreamCursor {

    private String lastEventId;
    private long retryMillis = -1;

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
