package dev.stretto.proxy;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A plain HTTP client for listener tests: POSTs, GETs and DELETEs with the transport's headers,
 * and reads event streams event by event, so that tests see exactly what crossed.
 */
final class ListenClient implements AutoCloseable {
    static final String INITIALIZE = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{"
            + "\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"1\"}}}";

    /** One server-sent event: its id and data (null id when it had none). */
    record Event(String id, String data) {
    }

    private final URI endpoint;
    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    final Map<String, String> headers = new LinkedHashMap<>();
    String sessionId;

    ListenClient(URI endpoint) {
        this.endpoint = endpoint;
    }

    /** Initializes a session (SSE accepted) and keeps its id; returns the answer's events. */
    List<Event> initialize() throws Exception {
        HttpResponse<InputStream> r = post(INITIALIZE, "application/json, text/event-stream");
        if (r.statusCode() != 200) {
            throw new AssertionError("initialize: " + r.statusCode() + " " + new String(r.body().readAllBytes(),
                    StandardCharsets.UTF_8));
        }
        sessionId = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
        List<Event> events = events(r.body());
        HttpResponse<InputStream> initialized = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
                "application/json, text/event-stream");
        initialized.body().close();
        return events;
    }

    HttpResponse<InputStream> post(String body, String accept) throws Exception {
        return send(request().header("Content-Type", "application/json").header("Accept", accept)
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<InputStream> get(String lastEventId) throws Exception {
        HttpRequest.Builder b = request().header("Accept", "text/event-stream").GET();
        if (lastEventId != null) {
            b.header("Last-Event-ID", lastEventId);
        }
        return send(b);
    }

    HttpResponse<InputStream> delete() throws Exception {
        return send(request().DELETE());
    }

    HttpResponse<InputStream> send(HttpRequest.Builder b) throws Exception {
        return http.send(b.build(), HttpResponse.BodyHandlers.ofInputStream());
    }

    HttpRequest.Builder request() {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(30));
        headers.forEach(b::header);
        if (sessionId != null) {
            b.header("Mcp-Session-Id", sessionId);
        }
        return b;
    }

    static String text(HttpResponse<InputStream> r) throws IOException {
        return new String(r.body().readAllBytes(), StandardCharsets.UTF_8);
    }

    /** Every event of a stream, to its end. */
    static List<Event> events(InputStream body) throws IOException {
        List<Event> out = new ArrayList<>();
        try (EventReader reader = new EventReader(body)) {
            Event e;
            while ((e = reader.next()) != null) {
                out.add(e);
            }
        }
        return out;
    }

    /** Reads a stream event by event (comments skipped). */
    static final class EventReader implements AutoCloseable {
        private final BufferedReader in;

        EventReader(InputStream body) {
            this.in = new BufferedReader(new InputStreamReader(body, StandardCharsets.UTF_8));
        }

        Event next() throws IOException {
            String id = null;
            StringBuilder data = null;
            String line;
            while ((line = in.readLine()) != null) {
                if (line.isEmpty()) {
                    if (data != null) {
                        return new Event(id, data.toString());
                    }
                    continue;
                }
                if (line.startsWith(":")) {
                    continue;
                }
                int colon = line.indexOf(':');
                String field = colon < 0 ? line : line.substring(0, colon);
                String value = colon < 0 ? "" : line.substring(colon + 1).replaceFirst("^ ", "");
                if (field.equals("id")) {
                    id = value;
                } else if (field.equals("data")) {
                    data = data == null ? new StringBuilder(value) : data.append('\n').append(value);
                }
            }
            return null;
        }

        @Override
        public void close() throws IOException {
            in.close();
        }
    }

    @Override
    public void close() {
        http.shutdownNow();
    }
}
