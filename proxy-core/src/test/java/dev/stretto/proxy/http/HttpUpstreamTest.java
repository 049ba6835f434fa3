package dev.stretto.proxy.http;

import dev.stretto.proxy.HeaderSpec;
import dev.stretto.proxy.ProxyMessages;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.ServerEnd;
import static dev.stretto.proxy.http.FakeMcpServer.json;
import static dev.stretto.proxy.http.FakeMcpServer.sse;
import static dev.stretto.proxy.http.FakeMcpServer.status;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.http.FakeMcpServer.Seen;
import dev.stretto.proxy.http.FakeMcpServer.Sse;
import java.io.IOException;
import java.net.ServerSocket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class HttpUpstreamTest {

    private static final Tuning FAST = new Tuning(Duration.ofMillis(10), Duration.ofMillis(200), 3, Duration.ofMillis(50));
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-11-25\",\"capabilities\":{},\"clientInfo\":{\"name\":\"t\",\"version\":\"0\"}}}";
    private static final String INIT_RESULT = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"protocolVersion\":"
            + "\"2025-11-25\",\"capabilities\":{},\"serverInfo\":{\"name\":\"fake\",\"version\":\"0\"}}}";
    private static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";
    private static final String LOG = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
            + "\"params\":{\"level\":\"info\",\"data\":\"calling\"}}";

    /** Without a session around it, each exchange runs on a virtual thread of its own. */
    private static final java.util.concurrent.Executor WORK = task -> Thread.ofVirtual().start(task);

    private FakeMcpServer server;
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> warnings = new LinkedBlockingQueue<>();
    /** What the upstream said through the proxy's messages (not its warning channel), "LEVEL text". */
    private final BlockingQueue<String> said = new LinkedBlockingQueue<>();
    private final ProxyMessages messages = (level, text) -> said.add(level + " " + text);
    private final List<CountDownLatch> releaseAtEnd = new ArrayList<>();
    private HttpUpstream upstream;

    @BeforeEach
    void startServer() throws IOException {
        server = new FakeMcpServer();
    }

    @AfterEach
    void stopAll() {
        releaseAtEnd.forEach(CountDownLatch::countDown);
        if (upstream != null) {
            upstream.abort();
        }
        server.close();
    }

    private HttpUpstream start(URI uri, List<HeaderSpec> headers, Duration drain) throws IOException {
        upstream = new HttpUpstream(uri, headers, Duration.ofSeconds(5), drain, FAST, warnings::add);
        upstream.start((line, newline) -> {
            assertTrue(newline, "every line to the host ends in a newline");
            // As the session's way to the host does: an interrupted thread's line is dropped.
            if (!Thread.currentThread().isInterrupted()) {
                lines.add(new String(line, StandardCharsets.UTF_8));
            }
        }, WORK);
        return upstream;
    }

    private HttpUpstream start() throws IOException {
        return start(server.uri(), List.of(), Duration.ofSeconds(5));
    }

    private void send(String json) {
        upstream.send(json.getBytes(StandardCharsets.UTF_8), true);
    }

    private String line() throws InterruptedException {
        String line = lines.poll(10, TimeUnit.SECONDS);
        assertNotNull(line, "no line reached the host within 10 s");
        return line;
    }

    private String warning() throws InterruptedException {
        String w = warnings.poll(10, TimeUnit.SECONDS);
        assertNotNull(w, "no warning within 10 s");
        return w;
    }

    private void initialize() throws InterruptedException {
        send(INIT);
        assertEquals(INIT_RESULT, line());
    }

    private int end() throws Exception {
        upstream.endOfInput();
        FutureTask<Integer> end = new FutureTask<>(upstream::awaitEnd);
        Thread.ofVirtual().start(end);
        return end.get(10, TimeUnit.SECONDS);
    }

    private FutureTask<Void> companion() {
        List<Callable<Void>> companions = upstream.companions();
        assertEquals(1, companions.size());
        FutureTask<Void> task = new FutureTask<>(companions.getFirst());
        Thread.ofVirtual().start(() -> Logger.runWith(messages, task));
        return task;
    }

    private CountDownLatch latch() {
        CountDownLatch latch = new CountDownLatch(1);
        releaseAtEnd.add(latch);
        return latch;
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        assertTrue(latch.await(10, TimeUnit.SECONDS), what);
    }

    private static String error(String id, String message) {
        return new String(ErrorLines.error(id, -32000, message), StandardCharsets.UTF_8);
    }

    private List<Seen> drainSeen() {
        List<Seen> all = new ArrayList<>();
        server.seen.drainTo(all);
        return all;
    }

    @Test
    void sessionIdAndVersionGoOnEveryRequestAfterInitializeAndDeleteEndsTheSession() throws Exception {
        start(server.uri(), List.of(new HeaderSpec("X-Api-Key", "k-123")), Duration.ofSeconds(5));
        initialize();
        Seen init = server.next("POST", "initialize");
        assertNull(init.header("mcp-session-id"));
        assertNull(init.header("mcp-protocol-version"));
        assertEquals("application/json, text/event-stream", init.header("accept"));
        assertEquals("application/json", init.header("content-type"));
        assertEquals("k-123", init.header("x-api-key"));
        assertEquals(INIT, init.body());

        send(INITIALIZED);
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        assertEquals(0, end());
        upstream.abort();
        assertEquals(ServerEnd.FINISHED, upstream.serverEnd(), "everything was answered");

        List<Seen> rest = drainSeen();
        assertEquals(List.of("DELETE ", "POST notifications/initialized", "POST tools/list"),
                FakeMcpServer.methods(rest).stream().sorted().toList());
        for (Seen s : rest) {
            assertEquals("s-1", s.header("mcp-session-id"), s.method());
            assertEquals("2025-11-25", s.header("mcp-protocol-version"), s.method());
            assertEquals("k-123", s.header("x-api-key"), s.method());
        }
        assertTrue(lines.isEmpty(), "a 202 forwards nothing: " + lines);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void eventStreamIsForwardedEventByEventAsItArrives() throws Exception {
        CountDownLatch progressSeen = latch();
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                Sse sse = sse(ex);
                sse.raw("id: prime\ndata:\n\n");
                sse.raw(": keep-alive\n\n");
                sse.raw("data: {\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\n"
                        + "data:  \"params\":{\"progress\":1,\"progressToken\":\"p\"}}\n\n");
                progressSeen.await(10, TimeUnit.SECONDS);
                sse.event("e2", LOG);
                sse.event("e3", "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send(INITIALIZED);
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"slow\"}}");
        // The progress reaches the host while the server still holds the rest of the stream.
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\","
                + "\"params\":{\"progress\":1,\"progressToken\":\"p\"}}", line());
        progressSeen.countDown();
        assertEquals(LOG, line());
        assertEquals("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}", line());
        assertEquals(0, end());
        assertTrue(lines.isEmpty(), lines.toString());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void jsonBodyIsForwardedAsItIsUnlessItSpansLines() throws Exception {
        String spaced = "{\"id\":2,  \"jsonrpc\" : \"2.0\",\"result\":{\"tools\":[ ]}}";
        server.route = (ex, s) -> {
            switch (String.valueOf(s.rpcMethod())) {
                case "tools/list" -> json(ex, 200, spaced);
                case "resources/list" -> json(ex, 200, "{\n  \"id\": 3,\n  \"jsonrpc\": \"2.0\",\n"
                        + "  \"result\": {\"text\": \"a\\nb  c\"}\n}\n");
                default -> FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(spaced, line());
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"resources/list\"}");
        assertEquals("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"text\":\"a\\nb  c\"}}", line());
        assertEquals(0, end());
    }

    @Test
    void parallelCallsAreParallelUpstream() throws Exception {
        // The first call is answered only after the second call's answer reached the host, so
        // this passes only if both were open at the server at once.
        CountDownLatch secondAnswered = latch();
        server.route = (ex, s) -> {
            String id = s.json().path("id").asText();
            if ("tools/call".equals(s.rpcMethod()) && id.equals("10")) {
                await(secondAnswered, "the second call was answered while the first was open");
                json(ex, 200, "{\"id\":10,\"jsonrpc\":\"2.0\",\"result\":{}}");
            } else if ("tools/call".equals(s.rpcMethod())) {
                json(ex, 200, "{\"id\":11,\"jsonrpc\":\"2.0\",\"result\":{}}");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":10,\"method\":\"tools/call\",\"params\":{\"name\":\"a\"}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":11,\"method\":\"tools/call\",\"params\":{\"name\":\"b\"}}");
        assertEquals("{\"id\":11,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        secondAnswered.countDown();
        assertEquals("{\"id\":10,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        assertEquals(0, end());
    }

    @Test
    void serverRequestOnAPostStreamGoesToTheHostAndItsAnswerIsPostedBack() throws Exception {
        CountDownLatch answerPosted = latch();
        String sampling = "{\"id\":0,\"jsonrpc\":\"2.0\",\"method\":\"sampling/createMessage\",\"params\":{}}";
        String hostAnswer = "{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{\"role\":\"assistant\"}}";
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                Sse sse = sse(ex);
                sse.event("a1", sampling);
                await(answerPosted, "the host's answer was POSTed back");
                sse.event("a2", "{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{}}");
            } else if (s.method().equals("POST") && s.body().equals(hostAnswer)) {
                answerPosted.countDown();
                status(ex, 202);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"sample\"}}");
        assertEquals(sampling, line());
        send(hostAnswer);
        assertEquals("{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        assertEquals(0, end());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void unreachableServerAnswersEachRequestWithAnErrorAndIsReportedOncePerChange() throws Exception {
        int port;
        try (ServerSocket socket = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        String url = "http://127.0.0.1:" + port + "/mcp";
        start(URI.create(url), List.of(), Duration.ofSeconds(5));
        send(INIT);
        assertEquals("{\"error\":{\"code\":-32000,\"message\":\"upstream unreachable: connection refused\"},"
                + "\"id\":1,\"jsonrpc\":\"2.0\"}", line());
        send(INITIALIZED);
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(error("2", "upstream unreachable: connection refused"), line());
        assertEquals(List.of("cannot reach the server at " + url + " (connection refused); requests are answered"
                + " with errors until it answers again"), List.copyOf(warnings), "one line for the change");

        server.close();
        server = new FakeMcpServer(port);
        warnings.clear();
        send(INIT.replace("\"id\":1", "\"id\":3"));
        assertEquals(INIT_RESULT.replace("\"id\":1", "\"id\":3"), line());
        send("{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/list\"}");
        assertEquals("{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        assertEquals(0, end());
        assertEquals(List.of("the server at " + url + " answers again"), List.copyOf(warnings));
        assertTrue(lines.isEmpty(), lines.toString());
    }

    @Test
    void refusedRequestGetsAnErrorAndLaterRequestsStillWork() throws Exception {
        server.route = (ex, s) -> {
            if (s.body().contains("\"id\":\"a\"")) {
                json(ex, 500, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32603,\"message\":\"boom\"}}");
            } else if (s.body().contains("\"id\":\"c\"")) {
                status(ex, 503);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}");
        assertEquals(error("\"a\"", "upstream answered HTTP 500: boom"), line());
        send("{\"jsonrpc\":\"2.0\",\"id\":\"b\",\"method\":\"tools/list\"}");
        assertEquals("{\"id\":\"b\",\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        send("{\"jsonrpc\":\"2.0\",\"id\":\"c\",\"method\":\"tools/list\"}");
        assertEquals(error("\"c\"", "upstream answered HTTP 503"), line());
        assertEquals(0, end());
    }

    @Test
    void theProxysOwnAnswersGoToTheSinkAsTheProxysLines() throws Exception {
        server.route = (ex, s) -> {
            if (s.body().contains("\"id\":\"a\"")) {
                status(ex, 500);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        BlockingQueue<String> tagged = new LinkedBlockingQueue<>();
        upstream = new HttpUpstream(server.uri(), List.of(), Duration.ofSeconds(5), Duration.ofSeconds(5), FAST,
                warnings::add);
        upstream.start(new dev.stretto.proxy.upstream.ServerLineSink() {
            @Override
            public void line(byte[] line, boolean newline) {
                tagged.add("server " + new String(line, StandardCharsets.UTF_8));
            }

            @Override
            public void proxyLine(byte[] line, boolean newline) {
                tagged.add("proxy " + new String(line, StandardCharsets.UTF_8));
            }
        }, WORK);
        send(INIT);
        assertEquals("server " + INIT_RESULT, tagged.poll(10, TimeUnit.SECONDS));
        send("{\"jsonrpc\":\"2.0\",\"id\":\"a\",\"method\":\"tools/list\"}");
        assertEquals("proxy " + error("\"a\"", "upstream answered HTTP 500"), tagged.poll(10, TimeUnit.SECONDS));
        send("not json");
        assertEquals("proxy {\"error\":{\"code\":-32700,\"message\":\"Parse error: the line is not JSON\"},"
                + "\"id\":null,\"jsonrpc\":\"2.0\"}", tagged.poll(10, TimeUnit.SECONDS));
        assertEquals(0, end());
    }

    @Test
    void errorStatusCarryingTheRequestsOwnResponseIsPassedOn() throws Exception {
        String own = "{\"error\":{\"code\":-32602,\"message\":\"Invalid params\"},\"id\":7,\"jsonrpc\":\"2.0\"}";
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                json(ex, 400, own);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\"}");
        assertEquals(own, line());
        assertEquals(0, end());
        assertTrue(lines.isEmpty(), lines.toString());
    }

    @Test
    void malformedEventStreamIsReportedAndItsRequestAnswered() throws Exception {
        server.route = (ex, s) -> {
            if (s.body().contains("\"id\":5")) {
                sse(ex).raw("data: not json\n\n");
            } else if (s.body().contains("\"id\":6")) {
                sse(ex).raw("event: message\ndata: {\"id\":6,\"jsonrpc\":");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"tools/call\"}");
        assertEquals(error("5", "upstream closed the event stream before answering"), line());
        assertEquals("the server sent something that is not a JSON-RPC message in request 5 (tools/call);"
                + " it was not passed on", warning());
        send("{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"tools/call\"}");
        assertEquals(error("6", "upstream closed the event stream before answering"), line());
        assertEquals("the server's event stream for request 6 (tools/call) ended in the middle of an event;"
                + " that event was dropped", warning());
        assertEquals(0, end());
    }

    @Test
    void getStreamDroppedTwiceIsReopenedWithTheLastEventId() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        CountDownLatch release = latch();
        server.route = (ex, s) -> {
            if (!s.method().equals("GET")) {
                FakeMcpServer.standard(ex, s);
                return;
            }
            int n = gets.incrementAndGet();
            Sse sse = sse(ex);
            if (n == 1) {
                sse.raw("retry: 5\n");
            }
            sse.event("g" + n, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"n\":" + n + "}}");
            if (n >= 3) {
                release.await(10, TimeUnit.SECONDS);
            }
        };
        start();
        initialize();
        FutureTask<Void> companion = companion();
        send(INITIALIZED);
        for (int n = 1; n <= 3; n++) {
            assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"n\":" + n + "}}",
                    line());
        }
        Seen first = server.next("GET", null);
        assertNull(first.header("last-event-id"));
        assertEquals("text/event-stream", first.header("accept"));
        assertEquals("s-1", first.header("mcp-session-id"));
        assertEquals("2025-11-25", first.header("mcp-protocol-version"));
        assertEquals("g1", server.next("GET", null).header("last-event-id"));
        assertEquals("g2", server.next("GET", null).header("last-event-id"));
        assertFalse(companion.isDone(), "the GET stream still runs");

        assertEquals(0, end());
        assertNull(companion.get(10, TimeUnit.SECONDS));
        assertEquals("s-1", server.next("DELETE", null).header("mcp-session-id"));
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void serverWithoutGetStreamIsFineAndTheCompanionWaitsForTheEnd() throws Exception {
        start();
        initialize();
        FutureTask<Void> companion = companion();
        send(INITIALIZED);
        server.next("GET", null);
        assertFalse(companion.isDone(), "the companion returns only once the upstream is finished");
        assertEquals(0, end());
        assertNull(companion.get(10, TimeUnit.SECONDS));
        assertTrue(warnings.isEmpty(), warnings.toString());
        assertTrue(lines.isEmpty(), lines.toString());
    }

    @Test
    void companionReturnsAtTheEndWhenTheStreamNeverOpened() throws Exception {
        start();
        FutureTask<Void> companion = companion();
        assertEquals(0, end());
        assertNull(companion.get(10, TimeUnit.SECONDS));
        assertTrue(drainSeen().isEmpty(), "no session, so no DELETE");
    }

    @Test
    void postStreamClosedBeforeItsResponseIsResumedWithGet() throws Exception {
        String progress = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}";
        String result = "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}";
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                Sse sse = sse(ex);
                sse.raw("id: p0\nretry: 5\ndata:\n\n");
                sse.event("p1", progress);
            } else if (s.method().equals("GET") && "p1".equals(s.header("last-event-id"))) {
                Sse sse = sse(ex);
                sse.event("p1", progress); // a replay of what the POST stream delivered
                sse.event("p2", result);
                sse.event("p3", result); // a duplicate response
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"long\"}}");
        assertEquals(progress, line());
        assertEquals(result, line());
        Seen resume = server.next("GET", null);
        assertEquals("p1", resume.header("last-event-id"));
        assertEquals("s-1", resume.header("mcp-session-id"));
        assertEquals(0, end());
        assertTrue(lines.isEmpty(), "the replayed event and the duplicate response were dropped: " + lines);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aResponseOnAResumedStreamThatStaysOpenFinishesItsRequest() throws Exception {
        // The conformance scenario sse-retry: the POST's stream drops before the answer, the
        // answer comes on the resumed GET, and the server keeps that stream open.
        String result = "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}";
        CountDownLatch held = latch();
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                sse(ex).raw("id: r0\nretry: 5\ndata:\n\n");
            } else if (s.method().equals("GET") && "r0".equals(s.header("last-event-id"))) {
                sse(ex).event("r1", result);
                held.await(30, TimeUnit.SECONDS);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        // A drain far longer than end() may take: the answered request must not be waited for.
        start(server.uri(), List.of(), Duration.ofSeconds(30));
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"long\"}}");
        assertEquals(result, line());
        assertEquals(0, end());
        assertEquals("s-1", server.next("DELETE", null).header("mcp-session-id"));
        assertTrue(lines.isEmpty(), "nothing more for the host: " + lines);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aNotificationReplayedOnAnotherStreamReachesTheHostOnce() throws Exception {
        // Event ids are unique across the streams of a session; the reference server replays
        // other streams' events on the GET stream.
        String result = "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}";
        String later = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"later\"}}";
        CountDownLatch resultSeen = latch();
        CountDownLatch held = latch();
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                Sse sse = sse(ex);
                sse.event("e1", LOG);
                sse.event("e2", result);
            } else if (s.method().equals("GET")) {
                Sse sse = sse(ex);
                resultSeen.await(10, TimeUnit.SECONDS);
                sse.event("e1", LOG);
                sse.event("e3", later);
                held.await(30, TimeUnit.SECONDS);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        FutureTask<Void> companion = companion();
        send(INITIALIZED);
        server.next("GET", null);
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"x\"}}");
        assertEquals(LOG, line());
        assertEquals(result, line());
        resultSeen.countDown();
        assertEquals(later, line());
        assertEquals(0, end());
        assertNull(companion.get(10, TimeUnit.SECONDS));
        assertTrue(lines.isEmpty(), "the replayed notification reached the host again: " + lines);
    }

    @Test
    void resumptionThatNeverBringsTheResponseEndsInAnError() throws Exception {
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                sse(ex).raw("id: q0\nretry: 1\ndata:\n\n");
            } else if (s.method().equals("GET")) {
                sse(ex).raw(": nothing new\n\n");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\"}");
        assertEquals(error("8", "upstream closed the event stream before answering, and resuming it failed 3 times"),
                line());
        for (int i = 0; i < 3; i++) {
            assertEquals("q0", server.next("GET", null).header("last-event-id"));
        }
        assertEquals(0, end());
    }

    @Test
    void sessionEndedByTheServerFailsThatRequestAndEveryLaterOne() throws Exception {
        server.route = (ex, s) -> {
            if ("tools/list".equals(s.rpcMethod()) && s.header("mcp-session-id") != null) {
                status(ex, 404);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(error("2", Link.SESSION_ENDED), line());
        assertTrue(warning().startsWith("the server ended the MCP session"));
        server.next("POST", "tools/list");
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}");
        assertEquals(error("3", Link.SESSION_ENDED), line());
        send(INIT);
        assertEquals(error("1", Link.SESSION_ENDED), line());
        assertEquals(0, end());
        assertEquals(List.of(), FakeMcpServer.methods(drainSeen()), "nothing more was sent, not even a DELETE");
    }

    @Test
    void headerValuesNeverAppearInWarningsErrorsOrText() throws Exception {
        String secret = "Bearer tok-SECRET-987";
        server.route = (ex, s) -> {
            if ("tools/list".equals(s.rpcMethod())) {
                json(ex, 400, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,\"message\":\"bad auth "
                        + s.header("authorization") + "\"}}");
            } else if ("notifications/cancelled".equals(s.rpcMethod())) {
                json(ex, 500, "{\"error\":{\"message\":\"no: tok-SECRET-987\"}}");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start(URI.create(server.uri().toString().replace("//", "//alice:pw-SECRET-55@")),
                List.of(new HeaderSpec("Authorization", secret)), Duration.ofSeconds(5));
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        String refused = line();
        assertEquals(error("2", "upstream answered HTTP 400: bad auth <redacted>"), refused);
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":2}}");
        String warned = warning();
        assertEquals("could not deliver notification notifications/cancelled to the server:"
                + " upstream answered HTTP 500: no: <redacted>", warned);
        assertEquals(0, end());
        for (Seen s : drainSeen()) {
            assertEquals(secret, s.header("authorization"), "the header goes on every request: " + s.method());
        }
        List<String> shown = new ArrayList<>(List.of(refused, warned, upstream.toString(),
                new HeaderSpec("Authorization", secret).toString()));
        shown.add(assertThrows(IllegalArgumentException.class,
                () -> new HeaderSpec("Authorization", "tok-SECRET-987\r\nX: y")).getMessage());
        shown.add(assertThrows(IllegalArgumentException.class,
                () -> new HeaderSpec("Mcp-Session-Id", "tok-SECRET-987")).getMessage());
        shown.addAll(lines);
        shown.addAll(warnings);
        for (String text : shown) {
            assertFalse(text.contains("SECRET"), text);
        }
        assertEquals("HttpUpstream[http://127.0.0.1:" + server.uri().getPort() + "/mcp, headers=[Authorization]]",
                upstream.toString());
    }

    @Test
    void userInfoInTheUrlIsSentAsBasicAuthorization() throws Exception {
        start(URI.create(server.uri().toString().replace("//", "//alice:pw@")), List.of(), Duration.ofSeconds(5));
        initialize();
        Seen init = server.next("POST", "initialize");
        assertEquals("Basic " + Base64.getEncoder().encodeToString("alice:pw".getBytes(StandardCharsets.UTF_8)),
                init.header("authorization"));
        assertEquals(0, end());
    }

    @Test
    void hostLinesThatAreNoMessageAreAnsweredWithoutBotheringTheServer() throws Exception {
        start();
        send("this is not json");
        assertEquals("{\"error\":{\"code\":-32700,\"message\":\"Parse error: the line is not JSON\"},"
                + "\"id\":null,\"jsonrpc\":\"2.0\"}", line());
        send("[{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}]");
        assertTrue(line().startsWith("{\"error\":{\"code\":-32600,"));
        send("   ");
        assertEquals(0, end());
        assertTrue(lines.isEmpty(), lines.toString());
        assertTrue(drainSeen().isEmpty(), "nothing was POSTed");
    }

    @Test
    void requestStillOpenWhenTheDrainRunsOutIsAnsweredAndTheSessionDeleted() throws Exception {
        CountDownLatch never = latch();
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                sse(ex).event("x1", LOG);
                never.await(30, TimeUnit.SECONDS);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start(server.uri(), List.of(), Duration.ofMillis(100));
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        assertEquals(LOG, line());
        assertEquals(0, end());
        assertEquals(ServerEnd.CUT_OFF, upstream.serverEnd(), "the proxy gave up on the server's answer");
        assertEquals(error("9", Link.STOPPED_WAITING), line());
        assertTrue(warning().contains("still open"));
        assertEquals("s-1", server.next("DELETE", null).header("mcp-session-id"));
    }

    @Test
    void requestWhoseEventStreamStaysSilentIsAnsweredOnceTheDrainRunsOut() throws Exception {
        CountDownLatch never = latch();
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                sse(ex).out().flush(); // the headers go out at once, then nothing
                never.await(30, TimeUnit.SECONDS);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start(server.uri(), List.of(), Duration.ofMillis(100));
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        server.next("POST", "tools/call");
        assertEquals(0, end());
        assertEquals(error("9", Link.STOPPED_WAITING), line());
        assertTrue(warning().contains("still open"));
    }

    @Test
    void requestsTheHostCancelledAreFinishedAndTheEndDoesNotWaitForThem() throws Exception {
        CountDownLatch never = latch();
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                if (s.json().path("id").asInt() == 9) {
                    sse(ex).out().flush(); // the stream opens, and nothing comes
                }
                never.await(30, TimeUnit.SECONDS); // request 10: not even the headers
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        // A drain far longer than end() may take: a cancelled request must not be waited for.
        start(server.uri(), List.of(), Duration.ofSeconds(60));
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        send("{\"jsonrpc\":\"2.0\",\"id\":\"ten\",\"method\":\"tools/call\"}");
        server.next("POST", "tools/call");
        server.next("POST", "tools/call");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":9}}");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"reason\":\"x\","
                + "\"requestId\":\"ten\"}}");
        // Each POST has a thread of its own: the two may reach the server in either order.
        assertEquals(Set.of("9", "\"ten\""), Set.of(
                server.next("POST", "notifications/cancelled").json().path("params").path("requestId").toString(),
                server.next("POST", "notifications/cancelled").json().path("params").path("requestId").toString()),
                "the server is told");
        assertEquals(0, end());
        assertTrue(lines.isEmpty(), "a cancelled request gets no answer: " + lines);
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aCancellationNamingNoOpenRequestChangesNothing() throws Exception {
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"9\"}}");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":{\"id\":1}}}");
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        assertEquals(LOG, line());
        assertEquals("{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[]}}", line());
        assertEquals(0, end());
    }

    @ParameterizedTest
    @ValueSource(ints = {400, 404, 403})
    void aGetStreamRefusedWithAClientErrorIsNotAskedForAgain(int refusal) throws Exception {
        AtomicInteger gets = new AtomicInteger();
        server.route = (ex, s) -> {
            if (s.method().equals("GET")) {
                gets.incrementAndGet();
                status(ex, refusal);
            } else if ("initialize".equals(s.rpcMethod())) {
                // A stateless server: no session id.
                json(ex, 200, INIT_RESULT);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        FutureTask<Void> companion = companion();
        send(INITIALIZED);
        assertEquals("INFO the server answered HTTP " + refusal + " to the GET for its own event stream, so it has"
                + " none: what it sends outside the answers to requests cannot reach the host",
                said.poll(10, TimeUnit.SECONDS));
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}", line(), "requests still work");
        assertEquals(0, end());
        assertNull(companion.get(10, TimeUnit.SECONDS));
        assertEquals(1, gets.get(), "asked once");
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void aGetStreamFailingWithAServerErrorIsTriedAgain() throws Exception {
        AtomicInteger gets = new AtomicInteger();
        CountDownLatch thirdTry = new CountDownLatch(1);
        server.route = (ex, s) -> {
            if (s.method().equals("GET")) {
                if (gets.incrementAndGet() == 3) {
                    thirdTry.countDown();
                }
                status(ex, 503);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        FutureTask<Void> companion = companion();
        send(INITIALIZED);
        await(thirdTry, "the GET stream was not tried a third time");
        assertEquals("the server's own event stream could not be opened (HTTP 503); trying again with growing delays",
                warning());
        assertEquals(0, end());
        assertNull(companion.get(10, TimeUnit.SECONDS));
    }

    @Test
    void protocolVersionThatCannotBeAHeaderIsNotSentAndLaterRequestsAreStillAnswered() throws Exception {
        // A control character is valid in a JSON string but not in an HTTP header value: the
        // JDK client refuses to build the request, which must not leave the host waiting.
        String badInit = "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"protocolVersion\":\"2025-11-25\\u0001\","
                + "\"capabilities\":{},\"serverInfo\":{\"name\":\"fake\",\"version\":\"0\"}}}";
        server.route = (ex, s) -> {
            if ("initialize".equals(s.rpcMethod())) {
                json(ex, 200, badInit, "Mcp-Session-Id", "s-1");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        send(INIT);
        assertEquals(badInit, line());
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        Seen list = server.next("POST", "tools/list");
        assertEquals("s-1", list.header("mcp-session-id"));
        assertNull(list.header("mcp-protocol-version"));
        assertTrue(warning().contains("protocol version"));
        assertEquals(0, end());
    }

    @Test
    void jsonBodyWithAByteOrderMarkReachesTheHostWithoutIt() throws Exception {
        server.route = (ex, s) -> {
            if ("tools/list".equals(s.rpcMethod())) {
                json(ex, 200, "\uFEFF{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}");
            } else if ("tools/call".equals(s.rpcMethod())) {
                json(ex, 200, "\uFEFF{\n \"id\":3,\"jsonrpc\":\"2.0\",\"result\":{}\n}\n");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        send("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\"}");
        assertEquals("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        assertEquals(0, end());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void credentialQueryValuesOfTheUrlAreScrubbedLikeHeaderValues() throws Exception {
        server.route = (ex, s) -> {
            if ("tools/list".equals(s.rpcMethod())) {
                json(ex, 401, "{\"jsonrpc\":\"2.0\",\"error\":{\"code\":-32000,"
                        + "\"message\":\"api key qk-SECRET-31 expired\"}}");
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start(URI.create(server.uri() + "?region=eu&api_key=qk-SECRET-31"), List.of(), Duration.ofSeconds(5));
        initialize();
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals(error("2", "upstream answered HTTP 401: api key <redacted> expired"), line());
        assertEquals(0, end());
    }

    @Test
    void requestsAfterTheInitializedNotificationReachTheServerAfterIt() throws Exception {
        // Some servers (the Python SDK's) refuse requests that arrive before notifications/initialized.
        BlockingQueue<String> arrivals = new LinkedBlockingQueue<>();
        server.route = (ex, s) -> {
            if ("notifications/initialized".equals(s.rpcMethod())) {
                // Hold the 202 a while: a request POSTed meanwhile would overtake the notification.
                String overtaker = arrivals.poll(300, TimeUnit.MILLISECONDS);
                arrivals.add(overtaker == null ? "initialized accepted first" : "overtaken by " + overtaker);
                status(ex, 202);
            } else if ("tools/list".equals(s.rpcMethod())) {
                arrivals.add("tools/list");
                FakeMcpServer.standard(ex, s);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        send(INITIALIZED);
        send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
        assertEquals("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}", line());
        assertEquals("initialized accepted first", arrivals.poll(10, TimeUnit.SECONDS));
        assertEquals("tools/list", arrivals.poll(10, TimeUnit.SECONDS));
        assertEquals(0, end());
    }

    @Test
    void stopEndsTheServersSessionWithADeleteAndTellsTheHostNothing() throws Exception {
        CountDownLatch never = latch();
        CountDownLatch called = new CountDownLatch(1);
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                called.countDown();
                never.await(30, TimeUnit.SECONDS);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        FutureTask<Integer> end = new FutureTask<>(upstream::awaitEnd);
        Thread.ofVirtual().start(end);
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        await(called, "the call reached the server");
        upstream.stop();
        assertEquals("s-1", server.next("DELETE", null).header("mcp-session-id"));
        assertEquals(0, end.get(10, TimeUnit.SECONDS));
        assertEquals(ServerEnd.CUT_OFF, upstream.serverEnd(), "stopped with a call still open");
        assertTrue(lines.isEmpty(), lines.toString());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void abortEndsEverythingAtOnceAndTellsTheHostNothing() throws Exception {
        CountDownLatch never = latch();
        CountDownLatch called = new CountDownLatch(1);
        server.route = (ex, s) -> {
            if ("tools/call".equals(s.rpcMethod())) {
                called.countDown();
                never.await(30, TimeUnit.SECONDS);
            } else {
                FakeMcpServer.standard(ex, s);
            }
        };
        start();
        initialize();
        FutureTask<Integer> end = new FutureTask<>(upstream::awaitEnd);
        Thread.ofVirtual().start(end);
        FutureTask<Void> companion = companion();
        send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\"}");
        await(called, "the call reached the server");
        upstream.abort();
        assertEquals(0, end.get(10, TimeUnit.SECONDS));
        assertNull(companion.get(10, TimeUnit.SECONDS));
        assertTrue(lines.isEmpty(), lines.toString());
        assertTrue(warnings.isEmpty(), warnings.toString());
    }

    @Test
    void endpointMustBeHttpWithAHostAndTheErrorShowsOnlyTheLogForm() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> HttpUpstream.parseEndpoint("ftp://bob:hunter2@example.com/x?token=zzz"));
        assertFalse(e.getMessage().contains("hunter2"));
        assertFalse(e.getMessage().contains("zzz"));
        assertThrows(IllegalArgumentException.class, () -> HttpUpstream.parseEndpoint("example.com/mcp"));
        assertThrows(IllegalArgumentException.class, () -> HttpUpstream.parseEndpoint("http:// bad"));
        assertEquals(URI.create("https://example.com/mcp"), HttpUpstream.parseEndpoint(" https://example.com/mcp "));
    }
}
