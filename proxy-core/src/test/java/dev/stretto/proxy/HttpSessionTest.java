package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Whole sessions with an HTTP upstream ({@link UpstreamSpec.Http}), embedded in-process. */
class HttpSessionTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    private static int closedPort() throws Exception {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    @Test
    void theSpecNeverShowsHeaderValuesOrUrlCredentials() {
        UpstreamSpec.Http spec = new UpstreamSpec.Http(
                URI.create("http://u:pw-1@127.0.0.1:9/mcp?token=tk-1&region=eu#frag"),
                List.of(new HeaderSpec("Authorization", "Bearer sk-1"), new HeaderSpec("X-Team", "t-1")));
        assertEquals(List.of("http://127.0.0.1:9/mcp?token=<redacted>&region=eu"), spec.loggedCommand());
        String text = spec.toString();
        assertEquals("Http[endpoint=http://127.0.0.1:9/mcp?token=<redacted>&region=eu, headers=[Authorization, X-Team]]",
                text);
        for (String secret : List.of("pw-1", "tk-1", "sk-1", "t-1")) {
            assertFalse(text.contains(secret), text);
        }
    }

    @Test
    void theSpecRefusesAUrlThatIsNoHttpEndpointAndAHeaderGivenTwice() {
        IllegalArgumentException notHttp = assertThrows(IllegalArgumentException.class,
                () -> UpstreamSpec.Http.of(URI.create("ftp://u:pw-1@example.com/mcp")));
        assertFalse(notHttp.getMessage().contains("pw-1"), notHttp.getMessage());
        IllegalArgumentException twice = assertThrows(IllegalArgumentException.class,
                () -> new UpstreamSpec.Http(URI.create("http://127.0.0.1:9/mcp"),
                        List.of(new HeaderSpec("Authorization", "a-1"), new HeaderSpec("authorization", "a-2"))));
        assertEquals("header authorization is given more than once", twice.getMessage());
    }

