package dev.stretto.proxy.http;

/**
 * One dispatched server-sent event.
 *
 * @param id   the {@code id:} this event itself set, or null (the stream's persistent last
 *             event id, which resumption needs, is {@link SseParser#lastEventId()})
 * @param type the {@code event:} field, {@code "message"} when absent
 * @param data the {@code data:} lines joined with {@code '\n'}; empty for a priming event
 */
record SseEvent(String id, String type, String data) {

    /** A priming event only moves the resume cursor; it carries no message. */
    boolean isEmpty() {
        return data.isEmpty();
    }
}
