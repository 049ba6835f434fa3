package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@link McpListener} through its API: real sockets on 127.0.0.1, a scripted server per session. */
@org.junit.jupiter.api.Timeout(60)
class McpListenerTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String SSE = "application/json, text/event-stream";

    @TempDir
    Path logs;

    private McpListener listener;
    private final BlockingQueue<ListenSession> started = new LinkedBlockingQueue<>();
    private final BlockingQueue<SessionResult> ended = new LinkedBlockingQueue<>();
    private final List<ListenSession> configured = new ArrayList<>();

    @AfterEach
    void stop() {
        if (listener != null) {
            listener.stop();
        }
    }

    private McpListener listen(Consumer<ListenConfig.Builder> more) throws Exception {
        ListenConfig.Builder b = ListenConfig.builder(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        session -> {
                            synchronized (configured) {
                                configured.add(session);
                            }
                            try {
                                return ProxyConfig.builder(ScriptedServer.spec()).record(logs)
                                        .messages(ProxyMessages.discard()).build();
                            } catch (Exception e) {
                                throw new ProxyStartException("no scripted server: " + e, e);
                            }
                        })
                .messages(ProxyMessages.discard())
                .events(new ListenEvents() {
                    @Override
                    public void started(ListenSession session) {
                        started.add(session);
                    }

                    @Override
                    public void ended(ListenSession session, SessionResult result) {
                        ended.add(result);
                    }
                });
        more.accept(b);
        listener = McpListener.start(b.build());
        return listener;
    }

    private SessionResult awaitEnded() throws InterruptedException {
        SessionResult r = ended.poll(30, TimeUnit.SECONDS);
        assertNotNull(r, "no session ended within 30 s");
        return r;
    }

    private static String call(int id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + ",\"_meta\":{\"progressToken\":\"tok-" + id + "\"}}}";
    }

    // The scripted server answers with its arguments as Jackson writes them.
    private static String echoed(int id, String arguments) throws Exception {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":"
                + JSON.writeValueAsString(JSON.readTree(arguments).toString()) + "}]}}";
    }

    @Test
    void aSessionAnswersOnAnEventStreamOrAsJsonAndItsLogIsCompleteAfterDelete() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            List<ListenClient.Event> init = c.initialize();
            assertTrue(c.sessionId.matches("[0-9a-f]{32}"), c.sessionId);
            assertEquals(1, init.size(), init.toString());
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":"
                    + "{\"tools\":{}},\"serverInfo\":{\"name\":\"scripted\",\"version\":\"1\"}}}", init.getFirst().data());
            ListenSession session = started.poll(5, TimeUnit.SECONDS);
            assertNotNull(session);
            assertEquals(c.sessionId, session.mcpSessionId());
            assertTrue(session.name().matches("\\d{8}T\\d{6}\\.\\d{3}Z-" + ProcessHandle.current().pid() + "-1"),
                    session.name());
            assertEquals(List.of(session), listener.sessions());

            HttpResponse<InputStream> sse = c.post(call(2, "echo", "{\"a\":[1,2.50,\"\\u00e9\"]}"), SSE);
            assertEquals(200, sse.statusCode());
            assertEquals("text/event-stream", sse.headers().firstValue("Content-Type").orElse(""));
            List<ListenClient.Event> events = ListenClient.events(sse.body());
            assertEquals(List.of(new ListenClient.Event("2-1", echoed(2, "{\"a\":[1,2.50,\"\\u00e9\"]}"))), events);

            HttpResponse<InputStream> json = c.post(call(3, "echo", "{\"b\":true}"), "application/json");
            assertEquals(200, json.statusCode());
            assertEquals("application/json", json.headers().firstValue("Content-Type").orElse(""));
            assertEquals(echoed(3, "{\"b\":true}"), ListenClient.text(json));

            HttpResponse<InputStream> note = c.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/roots/list_changed\"}",
                    SSE);
            assertEquals(202, note.statusCode());
            assertEquals("", ListenClient.text(note));

            assertEquals(200, c.delete().statusCode());
            HttpResponse<InputStream> after = c.post(call(4, "echo", "{}"), SSE);
            assertEquals(404, after.statusCode());
            assertEquals(-32001, JSON.readTree(after.body()).path("error").path("code").asInt());

            SessionResult result = awaitEnded();
            assertEquals(EndReason.HOST_CLOSED, result.endReason());
            assertEquals(session.name(), result.sessionId());
            assertEquals(logs.resolve(session.name() + ".jsonl"), result.logPath());
            List<String> lines = Files.readAllLines(result.logPath());
            JsonNode header = JSON.readTree(lines.getFirst());
            assertEquals(session.name(), header.path("session").asText());
            List<String> fromClient = new ArrayList<>();
            for (String line : lines.subList(1, lines.size())) {
                JsonNode entry = JSON.readTree(line);
                if (entry.path("from").asText().equals("client")) {
                    fromClient.add(entry.path("message").toString());
                }
            }
            assertEquals(5, fromClient.size(), lines.toString());
            assertTrue(lines.stream().anyMatch(l -> l.contains("\"a\":[1,2.50,\"\\u00e9\"]")), lines.toString());
            assertTrue(listener.sessions().isEmpty());
        }
    }

    @Test
    void progressAndLogMessagesComeWithTheirCallBeforeItsAnswer() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            c.initialize();
            List<ListenClient.Event> events = ListenClient.events(c.post(call(7, "progress", "{}"), SSE).body());
            List<String> data = events.stream().map(ListenClient.Event::data).toList();
            assertEquals(5, data.size(), data.toString());
            for (int i = 0; i < 3; i++) {
                assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                        + "\"tok-7\",\"progress\":" + (i + 1) + ",\"total\":3}}", data.get(i));
            }
            assertTrue(data.get(3).contains("notifications/message"), data.get(3));
            assertTrue(data.get(4).contains("\"id\":7,\"result\""), data.get(4));
            assertEquals(List.of("2-1", "2-2", "2-3", "2-4", "2-5"), events.stream().map(ListenClient.Event::id).toList());

            // A client that takes JSON only gets the answer; the rest goes to its GET stream.
            HttpResponse<InputStream> get = c.get(null);
            assertEquals(200, get.statusCode());
            try (ListenClient.EventReader stream = new ListenClient.EventReader(get.body())) {
                HttpResponse<InputStream> json = c.post(call(8, "progress", "{}"), "application/json");
                assertTrue(ListenClient.text(json).contains("\"id\":8,\"result\""));
                for (int i = 1; i <= 3; i++) {
                    ListenClient.Event e = stream.next();
                    assertEquals("0-" + i, e.id());
                    assertTrue(e.data().contains("\"progress\":" + i), e.data());
                }
                assertTrue(stream.next().data().contains("notifications/message"));
            }
        }
    }

    @Test
    void theServersRequestReachesTheHostOnTheCallsStreamAndTheHostsAnswerGoesBack() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            c.initialize();
            HttpResponse<InputStream> r = c.post(call(5, "ask", "{}"), SSE);
            try (ListenClient.EventReader stream = new ListenClient.EventReader(r.body())) {
                ListenClient.Event ask = stream.next();
                assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"ask-5\",\"method\":\"sampling/createMessage\",\"params\":"
                        + "{\"messages\":[],\"maxTokens\":5}}", ask.data());
                HttpResponse<InputStream> answer = c.post("{\"jsonrpc\":\"2.0\",\"id\":\"ask-5\",\"result\":{\"role\":"
                        + "\"assistant\",\"content\":{\"type\":\"text\",\"text\":\"from the host\"},\"model\":\"m\"}}", SSE);
                assertEquals(202, answer.statusCode());
                ListenClient.Event result = stream.next();
                assertTrue(result.data().contains("\"id\":5,") && result.data().contains("from the host"), result.data());
                assertEquals(null, stream.next());
            }
        }
    }

    @Test
    void aDroppedStreamIsResumedFromItsLastEventId() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            c.initialize();
            HttpResponse<InputStream> r = c.post(call(9, "gated", "{}"), SSE);
            ListenClient.EventReader stream = new ListenClient.EventReader(r.body());
            ListenClient.Event first = stream.next();
            assertEquals("2-1", first.id());
            assertTrue(first.data().contains("\"progress\":1"));
            stream.close();
            assertEquals(202, c.post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/go\"}", SSE).statusCode());
            List<ListenClient.Event> rest = ListenClient.events(c.get(first.id()).body());
            assertEquals(List.of("2-2", "2-3"), rest.stream().map(ListenClient.Event::id).toList(), rest.toString());
            assertTrue(rest.get(0).data().contains("\"progress\":2"));
            assertTrue(rest.get(1).data().contains("\"id\":9,\"result\"") && rest.get(1).data().contains("opened"));
            // The same stream again, from its start: every event, as they were.
            List<ListenClient.Event> again = ListenClient.events(c.get("2-0").body());
            assertEquals(List.of("2-1", "2-2", "2-3"), again.stream().map(ListenClient.Event::id).toList());
            assertEquals(400, c.get("2-9").statusCode());
            assertEquals(400, c.get("bogus").statusCode());
        }
    }

    @Test
    void aSessionOfRevision20251125PrimesEachStream() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            HttpResponse<InputStream> r = c.post(ListenClient.INITIALIZE.replace("2025-06-18", "2025-11-25"), SSE);
            c.sessionId = r.headers().firstValue("Mcp-Session-Id").orElseThrow();
            ListenClient.events(r.body());
            List<ListenClient.Event> events = ListenClient.events(c.post(call(2, "echo", "{}"), SSE).body());
            assertEquals(new ListenClient.Event("2-0", ""), events.getFirst());
            assertEquals("2-1", events.get(1).id());
        }
    }

    @Test
    void requestsOutsideASessionAreRefusedAsTheTransportSays() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            HttpResponse<InputStream> noSession = c.post(call(2, "echo", "{}"), SSE);
            assertEquals(400, noSession.statusCode());
            assertTrue(ListenClient.text(noSession).contains("Mcp-Session-Id header is required"));
            c.sessionId = "0123456789abcdef0123456789abcdef";
            assertEquals(404, c.post(call(2, "echo", "{}"), SSE).statusCode());
            assertEquals(404, c.get(null).statusCode());
            assertEquals(404, c.delete().statusCode());
            assertEquals(404, c.post(ListenClient.INITIALIZE, SSE).statusCode());
            c.sessionId = null;
            c.initialize();
            assertEquals(400, c.post(ListenClient.INITIALIZE, SSE).statusCode());
            c.headers.put("MCP-Protocol-Version", "1999-01-01");
            HttpResponse<InputStream> badVersion = c.post(call(2, "echo", "{}"), SSE);
            assertEquals(400, badVersion.statusCode());
            assertTrue(ListenClient.text(badVersion).contains("unsupported protocol version 1999-01-01"));
            c.headers.put("MCP-Protocol-Version", "2025-06-18");
            assertEquals(200, c.post(call(2, "echo", "{}"), SSE).statusCode());
            assertEquals(406, c.post(call(3, "echo", "{}"), "text/html").statusCode());
            assertEquals(405, c.send(c.request().method("PUT", java.net.http.HttpRequest.BodyPublishers.noBody()))
                    .statusCode());
        }
    }

    @Test
    void batchesAreAnsweredTogether() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            c.initialize();
            String batch = "[" + call(2, "echo", "{\"n\":2}") + ",{\"jsonrpc\":\"2.0\",\"method\":\"notifications/x\"},"
                    + call(3, "echo", "{\"n\":3}") + "]";
            List<String> sse = ListenClient.events(c.post(batch, SSE).body()).stream().map(ListenClient.Event::data)
                    .sorted().toList();
            assertEquals(List.of(echoed(2, "{\"n\":2}"), echoed(3, "{\"n\":3}")), sse);
            String json = ListenClient.text(c.post(batch.replace(":2", ":4").replace(":3", ":5"), "application/json"));
            assertEquals("[" + echoed(4, "{\"n\":4}") + "," + echoed(5, "{\"n\":5}") + "]", json);
            assertEquals(400, c.post("[]", SSE).statusCode());
            assertEquals(400, c.post("[" + ListenClient.INITIALIZE + "]", SSE).statusCode());
        }
    }

    @Test
    void theTokenOriginAndHostAreChecked() throws Exception {
        listen(b -> b.token("s3cret-token").allowOrigin("https://app.example.com"));
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            HttpResponse<InputStream> none = c.post(ListenClient.INITIALIZE, SSE);
            assertEquals(401, none.statusCode());
            assertEquals("Bearer", none.headers().firstValue("WWW-Authenticate").orElse(""));
            c.headers.put("Authorization", "Bearer s3cret-tokeN");
            assertEquals(401, c.post(ListenClient.INITIALIZE, SSE).statusCode());
            c.headers.put("Authorization", "bearer s3cret-token");
            c.headers.put("Origin", "http://evil.example");
            assertEquals(403, c.post(ListenClient.INITIALIZE, SSE).statusCode());
            c.headers.put("Origin", "https://app.example.com");
            c.initialize();
            c.headers.put("Origin", "http://localhost:5173");
            assertEquals(200, c.post(call(2, "echo", "{}"), SSE).statusCode());
            assertTrue(started.size() == 1 && ended.isEmpty());
        }
    }

    @Test
    void limitsAreKeptWithAClearError() throws Exception {
        listen(b -> b.limits(new ListenConfig.Limits(2, 1, 4096, 16, 1 << 20)));
        try (ListenClient a = new ListenClient(listener.endpoint());
             ListenClient b = new ListenClient(listener.endpoint());
             ListenClient third = new ListenClient(listener.endpoint())) {
            a.initialize();
            b.initialize();
            HttpResponse<InputStream> full = third.post(ListenClient.INITIALIZE, SSE);
            assertEquals(503, full.statusCode());
            assertTrue(ListenClient.text(full).contains("serves 2 sessions at once"));
            HttpResponse<InputStream> big = a.post(call(2, "echo", "{\"t\":\"" + "x".repeat(5000) + "\"}"), SSE);
            assertEquals(413, big.statusCode());
            HttpResponse<InputStream> held = a.post(call(3, "hold", "{}"), SSE);
            assertEquals(200, held.statusCode());
            HttpResponse<InputStream> second = a.post(call(4, "echo", "{}"), SSE);
            assertEquals(429, second.statusCode());
            assertEquals(400, a.post(call(3, "echo", "{}"), SSE).statusCode(), "an id still in flight");
            held.body().close();
        }
    }

    @Test
    void stoppingEndsEverySessionItsLogCompleteAndItsWaitingCallsAnswered() throws Exception {
        listen(b -> { });
        ScriptedServer.HELD.clear();
        List<HttpResponse<InputStream>> holds = new ArrayList<>();
        List<ListenClient> clients = new ArrayList<>();
        for (int i = 0; i < 3; i++) {
            ListenClient c = new ListenClient(listener.endpoint());
            clients.add(c);
            c.initialize();
            holds.add(c.post(call(2, "hold", "{}"), SSE));
        }
        // The event stream's headers come before the call has reached the server: stop only
        // once every call waits there, which is the case this test is about.
        for (int i = 0; i < 3; i++) {
            assertNotNull(ScriptedServer.HELD.poll(30, TimeUnit.SECONDS), "hold call " + i + " never reached its server");
        }
        listener.stop();
        for (int i = 0; i < 3; i++) {
            assertEquals(EndReason.INTERRUPTED, awaitEnded().endReason());
        }
        for (HttpResponse<InputStream> h : holds) {
            List<ListenClient.Event> events = ListenClient.events(h.body());
            assertEquals(1, events.size(), events.toString());
            assertEquals("{\"error\":{\"code\":-32000,\"message\":\"the proxy stopped before the server answered\"},"
                    + "\"id\":2,\"jsonrpc\":\"2.0\"}", events.getFirst().data());
        }
        try (var files = Files.list(logs)) {
            for (Path log : files.toList()) {
                for (String line : Files.readAllLines(log)) {
                    JSON.readTree(line);
                }
                assertTrue(Files.readString(log).contains("\"hold\""), log.toString());
            }
        }
        clients.forEach(ListenClient::close);
    }

    @Test
    void anIdleSessionIsEnded() throws Exception {
        listen(b -> b.idle(Duration.ofMillis(300)));
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            c.initialize();
            SessionResult r = awaitEnded();
            assertEquals(EndReason.HOST_CLOSED, r.endReason());
            assertEquals(404, c.post(call(2, "echo", "{}"), SSE).statusCode());
        }
    }

    @Test
    void aPortInUseCannotBeListenedOn() throws Exception {
        listen(b -> { });
        ListenStartException e = assertThrows(ListenStartException.class, () -> McpListener.start(
                ListenConfig.builder(listener.address(), s -> { throw new ProxyStartException("unused", null); })
                        .build()));
        assertTrue(e.getMessage().startsWith("cannot listen on 127.0.0.1:" + listener.address().getPort()
                + ": the address is in use"), e.getMessage());
    }

    @Test
    void aServerThatCannotStartIsTheInitializeAnswer() throws Exception {
        ListenConfig config = ListenConfig.builder(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        s -> ProxyConfig.builder(UpstreamSpec.Command.of(logs.resolve("no-such-server").toString()))
                                .messages(ProxyMessages.discard()).build())
                .messages(ProxyMessages.discard()).build();
        listener = McpListener.start(config);
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            HttpResponse<InputStream> r = c.post(ListenClient.INITIALIZE, SSE);
            assertEquals(502, r.statusCode());
            JsonNode error = JSON.readTree(r.body());
            assertEquals(1, error.path("id").asInt());
            assertTrue(error.path("error").path("message").asText().contains("no-such-server"), error.toString());
            assertFalse(r.headers().firstValue("Mcp-Session-Id").isPresent());
        }
    }

    @Test
    void theHostsSessionNamesTheFilesOfItsSession() throws Exception {
        listen(b -> { });
        try (ListenClient c = new ListenClient(listener.endpoint())) {
            c.headers.put("Stretto-Session", "../etc");
            assertEquals(400, c.post(ListenClient.INITIALIZE, SSE).statusCode());
            c.headers.put("Stretto-Session", "chat-42");
            c.initialize();
        }
        ListenSession s = started.poll(5, TimeUnit.SECONDS);
        assertEquals("chat-42", s.hostSession());
        assertEquals(Path.of("/tmp/chat-42.context.jsonl"), s.expand(Path.of("/tmp/{session}.context.jsonl")));
        ListenSession anonymous = new ListenSession("n", "abc", null, java.time.Instant.EPOCH);
        assertEquals(Path.of("abc/x"), anonymous.expand(Path.of("{session}/x")));
    }
}
