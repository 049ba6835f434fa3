package dev.stretto.proxy.oracle;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import javax.net.ssl.SSLContext;

/**
 * A stand-in for the System-One service on 127.0.0.1 (the one part of these tests that cannot
 * be real). Every POST it receives is recorded; each test scripts the replies in order, and
 * once the script is used up every request gets {@link #answer()}, the mock oracle's answer
 * to the request as a 200.
 */
final class FakeSystemOne implements AutoCloseable {

    /** One request the service received; header names lowercased. */
    record Seen(String method, String path, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    /** A scripted reply. */
    @FunctionalInterface
    interface Reply {
        void send(HttpExchange exchange, Seen seen) throws IOException;
    }

    final List<Seen> seen = new CopyOnWriteArrayList<>();
    private final Deque<Reply> script = new ArrayDeque<>();
    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();

    FakeSystemOne() throws IOException {
        this(null);
    }

    /** With a TLS context, an HTTPS service. */
    FakeSystemOne(SSLContext tls) throws IOException {
        InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), 0);
        if (tls == null) {
            server = HttpServer.create(address, 0);
        } else {
            HttpsServer https = HttpsServer.create(address, 0);
            https.setHttpsConfigurator(new HttpsConfigurator(tls));
            server = https;
        }
        server.setExecutor(executor);
        server.createContext("/", exchange -> {
            Map<String, String> headers = new HashMap<>();
            exchange.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(Locale.ROOT), v.getFirst()));
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            Seen s = new Seen(exchange.getRequestMethod(), exchange.getRequestURI().getPath(), headers, body);
            seen.add(s);
            Reply reply;
            synchronized (script) {
                reply = script.isEmpty() ? answer() : script.removeFirst();
            }
            // A reply that throws leaves the exchange unanswered: the server closes the connection.
            reply.send(exchange, s);
            exchange.close();
        });
        server.start();
    }

    /** Adds replies to the script, in order. */
    FakeSystemOne then(Reply... replies) {
        synchronized (script) {
            script.addAll(List.of(replies));
        }
        return this;
    }

    /** The base URL, e.g. {@code http://127.0.0.1:4711}. */
    URI baseUrl() {
        String scheme = server instanceof HttpsServer ? "https" : "http";
        return URI.create(scheme + "://127.0.0.1:" + server.getAddress().getPort());
    }

    /** Replies with a status and a text body. */
    static Reply status(int status, String body) {
        return (exchange, seen) -> send(exchange, status, body);
    }

    /** Replies 200 with this JSON. */
    static Reply json(String body) {
        return status(200, body);
    }

    /** Every yes/no question of the request answered 0.5, as a 200 with usage. */
    static Reply answer() {
        return (exchange, seen) -> {
            Map<String, Answer> answers = new HashMap<>();
            CanonicalJson.parse(seen.body()).path("questions").properties()
                    .forEach(q -> answers.put(q.getKey(), new Answer.Noul(0.5)));
            send(exchange, 200, Response.of("jev-1.13.0", answers, new TokenUsage(120, 1)).toJson());
        };
    }

    /** Closes the connection in the middle of an answer. */
    static Reply drop() {
        // Cut mid-answer, not before it: a POST on a pooled connection that closes before any
        // answer byte is sent once more by the JDK client itself, so the test would not see it.
        return (exchange, seen) -> {
            exchange.getResponseHeaders().set("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, 64);
            exchange.getResponseBody().write("{\"model\":".getBytes(StandardCharsets.UTF_8));
            exchange.getResponseBody().flush();
            throw new IOException("dropped by the test");
        };
    }

    static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json");
        exchange.sendResponseHeaders(status, bytes.length == 0 ? -1 : bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }
}
