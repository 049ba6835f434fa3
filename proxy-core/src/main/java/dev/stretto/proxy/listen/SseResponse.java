package dev.stretto.proxy.listen;

import com.sun.net.httpserver.HttpExchange;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/**
 * Writes one stream's events to one client as {@code text/event-stream}: {@code id:}, {@code
 * event: message} and one {@code data:} line per message (the message's bytes as the server
 * wrote them), each flushed at once, so the host sees progress before the answer. A comment
 * every {@link #KEEP_ALIVE} while nothing comes, so that a client that went away shows (the
 * write fails) and proxies in between keep the connection. Runs on the exchange's own virtual
 * thread until the stream ends, another connection takes it over, or the client goes.
 */
final class SseResponse {

    static final Duration KEEP_ALIVE = Duration.ofSeconds(15);

    private static final byte[] DATA = "\nevent: message\ndata: ".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] END = "\n\n".getBytes(StandardCharsets.US_ASCII);
    private static final byte[] COMMENT = ": keep-alive\n\n".getBytes(StandardCharsets.US_ASCII);

    private SseResponse() {
    }

    /**
     * Sends the headers, then the events of {@code attachment}'s stream until it ends.
     *
     * @param primeId the id of a priming event (an id and empty data, revision 2025-11-25) to
     *                send first, or null for none
     */
    static void write(HttpExchange exchange, Outbox outbox, Outbox.Attachment attachment, String primeId)
            throws IOException, InterruptedException {
        try {
            exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
            exchange.getResponseHeaders().set("Cache-Control", "no-cache, no-transform");
            exchange.getResponseHeaders().set("X-Accel-Buffering", "no");
            exchange.sendResponseHeaders(200, 0);
            OutputStream out = new BufferedOutputStream(exchange.getResponseBody(), 16 * 1024);
            if (primeId != null) {
                out.write(("id: " + primeId + "\ndata: \n\n").getBytes(StandardCharsets.US_ASCII));
                out.flush();
            }
            while (true) {
                Outbox.Next next = outbox.next(attachment, KEEP_ALIVE.toNanos());
                switch (next) {
                    case Outbox.Next.Send(Outbox.Event event) -> {
                        out.write(("id: " + event.id()).getBytes(StandardCharsets.US_ASCII));
                        out.write(DATA);
                        out.write(event.data);
                        out.write(END);
                        out.flush();
                        outbox.delivered(attachment, event);
                    }
                    case Outbox.Next.KeepAlive() -> {
                        out.write(COMMENT);
                        out.flush();
                    }
                    case Outbox.Next.End() -> {
                        out.close();
                        return;
                    }
                }
            }
        } finally {
            outbox.detach(attachment);
        }
    }
}
