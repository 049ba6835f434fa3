package dev.stretto.demo;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;

import java.io.IOException;
import java.io.InputStream;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

/**
 * Serves the demo over Streamable HTTP at {@code /mcp}, strictly enough to catch a client
 * that gets the session rules wrong: {@code initialize} opens a session named in
 * {@code Mcp-Session-Id}, and every later POST must name a live session (missing 400,
 * unknown 404) and repeat the agreed version in {@code MCP-Protocol-Version} (else 400).
 * Notifications and client responses get 202, {@code tools/call} an event stream (a
 * {@code calling <tool>} log message, then the answer), other requests a JSON body. GET
 * opens the session's own stream, which greets once and stays open until the session ends
 * or {@code getStreamLimit} passes; DELETE ends the session.
 *
 * <p>Threads: the JDK server's dispatcher thread accepts connections and hands each
 * exchange to a virtual thread of its own, so delayed calls and open GET streams cost no
 * platform threads and never hold up other requests. Sessions live in {@link HttpSessions};
 * nothing else is shared.
 */
final class HttpTransport implements AutoCloseable {
    static final String PATH = "/mcp";
    /** Connections waiting to be accepted; a thousand parallel calls must not be refused. */
    private static final int BACKLOG = 1024;
    /** The largest POST body read; a JSON-RPC message for this server is far smaller. */
    private static final int MAX_BODY = 16 * 1024 * 1024;
    private static final String NODELAY_PROPERTY = "sun.net.httpserver.nodelay";
    private static final String MAX_IDLE_PROPERTY = "sun.net.httpserver.maxIdleConnections";
    private static final String IDLE_INTERVAL_PROPERTY = "sun.net.httpserver.idleInterval";
    /**
     * Seconds a kept-alive connection may idle before the server closes it: twice the JDK
     * client's own keep-alive (30 s, {@code jdk.httpclient.keepalive.timeout}), so such a client
     * always drops a pooled connection before this server might close it under its next request.
     */
    private static final String IDLE_INTERVAL_SECONDS = "60";

    private final McpHandler handler;
    private final Optional<String> requiredAuth;
    private final Duration getStreamLimit;
    private final HttpSessions sessions = new HttpSessions();
    private final HttpServer server;
    private final ExecutorService exchanges;

    private HttpTransport(McpHandler handler, Optional<String> requiredAuth, Duration getStreamLimit,
                          HttpServer server, ExecutorService exchanges) {
        this.handler = handler;
        this.requiredAuth = requiredAuth;
        this.getStreamLimit = getStreamLimit;
        this.server = server;
        this.exchanges = exchanges;
    }

    /**
     * Binds {@code address} and starts serving.
     *
     * @param requiredAuth   when present, the exact {@code Authorization} value every request needs
     * @param getStreamLimit how long a GET stream stays open while its session lives
     */
    static HttpTransport start(McpHandler handler, InetSocketAddress address, Optional<String> requiredAuth,
                               Duration getStreamLimit) throws IOException {
        // The JDK server reads these once, when it first starts; a value the user set wins.
        // It leaves Nagle's algorithm on unless told otherwise. With it, the second small write
        // of an event stream waits for the client's delayed ACK, some 40 ms per tool call.
        defaultProperty(NODELAY_PROPERTY, "true");
        // Once 200 connections (its default) are idle, it closes each further one right after
        // its response, without a Connection: close. The client has just pooled that connection
        // and may send its next POST there before it sees the close: that call gets only an EOF,
        // and a POST must not be sent twice. A thousand parallel calls leave a thousand
        // connections idle at once, so none is closed for being one too many; the idle
        // interval still closes the ones no longer used.
        defaultProperty(MAX_IDLE_PROPERTY, Integer.toString(Integer.MAX_VALUE));
        defaultProperty(IDLE_INTERVAL_PROPERTY, IDLE_INTERVAL_SECONDS);
        HttpServer server = HttpServer.create(address, BACKLOG);
        ExecutorService exchanges = Executors.newVirtualThreadPerTaskExecutor();
        HttpTransport transport = new HttpTransport(handler, requiredAuth, getStreamLimit, server, exchanges);
        server.createContext("/", transport::handle);
        server.setExecutor(exchanges);
        server.start();
        return transport;
    }

    private static void defaultProperty(String name, String value) {
        if (System.getProperty(name) == null) {
            System.setProperty(name, value);
        }
    }

    /** The endpoint's URL, with the port actually bound. */
    URI endpoint() {
        InetSocketAddress bound = server.getAddress();
        String host = bound.getAddress().getHostAddress();
        if (bound.getAddress() instanceof Inet6Address) {
            int scope = host.indexOf('%');
            host = "[" + (scope < 0 ? host : host.substring(0, scope)) + "]";
        }
        return URI.create("http://" + host + ":" + bound.getPort() + PATH);
    }

    /** Ends every session (closing GET streams), stops listening and stops running calls. */
    @Override
    public void close() {
        sessions.endAll();
        server.stop(0);
        exchanges.shutdownNow();
    }

