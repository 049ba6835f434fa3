package dev.stretto.proxy.http;

import dev.stretto.proxy.http.PendingRequests.Pending;
import dev.stretto.proxy.upstream.ServerLineSink;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.SequencedSet;
import java.util.function.BooleanSupplier;
import java.util.function.Consumer;
import dev.stretto.proxy.logging.Logger;

/**
 * Where every message from the server goes on its way to the host, whichever stream carried
 * it. Requests and notifications are forwarded as they come; a response is forwarded only if
 * its request is still pending, which drops the duplicates that resumed and replayed streams
 * bring. An event whose id was delivered before, on any stream of the session, is not
 * forwarded again: event ids are unique across a session's streams (the transport demands
 * it), and some servers replay other streams' events on a resumed one. The initialize
 * result's protocol version is recorded before the result reaches the host, so the host's
 * next message already carries it. Called from any exchange thread.
 */
final class ServerMessages {

    /** Enough to recognise a replay of what a dropped connection, or another stream, delivered. */
    private static final int REMEMBERED_IDS = 8192;

    /** How a stream read ended: the events it carried (priming ones included), and why. */
    record StreamEnd(int events, IOException broken) {
    }

    private final ServerLineSink sink;
    private final PendingRequests pending;
    private final SessionState state;
    private final Consumer<String> warn;
    private final BooleanSupplier silenced;
    // Guarded by itself.
    private final SequencedSet<String> deliveredIds = new LinkedHashSet<>();

    /** @param silenced true once the upstream was aborted: from then on nothing reaches the host */
    ServerMessages(ServerLineSink sink, PendingRequests pending, SessionState state, Consumer<String> warn,
            BooleanSupplier silenced) {
        this.silenced = silenced;
        this.sink = sink;
        this.pending = pending;
        this.state = state;
        this.warn = warn;
    }

    /**
     * Handles one JSON-RPC message from the server.
     *
     * @param message the message as the server sent it (multi-line JSON is put on one line, and
     *                a leading UTF-8 byte order mark, which JSON parsers on the host's side
     *                reject, is dropped)
     * @param where   where it came from, for warnings ("the answer to request 3")
     * @return false when it was not one JSON-RPC message and was dropped
     */
    boolean accept(byte[] message, String where) {
        if (silenced.getAsBoolean()) {
            return true;
        }
        byte[] json = withoutByteOrderMark(message);
        JsonRpcPeek peek = JsonRpcPeek.of(json);
        switch (peek.kind()) {
            case BLANK, NOT_JSON, NOT_OBJECT -> {
                warn.accept("the server sent something that is not a JSON-RPC message in " + where
                        + "; it was not passed on");
                return false;
            }
            case RESPONSE -> {
                Pending waiting = pending.get(peek.id());
                if (waiting != null && waiting.isInitialize() && peek.protocolVersion() != null) {
                    if (SessionState.isValidHeaderValue(peek.protocolVersion())) {
                        state.protocolVersion(peek.protocolVersion());
                    } else {
                        // A header the HTTP client refuses to build would fail every later request.
                        state.protocolVersion(null);
                        warn.accept("the server's initialize result names a protocol version that cannot be sent"
                                + " as a header (only visible ASCII is allowed); later requests go without"
                                + " " + McpHttp.PROTOCOL_VERSION);
                    }
                }
                if (pending.claim(peek.id()) == null) {
                    Logger.debug("dropped a response with id {} from {}: it was answered already or never asked",
                            peek.id(), where);
                    return true;
                }
                sink.line(JsonCompactor.oneLine(json), true);
                return true;
            }
            default -> {
                sink.line(JsonCompactor.oneLine(json), true);
                return true;
            }
        }
    }

    private static byte[] withoutByteOrderMark(byte[] json) {
        if (json.length >= 3 && (json[0] & 0xFF) == 0xEF && (json[1] & 0xFF) == 0xBB && (json[2] & 0xFF) == 0xBF) {
            return Arrays.copyOfRange(json, 3, json.length);
        }
        return json;
    }

    /** True the first time an event with this id comes, on whichever stream. */
    private boolean firstSighting(String id) {
        synchronized (deliveredIds) {
            if (!deliveredIds.add(id)) {
                return false;
            }
            if (deliveredIds.size() > REMEMBERED_IDS) {
                deliveredIds.removeFirst();
            }
            return true;
        }
    }

    /** Answers {@code request} with the proxy's own error, unless it was answered already. */
    void fail(Pending request, String message) {
        if (!silenced.getAsBoolean() && pending.claim(request)) {
            sink.proxyLine(ErrorLines.error(request.id(), ErrorLines.UPSTREAM_FAILED, message), true);
        }
    }

    /** Writes one of the proxy's error lines to the host, for a request that was never pending. */
    void answer(String id, int code, String message) {
        if (silenced.getAsBoolean()) {
            return;
        }
        sink.proxyLine(ErrorLines.error(id, code, message), true);
    }

    /**
     * Reads one event-stream body to its end, forwarding each event's message in order.
     * Priming events (empty data) only move the cursor; events of a type other than
     * {@code message} are skipped.
     *
     * @param strict true to report a torn last event (a POST's stream must end cleanly)
     */
    StreamEnd read(InputStream body, StreamCursor cursor, String where, boolean strict) {
        int events = 0;
        try (InputStream in = body) {
            SseParser parser = new SseParser(in);
            SseEvent event;
            while ((event = parser.next()) != null) {
                events++;
                cursor.update(parser);
                if (event.isEmpty()) {
                    continue;
                }
                if (event.id() != null && !firstSighting(event.id())) {
                    Logger.debug("skipped event {} in {}: it was delivered before", event.id(), where);
                    continue;
                }
                if (!event.type().equals("message")) {
                    Logger.debug("skipped an event of type {} in {}", event.type(), where);
                    continue;
                }
                accept(event.data().getBytes(StandardCharsets.UTF_8), where);
            }
            cursor.update(parser);
            if (strict && parser.endedMidEvent()) {
                warn.accept("the server's event stream for " + where
                        + " ended in the middle of an event; that event was dropped");
            }
            return new StreamEnd(events, null);
        } catch (IOException broken) {
            return new StreamEnd(events, broken);
        }
    }
}
