package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Faults between the proxy and an HTTP server, through the real CLI process: a server that
 * cannot be reached, one that fails a request, and secrets that must stay out of the log
 * and stderr. The server here is a small MCP endpoint on 127.0.0.1 written for the test; the
 * deeper transport faults (torn event streams, dropped and resumed streams, an ended
 * session) are covered by proxy-core's HttpUpstreamTest.
 */
class UpstreamFaultsIT {

    @TempDir
    Path logs;

    private ScriptedServer server;

    @AfterEach
    void stopServer() {
        if (server != null) {
            server.close();
        }
    }

    @Test
    void anUnreachableServerGetsEachRequestAnsweredWithAnErrorIsReportedOnceAndTheProxyStillExitsZero() throws Exception {
        String url = "http://127.0.0.1:" + HttpServers.freePort() + "/mcp";
        try (Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--upstream", url)) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            host.next();
            assertEquals("{\"error\":{\"code\":-32000,\"message\":\"upstream unreachable: connection refused\"},"
                    + "\"id\":1,\"jsonrpc\":\"2.0\"}", host.received.getLast());
            host.send(Host.INITIALIZED);
            host.send(Host.call(2, "lookup", "{}"));
            assertEquals("upstream unreachable: connection refused", host.response(2).at("/error/message").asText());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertEquals(List.of("stretto-proxy: cannot reach the server at " + url + " (connection refused); requests"
                    + " are answered with errors until it answers again"),
                    p.stderr().lines().filter(l -> l.contains("reach")).toList(),
                    "one line when the server cannot be reached, not one per message");
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertEquals(List.of(url), SessionLogFile.JSON.convertValue(log.header().get("server_command"), List.class));
        List<String> from = log.entries().stream().map(e -> e.get("from").asText()).toList();
        assertEquals(List.of("client", "proxy", "client", "client", "proxy"), from,
                "the proxy's own answers are logged as its own");
    }

    @Test
    void aRequestTheServerFailsGetsAnErrorAndLaterRequestsStillWork() throws Exception {
        server = new ScriptedServer();
        try (Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--upstream", server.url())) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            assertEquals("scripted", host.response(1).at("/result/serverInfo/name").asText());
            host.send(Host.INITIALIZED);
            host.send(Host.call(2, "explode", "{}"));
            JsonNode failed = host.response(2);
            assertEquals(-32000, failed.at("/error/code").asInt(), failed.toString());
            assertEquals("upstream answered HTTP 500: internal failure", failed.at("/error/message").asText());
            host.send(Host.call(3, "lookup", "{\"text\":\"after\"}"));
            assertEquals("ok 3", host.response(3).at("/result/content/0/text").asText());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
        List<ScriptedServer.Seen> seen = server.drain();
        ScriptedServer.Seen delete = seen.getLast();
        assertEquals("DELETE", delete.method(), seen.toString());
        assertEquals("s-77", delete.headers().get("mcp-session-id"));
        for (ScriptedServer.Seen s : seen.subList(1, seen.size())) {
            assertEquals("s-77", s.headers().get("mcp-session-id"), s.toString());
            assertEquals("2025-06-18", s.headers().get("mcp-protocol-version"), s.toString());
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertEquals(1, log.indexesFrom("proxy").size(), "the one error the proxy wrote");
    }

    @Test
    void secretsReachTheServerButNeitherTheLogNorStderrNorTheHost() throws Exception {
        server = new ScriptedServer();
        String headerSecret = "key-SECRET-5e1";
        String password = "pw-SECRET-7a2";
        String token = "tok-SECRET-9c3";
        server.echoOnRefusal = headerSecret;
        String url = server.url().replace("http://", "http://alice:" + password + "@") + "?token=" + token + "&region=eu";
        try (Proc p = Proc.proxy(Map.of("IT_API_KEY", headerSecret), "--record", logs.toString(), "--log-level", "trace",
                "--upstream", url, "--upstream-header", "X-Api-Key=IT_API_KEY")) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            host.response(1);
            host.send(Host.INITIALIZED);
            host.send(Host.call(2, "refuse", "{}"));
            JsonNode refused = host.response(2);
            assertEquals("upstream answered HTTP 403: key <redacted> may not do that",
                    refused.at("/error/message").asText(), refused.toString());
            host.send(Host.call(3, "lookup", "{}"));
            host.response(3);
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());

            ScriptedServer.Seen first = server.drain().getFirst();
            assertEquals(headerSecret, first.headers().get("x-api-key"));
            assertEquals("Basic " + Base64.getEncoder().encodeToString(("alice:" + password).getBytes(StandardCharsets.UTF_8)),
                    first.headers().get("authorization"));
            assertEquals("token=" + token + "&region=eu", first.query());

            SessionLogFile log = SessionLogFile.onlyIn(logs);
            String logText = Files.readString(log.path());
            String basic = Base64.getEncoder().encodeToString(("alice:" + password).getBytes(StandardCharsets.UTF_8));
            for (String secret : List.of(headerSecret, password, token, basic)) {
                assertFalse(logText.contains(secret), "the log holds " + secret + ":\n" + logText);
                assertFalse(p.stderr().contains(secret), "stderr holds " + secret + ":\n" + p.stderr());
                assertFalse(String.join("\n", host.received).contains(secret), "the host got " + secret);
            }
            assertEquals(List.of(server.url() + "?token=<redacted>&region=eu"),
                    SessionLogFile.JSON.convertValue(log.header().get("server_command"), List.class));
        }
    }

    /**
     * A plain MCP endpoint: initialize answered in JSON with session {@code s-77};
     * notifications 202; tools/call of {@code explode} 500, of {@code refuse} 403 with an error
     * that repeats {@link #echoOnRefusal}; other calls answered {@code ok <id>}; GET 405;
     * DELETE 200. Every request is kept.
     */
    static final class ScriptedServer implements AutoCloseable {
        record Seen(String method, Map<String, String> headers, String query, String body) {
        }

        private final HttpServer http;
        private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
        private final BlockingQueue<Seen> seen = new LinkedBlockingQueue<>();
        volatile String echoOnRefusal = "";

        ScriptedServer() throws IOException {
            http = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
            http.setExecutor(executor);
            http.createContext("/mcp", exchange -> {
                try (exchange) {
                    handle(exchange);
                }
            });
            http.start();
        }

        String url() {
            return "http://127.0.0.1:" + http.getAddress().getPort() + "/mcp";
        }

        List<Seen> drain() {
            List<Seen> all = new java.util.ArrayList<>();
            seen.drainTo(all);
            return all;
        }

        private void handle(HttpExchange ex) throws IOException {
            Map<String, String> headers = new java.util.HashMap<>();
            ex.getRequestHeaders().forEach((k, v) -> headers.put(k.toLowerCase(java.util.Locale.ROOT), v.getFirst()));
            String body = new String(ex.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            seen.add(new Seen(ex.getRequestMethod(), headers, ex.getRequestURI().getRawQuery(), body));
            switch (ex.getRequestMethod()) {
                case "GET" -> send(ex, 405, null);
                case "DELETE" -> send(ex, 200, null);
                default -> post(ex, SessionLogFile.JSON.readTree(body));
            }
        }

        private void post(HttpExchange ex, JsonNode m) throws IOException {
            if (!m.has("id") || !m.has("method")) {
                send(ex, 202, null);
                return;
            }
            String id = m.get("id").toString();
            String method = m.get("method").asText();
            if (method.equals("initialize")) {
                ex.getResponseHeaders().set("Mcp-Session-Id", "s-77");
                send(ex, 200, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"protocolVersion\":\"2025-06-18\","
                        + "\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"scripted\",\"version\":\"0\"}}}");
                return;
            }
            String tool = m.at("/params/name").asText();
            if (tool.equals("explode")) {
                send(ex, 500, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"internal failure\"}}");
            } else if (tool.equals("refuse")) {
                send(ex, 403, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32001,\"message\":\"key " + echoOnRefusal
                        + " may not do that\"}}");
            } else {
                send(ex, 200, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\","
                        + "\"text\":\"ok " + id + "\"}]}}");
            }
        }

        private static void send(HttpExchange ex, int status, String json) throws IOException {
            if (json == null) {
                ex.sendResponseHeaders(status, -1);
                return;
            }
            byte[] bytes = json.getBytes(StandardCharsets.UTF_8);
            ex.getResponseHeaders().set("Content-Type", "application/json");
            ex.sendResponseHeaders(status, bytes.length);
            try (OutputStream out = ex.getResponseBody()) {
                out.write(bytes);
            }
        }

        @Override
        public void close() {
            http.stop(0);
            executor.shutdownNow();
            try {
                executor.awaitTermination(5, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }
    }
}
