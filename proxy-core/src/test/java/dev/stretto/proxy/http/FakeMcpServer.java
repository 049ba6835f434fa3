package dev.stretto.proxy.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small Streamable HTTP MCP server on 127.0.0.1 for tests. Every request is recorded; each
 * test scripts the answers with a {@link Route}, falling back to {@link #standard}, which acts
 * like a plain SDK server: initialize answered in JSON with session {@code s-1} and version
 * 2025-11-25; notifications and responses 202; tools/call as an event stream (a log message,
 * then the result); other requests in JSON; GET 405; DELETE 200.
 */
final class FakeMcpServer implements AutoCloseable {

    static final ObjectMapper JSON = new ObjectMapper();

    /** One request the server received; header names lowercased. */
    record Seen(String method, Map<String, String> headers, String body) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        JsonNode json() {
            try {
                return JSON.readTree(body);
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        }

        String rpcMethod() {
            return json().path("method").asText(null);
        }
    }

    @FunctionalInterface
    interface Route {
        void handle(HttpExchange exchange, Seen seen) throws Exception;
    }

    final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    volatile Route route = FakeMcpServer::standard;

    FakeMcpServer() throws IOException {
        this(0);
    }

    /** A server on {@code port} of 127.0.0.1 (0: any free port). */
    FakeMcpServer(int port) throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), port), 0);
        server.setExecutor(executor);
        server.createContext("/mcp", exchange -> {
            try (exchange) {
                Map<String, String> headers = new HashMap<>();
                exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.getFirst()));
                String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
                Seen s = new Seen(exchange.getRequestMethod(), headers, body);
                seen.add(s);
                route.handle(exchange, s);
            } catch (Exception e) {
                // The client went away or the test scripted a broken answer; nothing to do.
            }
        });
        server.start();
    }

    URI uri() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
    }

    /** The next recorded request, failing loudly after 10 s. */
    Seen next() throws InterruptedException {
        Seen s = seen.poll(10, TimeUnit.SECONDS);
        if (s == null) {
            throw new AssertionError("the fake server saw no request within 10 s");
        }
        return s;
    }

    /** The next recorded request with this HTTP method and (for POST) JSON-RPC method or null. */
    Seen next(String httpMethod, String rpcMethod) throws InterruptedException {
        while (true) {
            Seen s = next();
            if (s.method().equals(httpMethod) && (rpcMethod == null || rpcMethod.equals(s.rpcMethod()))) {
                return s;
            }
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    static void standard(HttpExchange ex, Seen s) throws IOException {
        switch (s.method()) {
            case "GET" -> status(ex, 405);
            case "DELETE" -> status(ex, 200);
            default -> {
                JsonNode msg = s.json();
                String id = msg.has("id") ? msg.get("id").toString() : null;
                String method = msg.path("method").asText(null);
                if (id == null || method == null) {
                    status(ex, 202);
                } else if (method.equals("initialize")) {
                    json(ex, 200, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{\"protocolVersion\":\"2025-11-25\","
                            + "\"capabilities\":{},\"serverInfo\":{\"name\":\"fake\",\"version\":\"0\"}}}",
                            "Mcp-Session-Id", "s-1");
                } else if (method.equals("tools/call")) {
                    Sse sse = sse(ex);
                    sse.event(null, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                            + "\"params\":{\"level\":\"info\",\"data\":\"calling\"}}");
                    sse.event(null, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}");
                } else {
                    json(ex, 200, "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{}}");
                }
            }
        }
    }

    static void status(HttpExchange ex, int code) throws IOException {
        ex.sendResponseHeaders(code, -1);
    }

    static void json(HttpExchange ex, int code, String body, String... headers) throws IOException {
        for (int i = 0; i < headers.length; i += 2) {
            ex.getResponseHeaders().add(headers[i], headers[i + 1]);
        }
        ex.getResponseHeaders().add("Content-Type", "application/json");
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        ex.sendResponseHeaders(code, bytes.length);
        ex.getResponseBody().write(bytes);
    }

    static Sse sse(HttpExchange ex) throws IOException {
        ex.getResponseHeaders().add("Content-Type", "text/event-stream");
        ex.sendResponseHeaders(200, 0);
        return new Sse(ex.getResponseBody());
    }

    /** Writes events to an open event stream, flushing each at once. */
    record Sse(OutputStream out) {

        void event(String id, String data) throws IOException {
            StringBuilder s = new StringBuilder("event: message\n");
            if (id != null) {
                s.append("id: ").append(id).append('\n');
            }
            for (String line : data.split("\n", -1)) {
                s.append("data: ").append(line).append('\n');
            }
            raw(s.append('\n').toString());
        }

        void raw(String text) throws IOException {
            out.write(text.getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }

    static List<String> methods(List<Seen> all) {
        return all.stream().map(s -> s.method() + " " + (s.method().equals("POST") ? s.rpcMethod() : "")).toList();
    }
}
