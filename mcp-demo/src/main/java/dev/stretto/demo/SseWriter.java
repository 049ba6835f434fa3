package dev.stretto.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;

/**
 * Writes server-sent events, one JSON-RPC message each, in the shape MCP servers use:
 * {@code event: message}, one {@code data:} line, a blank line. Each event is flushed at
 * once, so the client sees a notification before the (possibly delayed) answer.
 */
final class SseWriter {
    private final OutputStream out;

    SseWriter(OutputStream out) {
        this.out = out;
    }

    /** Formats one event; the JSON is compact, so it fits on one {@code data:} line. */
    static String event(String json) {
        return "event: message\ndata: " + json + "\n\n";
    }

    void send(String json) throws IOException {
        out.write(event(json).getBytes(StandardCharsets.UTF_8));
        out.flush();
    }
}
