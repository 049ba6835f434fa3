package dev.stretto.demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

import java.io.IOException;
import java.io.InputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.net.SocketException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.stream.IntStream;
import java.util.stream.Stream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** The Streamable HTTP transport on a real socket on 127.0.0.1, driven by the JDK's HttpClient. */
class HttpTransportTest {
    private static final long WAIT_S = 20;
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";
    private static final String PING = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"ping\"}";
    private static final String HELLO_EVENT = "event: message\ndata: {\"jsonrpc\":\"2.0\",\"method\":"
            + "\"notifications/message\",\"params\":{\"data\":\"hello from the server's own stream\",\"level\":\"info\"}}\n\n";

    private final HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1)
            .connectTimeout(Duration.ofSeconds(WAIT_S)).build();
    private final List<HttpTransport> servers = new ArrayList<>();
    private URI endpoint;

    @AfterEach
    void stop() {
        servers.forEach(HttpTransport::close);
        client.close();
    }

    private URI start(World world, Optional<String> auth, Duration getLimit, McpHandler.Sleeper sleeper)
            throws IOException {
        McpHandler handler = new McpHandler(new ToolBox(world, Set.of(), Map.of()), sleeper);
        HttpTransport server = HttpTransport.start(handler, new InetSocketAddress("127.0.0.1", 0), auth, getLimit);
        servers.add(server);
        endpoint = server.endpoint();
        return endpoint;
    }

    private URI start(World world) throws IOException {
        return start(world, Optional.empty(), Duration.ofSeconds(60), Thread::sleep);
    }

    private HttpRequest.Builder request(String... headers) {
        HttpRequest.Builder b = HttpRequest.newBuilder(endpoint).timeout(Duration.ofSeconds(WAIT_S));
        for (int i = 0; i < headers.length; i += 2) {
            b.header(headers[i], headers[i + 1]);
        }
        return b;
    }

    private HttpResponse<String> post(String body, String... headers) throws Exception {
        return client.send(request(headers).header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private String[] session(String id) {
        return new String[] {"Mcp-Session-Id", id, "MCP-Protocol-Version", "2025-06-18"};
    }

    private String initialize() throws Exception {
        HttpResponse<String> r = post(INIT);
        assertEquals(200, r.statusCode(), r.body());
        return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static String transportError(String message) {
        return "{\"error\":{\"code\":-32000,\"message\":\"" + message + "\"},\"id\":null,\"jsonrpc\":\"2.0\"}";
    }

    private static String event(String json) {
        return "event: message\ndata: " + json + "\n\n";
    }

    private static String calling(String tool) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":\"calling " + tool
                + "\",\"level\":\"info\"}}";
    }

    private static void await(CountDownLatch latch, String what) throws InterruptedException {
        if (!latch.await(WAIT_S, TimeUnit.SECONDS)) {
            throw new AssertionError("timed out waiting for " + what);
        }
    }

    @Test
    void initializeOpensNumberedSessions() throws Exception {
        start(new EchoWorld());
        HttpResponse<String> first = post(INIT);
        assertEquals(200, first.statusCode());
        assertEquals(Optional.of("application/json"), first.headers().firstValue("Content-Type"));
        assertEquals(Optional.of("demo-session-1"), first.headers().firstValue("Mcp-Session-Id"));
        assertEquals("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"capabilities\":{\"tools\":{\"listChanged\":false}},"
                + "\"instructions\":\"A demo server for stretto-proxy: two tools that echo their arguments.\","
                + "\"protocolVersion\":\"2025-06-18\",\"serverInfo\":{\"name\":\"stretto-mcp-demo\",\"version\":\"0.1.0\"}}}",
                first.body());
        assertEquals(Optional.of("demo-session-2"), post(INIT).headers().firstValue("Mcp-Session-Id"));
    }

    @Test
    void endpointNamesTheBoundPort() throws Exception {
        URI uri = start(new EchoWorld());
        assertEquals("http", uri.getScheme());
        assertEquals("127.0.0.1", uri.getHost());
        assertTrue(uri.getPort() > 0);
        assertEquals("/mcp", uri.getPath());
    }

    @Test
    void notificationsAndClientResponsesGet202() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        HttpResponse<String> n = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}", session(id));
        assertEquals(202, n.statusCode());
        assertEquals("", n.body());
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":\"s-1\",\"result\":{}}", session(id));
        assertEquals(202, r.statusCode());
        assertEquals("", r.body());
    }

    @Test
    void otherRequestsGetAJsonBody() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        HttpResponse<String> ping = post(PING, session(id));
        assertEquals(200, ping.statusCode());
        assertEquals(Optional.of("application/json"), ping.headers().firstValue("Content-Type"));
        assertEquals("{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{}}", ping.body());
        HttpResponse<String> unknown = post("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"prompts/list\"}", session(id));
        assertEquals(200, unknown.statusCode());
        assertEquals("{\"error\":{\"code\":-32601,\"message\":\"Method not found: prompts/list\"},\"id\":3,"
                + "\"jsonrpc\":\"2.0\"}", unknown.body());
    }

    @Test
    void toolCallsAnswerOnAnEventStream() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        HttpResponse<String> r = post("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"update\",\"arguments\":{\"text\":\"hi\",\"fail\":true}}}", session(id));
        assertEquals(200, r.statusCode());
        assertEquals(Optional.of("text/event-stream"), r.headers().firstValue("Content-Type"));
        assertEquals(event(calling("update"))
                + event("{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"update failed, as asked: "
                + "{\\\"fail\\\":true,\\\"text\\\":\\\"hi\\\"}\",\"type\":\"text\"}],\"isError\":true}}"), r.body());

        HttpResponse<String> unknown = post("{\"jsonrpc\":\"2.0\",\"id\":8,\"method\":\"tools/call\",\"params\":"
                + "{\"name\":\"nope\"}}", session(id));
        assertEquals(event(calling("nope")) + event("{\"error\":{\"code\":-32602,\"message\":\"Unknown tool: nope\"},"
                + "\"id\":8,\"jsonrpc\":\"2.0\"}"), unknown.body());
    }

    @Test
    void laterPostsNeedALiveSessionAndTheAgreedVersion() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        HttpResponse<String> missing = post(PING);
        assertEquals(400, missing.statusCode());
        assertEquals(transportError("Bad Request: Mcp-Session-Id is missing; send initialize first and repeat the id "
                + "it returns"), missing.body());
        HttpResponse<String> unknown = post(PING, session("demo-session-99"));
        assertEquals(404, unknown.statusCode());
        assertEquals(transportError("Not Found: no live session demo-session-99"), unknown.body());
        HttpResponse<String> noVersion = post(PING, "Mcp-Session-Id", id);
        assertEquals(400, noVersion.statusCode());
        assertEquals(transportError("Bad Request: MCP-Protocol-Version must be 2025-06-18, the version agreed in "
                + "initialize (the header is missing)"), noVersion.body());
        HttpResponse<String> otherVersion = post(PING, "Mcp-Session-Id", id, "MCP-Protocol-Version", "2025-11-25");
        assertEquals(400, otherVersion.statusCode());
        assertEquals(transportError("Bad Request: MCP-Protocol-Version must be 2025-06-18, the version agreed in "
                + "initialize (got 2025-11-25)"), otherVersion.body());
        HttpResponse<String> note = post("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        assertEquals(400, note.statusCode(), "notifications need a session too");
        assertEquals(200, post(PING, session(id)).statusCode());
    }

    @Test
    void theVersionHeaderFollowsWhatInitializeAgreed() throws Exception {
        start(new EchoWorld());
        HttpResponse<String> init = post("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":"
                + "{\"protocolVersion\":\"2099-01-01\"}}");
        String id = init.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertTrue(init.body().contains("\"protocolVersion\":\"2025-11-25\""), init.body());
        assertEquals(200, post(PING, "Mcp-Session-Id", id, "MCP-Protocol-Version", "2025-11-25").statusCode());
        assertEquals(400, post(PING, session(id)).statusCode());
    }

    @Test
    void badBodiesGet400WithAJsonRpcError() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        for (String body : List.of("{not json", "")) {
            HttpResponse<String> r = post(body, session(id));
            assertEquals(400, r.statusCode(), body);
            assertEquals("{\"error\":{\"code\":-32700,\"message\":\"Parse error\"},\"id\":null,\"jsonrpc\":\"2.0\"}",
                    r.body());
        }
        HttpResponse<String> batch = post("[" + PING + "]", session(id));
        assertEquals(400, batch.statusCode());
        assertEquals("{\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null,\"jsonrpc\":\"2.0\"}",
                batch.body());
    }

    @Test
    void otherMethodsGet405AndOtherPaths404() throws Exception {
        start(new EchoWorld());
        HttpResponse<String> put = client.send(request().PUT(HttpRequest.BodyPublishers.ofString("{}")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(405, put.statusCode());
        assertEquals(Optional.of("GET, POST, DELETE"), put.headers().firstValue("Allow"));
        HttpResponse<String> other = client.send(HttpRequest.newBuilder(endpoint.resolve("/other"))
                .POST(HttpRequest.BodyPublishers.ofString(INIT)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, other.statusCode());
        HttpResponse<String> below = client.send(HttpRequest.newBuilder(endpoint.resolve("/mcp/x"))
                .POST(HttpRequest.BodyPublishers.ofString(INIT)).build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(404, below.statusCode());
    }

    @Test
    void requireAuthWantsTheExactAuthorizationValue() throws Exception {
        start(new EchoWorld(), Optional.of("Bearer s3cret"), Duration.ofSeconds(60), Thread::sleep);
        HttpResponse<String> none = post(INIT);
        assertEquals(401, none.statusCode());
        assertEquals(transportError("Unauthorized: wrong or missing Authorization"), none.body());
        assertEquals(401, post(INIT, "Authorization", "Bearer s3cre").statusCode());
        HttpResponse<String> ok = post(INIT, "Authorization", "Bearer s3cret");
        assertEquals(200, ok.statusCode());
        String id = ok.headers().firstValue("Mcp-Session-Id").orElseThrow();
        assertEquals(401, post(PING, session(id)).statusCode(), "every request, not just initialize");
        assertEquals(200, post(PING, "Authorization", "Bearer s3cret", "Mcp-Session-Id", id,
                "MCP-Protocol-Version", "2025-06-18").statusCode());
    }

    @Test
    void getStreamGreetsAndStaysOpenUntilDelete() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        HttpResponse<InputStream> get = client.send(request(session(id)).header("Accept", "text/event-stream")
                .GET().build(), HttpResponse.BodyHandlers.ofInputStream());
        assertEquals(200, get.statusCode());
        assertEquals(Optional.of("text/event-stream"), get.headers().firstValue("Content-Type"));
        try (InputStream body = get.body()) {
            byte[] greeting = body.readNBytes(HELLO_EVENT.getBytes(StandardCharsets.UTF_8).length);
            assertEquals(HELLO_EVENT, new String(greeting, StandardCharsets.UTF_8));
            CompletableFuture<Integer> next = CompletableFuture.supplyAsync(() -> {
                try {
                    return body.read();
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            });
            HttpResponse<String> delete = client.send(request(session(id)).DELETE().build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, delete.statusCode());
            assertEquals(-1, next.get(WAIT_S, TimeUnit.SECONDS), "the stream ends with its session");
        }
        assertEquals(404, post(PING, session(id)).statusCode(), "a deleted session is gone");
        assertEquals(404, client.send(request(session(id)).DELETE().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(404, client.send(request(session(id)).GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void getStreamClosesAfterItsTimeLimit() throws Exception {
        start(new EchoWorld(), Optional.empty(), Duration.ofMillis(100), Thread::sleep);
        String id = initialize();
        HttpResponse<String> get = client.send(request(session(id)).GET().build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, get.statusCode());
        assertEquals(HELLO_EVENT, get.body());
        assertEquals(200, post(PING, session(id)).statusCode(), "the session outlives its stream");
    }

    @Test
    void getAndDeleteNeedASession() throws Exception {
        start(new EchoWorld());
        assertEquals(400, client.send(request().GET().build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(400, client.send(request().DELETE().build(), HttpResponse.BodyHandlers.ofString()).statusCode());
        assertEquals(404, client.send(request("Mcp-Session-Id", "x").GET().build(),
                HttpResponse.BodyHandlers.ofString()).statusCode());
    }

    @Test
    void aSlowCallDoesNotHoldUpAFastOne() throws Exception {
        CountDownLatch fastAnswered = new CountDownLatch(1);
        // The slow call's wait ends only once the fast call, sent after it, has its answer.
        start(new EchoWorld(), Optional.empty(), Duration.ofSeconds(60), ms -> {
            if (ms == 300) {
                await(fastAnswered, "the fast call's answer");
            }
        });
        String id = initialize();
        CompletableFuture<HttpResponse<String>> slow = client.sendAsync(request(session(id))
                .POST(HttpRequest.BodyPublishers.ofString(echoCall(1, 300))).build(), HttpResponse.BodyHandlers.ofString());
        HttpResponse<String> fast = post(echoCall(2, 0), session(id));
        assertEquals(event(calling("lookup")) + event(echoAnswer(2, 0)), fast.body());
        fastAnswered.countDown();
        assertEquals(event(calling("lookup")) + event(echoAnswer(1, 300)), slow.get(WAIT_S, TimeUnit.SECONDS).body());
    }

    @Test
    void aSlowCallDoesNotHoldUpAFastOneInRealTime() throws Exception {
        start(new EchoWorld());
        String id = initialize();
        ConcurrentLinkedQueue<String> finished = new ConcurrentLinkedQueue<>();
        HttpResponse<InputStream> slow = client.send(request(session(id))
                .POST(HttpRequest.BodyPublishers.ofString(echoCall(1, 300))).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        // The headers are here, so the server is already running the slow call.
        CompletableFuture<String> slowBody = CompletableFuture.supplyAsync(() -> {
            try (InputStream in = slow.body()) {
                String body = new String(in.readAllBytes(), StandardCharsets.UTF_8);
                finished.add("slow");
                return body;
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        assertEquals(event(calling("lookup")) + event(echoAnswer(2, 0)), post(echoCall(2, 0), session(id)).body());
        finished.add("fast");
        assertEquals(event(calling("lookup")) + event(echoAnswer(1, 300)), slowBody.get(WAIT_S, TimeUnit.SECONDS));
        assertEquals(List.of("fast", "slow"), List.copyOf(finished));
    }

    @Test
    void aThousandParallelDelayedCallsAreAllAnswered() throws Exception {
        int calls = 1000;
        CountDownLatch allWaiting = new CountDownLatch(calls);
        // Each call's wait ends only once all of them are waiting at the same time.
        start(new EchoWorld(), Optional.empty(), Duration.ofSeconds(60), _ -> {
            allWaiting.countDown();
            await(allWaiting, "all " + calls + " calls to wait at once (" + allWaiting.getCount() + " missing)");
        });
        String id = initialize();
        List<CompletableFuture<HttpResponse<String>>> responses = IntStream.range(0, calls)
                .mapToObj(i -> client.sendAsync(request(session(id))
                        .POST(HttpRequest.BodyPublishers.ofString(echoCall(i, 200))).build(),
                        HttpResponse.BodyHandlers.ofString()))
                .toList();
        for (int i = 0; i < calls; i++) {
            HttpResponse<String> r = responses.get(i).get(2 * WAIT_S, TimeUnit.SECONDS);
            assertEquals(200, r.statusCode());
            assertEquals(event(calling("lookup")) + event(echoAnswer(i, 200)), r.body());
        }
    }

    /**
     * The JDK server closes a connection right after its response once {@code maxIdleConnections}
     * (200 by default) others are idle, without a {@code Connection: close}: a client that has
     * just pooled it may send its next POST there and get only an EOF. A burst of a thousand
     * parallel calls leaves a thousand connections idle at once, so every one must stay usable.
     */
    @Test
    void connectionsStayOpenForTheNextRequestWhenManyAreIdle() throws Exception {
        int connections = 250;
        start(new EchoWorld());
        String id = initialize();
        List<Socket> sockets = new ArrayList<>();
        try {
            for (int i = 0; i < connections; i++) {
                Socket socket = new Socket(endpoint.getHost(), endpoint.getPort());
                socket.setSoTimeout((int) TimeUnit.SECONDS.toMillis(WAIT_S));
                sockets.add(socket);
                // Answered in full, so the server now counts this connection as idle.
                assertEquals(pingAnswer(i), rawPost(socket, id, i), "first request on connection " + i);
            }
            for (int i = 0; i < connections; i++) {
                assertEquals(pingAnswer(connections + i), rawPost(sockets.get(i), id, connections + i),
                        "second request on connection " + i);
            }
        } finally {
            for (Socket socket : sockets) {
                socket.close();
            }
        }
    }

    /** One keep-alive POST of a ping on {@code socket}; the answer's body, or "EOF" when the server closed it. */
    private String rawPost(Socket socket, String session, int id) throws IOException {
        byte[] body = ("{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"ping\"}").getBytes(StandardCharsets.UTF_8);
        String head = "POST " + HttpTransport.PATH + " HTTP/1.1\r\nHost: " + endpoint.getAuthority()
                + "\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream"
                + "\r\nMcp-Session-Id: " + session + "\r\nMCP-Protocol-Version: 2025-06-18"
                + "\r\nContent-Length: " + body.length + "\r\n\r\n";
        try {
            // One write: a second small one would wait for the server's delayed ACK.
            byte[] request = Arrays.copyOf(head.getBytes(StandardCharsets.US_ASCII), head.length() + body.length);
            System.arraycopy(body, 0, request, head.length(), body.length);
            socket.getOutputStream().write(request);
        } catch (SocketException closed) {
            return "EOF";
        }
        InputStream in = socket.getInputStream();
        StringBuilder headers = new StringBuilder();
        while (!headers.toString().endsWith("\r\n\r\n")) {
            int b;
            try {
                b = in.read();
            } catch (SocketException reset) {
                return "EOF";
            }
            if (b < 0) {
                return "EOF";
            }
            headers.append((char) b);
        }
        int length = -1;
        for (String line : headers.toString().split("\r\n")) {
            if (line.toLowerCase(Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring("content-length:".length()).strip());
            }
        }
        assertTrue(headers.toString().startsWith("HTTP/1.1 200 "), headers.toString());
        return new String(in.readNBytes(length), StandardCharsets.UTF_8);
    }

    private static String pingAnswer(int id) {
        return "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{}}";
    }

    private static String echoCall(int id, int delay) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
                + "\"arguments\":{\"delay_ms\":" + delay + "}}}";
    }

    private static String echoAnswer(int id, int delay) {
        return "{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"{\\\"delay_ms\\\":" + delay
                + "}\",\"type\":\"text\"}],\"isError\":false}}";
    }

    static Stream<ReferenceLogs> logs() {
        return ReferenceLogs.all();
    }

    /** The reference's recorded sessions over HTTP: the same answers, as JSON bodies or the stream's last event. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("logs")
    void retailAnswersMatchTheReferenceOverHttp(ReferenceLogs log) throws Exception {
        start(new RetailWorld());
        List<String> answers = new ArrayList<>();
        String[] headers = {};
        for (String message : log.toServer()) {
            HttpResponse<String> r = post(message, headers);
            if (message.contains("\"method\":\"initialize\"")) {
                headers = session(r.headers().firstValue("Mcp-Session-Id").orElseThrow());
            }
            switch (r.statusCode()) {
                case 202 -> assertTrue(!message.contains("\"id\":"), message);
                case 200 -> {
                    String body = r.body();
                    if (r.headers().firstValue("Content-Type").orElseThrow().equals("text/event-stream")) {
                        String[] events = body.split("\n\n");
                        assertEquals(2, events.length, body);
                        answers.add(events[1].substring("event: message\ndata: ".length()));
                    } else {
                        answers.add(body);
                    }
                }
                default -> throw new AssertionError(r.statusCode() + " " + r.body());
            }
        }
        assertEquals(log.fromServer(), answers);
    }
}
