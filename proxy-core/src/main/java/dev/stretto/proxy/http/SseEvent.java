package dev.stretto.proxy.http;

/**
 * One dispatched server-sent event.
 *
 * @param id   the stream's last event id when the event was dispatched, or null when none
 *             was set (ids persist across events, as the event-stream format says)
 * @param type the {@code event:} field, {@code "message"} when absent
 * @param data the {@code data:} lines joined with {@code '\n'}; empty for a priming event
 */
record SseEvent(String id, String type, String data) {

    /** A priming event only moves the resume cursor; it carries no message. */
    boolean isEmpty() {
        return data.isEmpty();
    }
}