    private void handle(HttpExchange exchange) {
        try (exchange) {
            if (!PATH.equals(exchange.getRequestURI().getPath())) {
                sendJson(exchange, 404, McpHandler.transportError("Not Found: the MCP endpoint is " + PATH));
                return;
            }
            if (requiredAuth.isPresent()
                    && !requiredAuth.get().equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                sendJson(exchange, 401, McpHandler.transportError("Unauthorized: wrong or missing Authorization"));
                return;
            }
            switch (exchange.getRequestMethod()) {
                case "POST" -> post(exchange);
                case "GET" -> get(exchange);
                case "DELETE" -> delete(exchange);
                default -> {
                    exchange.getResponseHeaders().set("Allow", "GET, POST, DELETE");
                    sendJson(exchange, 405, McpHandler.transportError("Method Not Allowed: use GET, POST or DELETE"));
                }
            }
        } catch (IOException e) {
            // The client went away mid-exchange; nothing is left to tell it.
        } catch (InterruptedException e) {
            // The server is closing.
            Thread.currentThread().interrupt();
        }
    }

    private void post(HttpExchange exchange) throws IOException, InterruptedException {
        byte[] body;
        try (InputStream in = exchange.getRequestBody()) {
            body = in.readNBytes(MAX_BODY + 1);
        }
        if (body.length > MAX_BODY) {
            sendJson(exchange, 413, McpHandler.transportError("Content Too Large: the limit is " + MAX_BODY + " bytes"));
            return;
        }
        Inbound inbound = handler.receive(body, 0, body.length);
        switch (inbound) {
            case Inbound.Rejected r -> sendJson(exchange, 400, r.errorJson());
            case Inbound.Initialize init -> {
                HttpSessions.Session session = sessions.open(init.protocolVersion(), handler.forSession());
                exchange.getResponseHeaders().set("Mcp-Session-Id", session.id());
                sendJson(exchange, 200, init.answerJson());
            }
            default -> {
                Optional<HttpSessions.Session> session = liveSession(exchange);
                if (session.isEmpty()) {
                    return;
                }
                String agreed = session.get().protocolVersion();
                String given = exchange.getRequestHeaders().getFirst("Mcp-Protocol-Version");
                if (!agreed.equals(given)) {
                    sendJson(exchange, 400, McpHandler.transportError("Bad Request: MCP-Protocol-Version must be "
                            + agreed + ", the version agreed in initialize"
                            + (given == null ? " (the header is missing)" : " (got " + given + ")")));
                    return;
                }
                switch (inbound) {
                    case Inbound.Accepted _ -> exchange.sendResponseHeaders(202, -1);
                    case Inbound.Answer a -> sendJson(exchange, 200, a.json());
                    case Inbound.ToolCall _ -> {
                        // Decided again by the session's own handler, which answers on its world.
                        Inbound.ToolCall call = (Inbound.ToolCall) session.get().handler().receive(body, 0, body.length);
                        SseWriter events = openEventStream(exchange);
                        events.send(McpHandler.logMessage("calling " + call.tool()));
                        events.send(call.answer());
                    }
                    case Inbound.Rejected _, Inbound.Initialize _ -> throw new IllegalStateException("handled above");
                }
            }
        }
    }

    private void get(HttpExchange exchange) throws IOException, InterruptedException {
        Optional<HttpSessions.Session> session = liveSession(exchange);
        if (session.isEmpty()) {
            return;
        }
        SseWriter events = openEventStream(exchange);
        events.send(McpHandler.logMessage("hello from the server's own stream"));
        session.get().awaitEnd(getStreamLimit);
    }

    private void delete(HttpExchange exchange) throws IOException {
        Optional<HttpSessions.Session> session = liveSession(exchange);
        if (session.isPresent()) {
            sessions.end(session.get().id());
            exchange.sendResponseHeaders(200, -1);
        }
    }

    /** The session the request names; if there is none, answers 400 or 404 and returns empty. */
    private Optional<HttpSessions.Session> liveSession(HttpExchange exchange) throws IOException {
        String id = exchange.getRequestHeaders().getFirst("Mcp-Session-Id");
        if (id == null) {
            sendJson(exchange, 400, McpHandler.transportError("Bad Request: Mcp-Session-Id is missing; "
                    + "send initialize first and repeat the id it returns"));
            return Optional.empty();
        }
        Optional<HttpSessions.Session> session = sessions.find(id);
        if (session.isEmpty()) {
            sendJson(exchange, 404, McpHandler.transportError("Not Found: no live session " + id));
        }
        return session;
    }

    private static SseWriter openEventStream(HttpExchange exchange) throws IOException {
        exchange.getResponseHeaders().set("Content-Type", "text/event-stream");
        exchange.getResponseHeaders().set("Cache-Control", "no-cache");
        exchange.sendResponseHeaders(200, 0);
        return new SseWriter(exchange.getResponseBody());
    }

    private static void sendJson(HttpExchange exchange, int status, String json) throws IOException {
        byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }
}