    /**
     * Issue 7: a server that echoes a configured header value (here in plain, alone and
     * escaped forms) put it into the log. The host must get the answer byte for byte; the log
     * must hold {@code <redacted>} instead, and stay JSON.
     */
    @Test
    void aHeaderValueTheServerEchoesReachesTheHostButNotTheLog(@TempDir Path tmp) throws Exception {
        String token = "tok-SECRET-1234";
        String answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"auth\":\"Bearer " + token + "\",\"alone\":\""
                + token + "\",\"esc\":\"tok\\u002dSECRET\\u002d1234\",\"Bearer tok-SECRET-1234\":[1]}}";
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/mcp", exchange -> {
            byte[] body = answer.getBytes(StandardCharsets.UTF_8);
            exchange.getRequestBody().readAllBytes();
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(exchange.getRequestMethod().equals("POST") ? 200 : 405,
                    exchange.getRequestMethod().equals("POST") ? body.length : -1);
            if (exchange.getRequestMethod().equals("POST")) {
                exchange.getResponseBody().write(body);
            }
            exchange.close();
        });
        server.start();
        try {
            String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/mcp";
            ProxyConfig config = ProxyConfig.builder(new UpstreamSpec.Http(URI.create(url),
                            List.of(new HeaderSpec("Authorization", "Bearer " + token))))
                    .record(tmp)
                    .build();
            String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n";
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            int status = assertTimeoutPreemptively(Duration.ofSeconds(20),
                    () -> Proxy.run(config, new ByteArrayInputStream(ping.getBytes(StandardCharsets.UTF_8)), out)
                            .exitStatus());
            assertEquals(0, status);
            assertEquals(answer + "\n", out.toString(StandardCharsets.UTF_8), "the host gets every byte");

            Path log;
            try (Stream<Path> s = Files.list(tmp)) {
                log = s.findFirst().orElseThrow();
            }
            List<String> lines = Files.readAllLines(log);
            JsonNode logged = JSON.readTree(lines.get(2)).get("message");
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"auth\":\"<redacted>\",\"alone\":\"<redacted>\","
                    + "\"esc\":\"<redacted>\",\"<redacted>\":[1]}}", lines.get(2).substring(
                    lines.get(2).indexOf("\"message\":") + 10, lines.get(2).length() - 1));
            assertEquals("<redacted>", logged.get("result").get("esc").asText());
            assertFalse(String.join("\n", lines).contains("SECRET"), String.join("\n", lines));
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anUnreachableServerIsAnsweredByTheProxyAndLoggedAsTheProxysLine(@TempDir Path tmp) throws Exception {
        String url = "http://127.0.0.1:" + closedPort() + "/mcp?key=k-1";
        String init = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"0\"}}}";
        ProxyConfig config = ProxyConfig.builder(new UpstreamSpec.Http(URI.create(url),
                        List.of(new HeaderSpec("Authorization", "Bearer sk-1"))))
                .record(tmp)
                .host(new HostEnvironment("/bin", tmp, "s-1", 1))
                .clock(InstantSource.fixed(Instant.parse("2026-09-23T21:20:00.123Z")))
                .build();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int status = assertTimeoutPreemptively(Duration.ofSeconds(20),
                () -> Proxy.run(config, new ByteArrayInputStream((init + "\n").getBytes(StandardCharsets.UTF_8)), out)
                        .exitStatus());

        assertEquals(0, status);
        String answer = "{\"error\":{\"code\":-32000,\"message\":\"upstream unreachable: connection refused\"},"
                + "\"id\":1,\"jsonrpc\":\"2.0\"}";
        assertEquals(answer + "\n", out.toString(StandardCharsets.UTF_8));

        List<Path> logs;
        try (Stream<Path> s = Files.list(tmp)) {
            logs = s.toList();
        }
        assertEquals(1, logs.size());
        String text = Files.readString(logs.getFirst());
        assertFalse(text.contains("sk-1") || text.contains("k-1\""), text);
        List<String> lines = text.lines().toList();
        JsonNode header = JSON.readTree(lines.getFirst());
        assertEquals(url.replace("k-1", "<redacted>"), header.get("server_command").get(0).asText());
        assertEquals(1, header.get("server_command").size());
        List<String> from = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            from.add(JSON.readTree(l).get("from").asText());
        }
        assertEquals(List.of("client", "proxy"), from);
        assertTrue(lines.get(2).endsWith(",\"from\":\"proxy\",\"message\":" + answer + "}"), lines.get(2));
    }

    /**
     * architecture.md, invariant 10: every thread a session starts belongs to its scope, so that
     * the session's end provably ends them all. An HTTP exchange used to run on a virtual thread
     * of its own, started and tracked by hand; it runs in a scope nested in the session's.
     */
    @Test
    void anHttpExchangeInFlightRunsInsideTheSessionsScope(@TempDir Path tmp) throws Exception {
        CountDownLatch arrived = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        com.sun.net.httpserver.HttpServer server = com.sun.net.httpserver.HttpServer.create(
                new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        server.createContext("/mcp", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                exchange.close();
                return;
            }
            arrived.countDown();
            try {
                release.await(20, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            byte[] answer = "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}".getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        try {
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(
                    URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp"))).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            FutureTask<SessionResult> session = new FutureTask<>(() -> Proxy.run(config, new ByteArrayInputStream(
                    "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8)), out));
            Thread.ofVirtual().start(session);
            assertTrue(arrived.await(20, TimeUnit.SECONDS), "the request did not reach the server");

            List<String> containers = containersOfThreadsRunning("dev.stretto.proxy.http.PostExchange.run", tmp);
            release.countDown();
            assertEquals(0, session.get(20, TimeUnit.SECONDS).exitStatus());
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n", out.toString(StandardCharsets.UTF_8));

            assertEquals(1, containers.size(), "one exchange in flight: " + containers);
            assertTrue(containers.getFirst().contains(" < stretto-session-"),
                    "the exchange's thread container and its parents: " + containers.getFirst());
        } finally {
            release.countDown();
            server.stop(0);
        }
    }

    /**
     * For each thread whose stack holds {@code frame}, its thread container and the containers
     * above it ({@code name < parent < ...}), from a thread dump of this JVM.
     */
    private static List<String> containersOfThreadsRunning(String frame, Path tmp) throws Exception {
        Path dump = tmp.resolve("threads.json");
        java.lang.management.ManagementFactory.getPlatformMXBean(com.sun.management.HotSpotDiagnosticMXBean.class)
                .dumpThreads(dump.toString(), com.sun.management.HotSpotDiagnosticMXBean.ThreadDumpFormat.JSON);
        JsonNode all = JSON.readTree(dump.toFile()).path("threadDump").path("threadContainers");
        java.util.Map<String, String> parents = new java.util.HashMap<>();
        all.forEach(c -> parents.put(c.path("container").asText(), c.path("parent").isNull() ? null
                : c.path("parent").asText()));
        List<String> found = new ArrayList<>();
        for (JsonNode c : all) {
            for (JsonNode t : c.path("threads")) {
                boolean running = false;
                for (JsonNode f : t.path("stack")) {
                    running |= f.asText().contains(frame + "(");
                }
                if (running) {
                    StringBuilder chain = new StringBuilder(t.path("name").asText());
                    for (String at = c.path("container").asText(); at != null; at = parents.get(at)) {
                        chain.append(" < ").append(at);
                    }
                    found.add(chain.toString());
                }
            }
        }
        return found;
    }
}
