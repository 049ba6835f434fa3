package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.UnaryOperator;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Hostile requests against a listener with a token and an allowed origin, each a valid request
 * with one thing wrong (a header of a foreign host or origin, a wrong token, a session id that
 * is not one, a version, an event id, a host session that would climb out of its directory, a
 * body that is no message), written by hand so that anything can be sent: each is refused
 * with the status that names what is wrong, its error is JSON, none of them reaches the
 * server (the session log has only what was valid), and the listener serves valid requests
 * after them. Then bodies drawn at random, each refused or taken as the message it is.
 */
@Timeout(120)
class ListenHostileInputTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String TOKEN = "tok-Secret.1";

    @TempDir
    Path logs;

    private McpListener listener;
    private int port;
    private String session;
    private final BlockingQueue<SessionResult> ended = new LinkedBlockingQueue<>();

    @BeforeEach
    void listen() throws Exception {
        listener = McpListener.start(ListenConfig.builder(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
                        s -> {
                            try {
                                return ProxyConfig.builder(ScriptedServer.spec()).record(logs)
                                        .messages(ProxyMessages.discard()).build();
                            } catch (Exception e) {
                                throw new ProxyStartException(e.toString(), e);
                            }
                        })
                .token(TOKEN)
                .allowOrigin("https://app.example.com")
                .limits(new ListenConfig.Limits(8, 16, 64 * 1024, 64, 1 << 20))
                .events(new ListenEvents() {
                    @Override
                    public void ended(ListenSession s, SessionResult r) {
                        ended.add(r);
                    }
                })
                .messages(ProxyMessages.discard())
                .build());
        port = listener.address().getPort();
        RawHttp.Answer init = post(valid(null), ListenClient.INITIALIZE);
        assertEquals(200, init.status(), init.text());
        session = header(init.head(), "mcp-session-id");
        assertEquals(202, post(valid(session), "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}").status());
    }

    @AfterEach
    void stop() {
        listener.stop();
    }

    private static String header(String head, String name) {
        for (String line : head.split("\r\n")) {
            int colon = line.indexOf(':');
            if (colon > 0 && line.substring(0, colon).equalsIgnoreCase(name)) {
                return line.substring(colon + 1).strip();
            }
        }
        throw new AssertionError("no " + name + " in " + head);
    }

    private List<String> valid(String sessionId) {
        List<String> h = new ArrayList<>(List.of("Host: 127.0.0.1:" + port, "Authorization: Bearer " + TOKEN,
                "Content-Type: application/json", "Accept: application/json"));
        if (sessionId != null) {
            h.add("Mcp-Session-Id: " + sessionId);
        }
        return h;
    }

    private RawHttp.Answer post(List<String> headers, String body) throws Exception {
        return RawHttp.send(port, "POST", "/mcp", headers, body.getBytes(StandardCharsets.UTF_8));
    }

    private static UnaryOperator<List<String>> replacing(String name, String... values) {
        return headers -> {
            List<String> out = new ArrayList<>();
            for (String h : headers) {
                if (!h.regionMatches(true, 0, name + ":", 0, name.length() + 1)) {
                    out.add(h);
                }
            }
            for (String v : values) {
                out.add(name + ": " + v);
            }
            return out;
        };
    }

    private static UnaryOperator<List<String>> without(String name) {
        return replacing(name);
    }

    private void assertRefused(Set<Integer> statuses, RawHttp.Answer a, String what) throws Exception {
        assertTrue(statuses.contains(a.status()), what + ": " + a.status() + " " + a.text());
        if (!a.text().isEmpty() && a.head().toLowerCase().contains("application/json")) {
            JsonNode error = JSON.readTree(a.body());
            assertTrue(error.path("error").path("code").isInt(), what + ": " + a.text());
        }
        assertFalse(a.text().contains(TOKEN), what + " shows the token");
    }

    @Test
    void eachRequestWithOneThingWrongIsRefusedForThatAndReachesNoServer() throws Exception {
        String call = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"echo\","
                + "\"arguments\":{}}}";
        List<UnaryOperator<List<String>>> hosts = new ArrayList<>();
        for (String host : List.of("evil.example.com", "localhost.evil.com", "127.0.0.1.nip.io", "", "[::2]:1",
                "127.0.0.1:abc", "localhost:9999999", "[::1", "local host")) {
            hosts.add(replacing("Host", host));
        }
        hosts.add(replacing("Host", "127.0.0.1:" + port, "evil.example.com"));
        for (UnaryOperator<List<String>> m : hosts) {
            assertRefused(Set.of(400, 403), post(m.apply(valid(session)), call), "host " + m.apply(List.of()));
        }
        for (String origin : List.of("null", "http://evil.example", "https://app.example.com.evil.com",
                "https://app.example.com:444", "file://", "http://localhost@evil.com", "javascript:alert(1)",
                "http://127.0.0.1.evil.com")) {
            assertRefused(Set.of(403), post(replacing("Origin", origin).apply(valid(session)), call), "origin " + origin);
        }
        assertRefused(Set.of(400), post(replacing("Origin", "https://app.example.com", "http://evil.example")
                .apply(valid(session)), call), "two origins");
        List<UnaryOperator<List<String>>> tokens = new ArrayList<>(List.of(without("Authorization")));
        for (String auth : List.of("Bearer", "Bearer ", "Bearer tok-Secret.2", "Bearer " + TOKEN + "x",
                "Bearer " + TOKEN.substring(1), "Basic dG9rLVNlY3JldC4x", TOKEN, "Bearer " + TOKEN + " extra",
                "Bearer " + TOKEN.toUpperCase())) {
            tokens.add(replacing("Authorization", auth));
        }
        tokens.add(replacing("Authorization", "Bearer " + TOKEN, "Bearer " + TOKEN));
        for (UnaryOperator<List<String>> m : tokens) {
            assertRefused(Set.of(401), post(m.apply(valid(session)), call), "token " + m.apply(List.of()));
        }
        String flipped = session.substring(0, 31) + (session.charAt(31) == 'a' ? 'b' : 'a');
        for (String id : List.of("0123456789abcdef0123456789abcdef", flipped, session.toUpperCase(), session + " x",
                "x".repeat(4000), "../" + session)) {
            if (!id.equals(session)) {
                assertRefused(Set.of(404), post(valid(id), call), "session " + id);
            }
        }
        assertRefused(Set.of(400), post(valid(null), call), "no session");
        assertRefused(Set.of(400), post(replacing("Mcp-Session-Id", session, session).apply(valid(null)), call),
                "the session twice");
        for (String version : List.of("2025-06-19", "", "x", "2025-06-18; drop", "2025-06-18, 2025-11-25")) {
            assertRefused(Set.of(400), post(replacing("MCP-Protocol-Version", version).apply(valid(session)), call),
                    "version " + version);
        }
        for (String body : List.of("", "{", "[]", "[1]", "{\"jsonrpc\":\"2.0\"}", "{\"jsonrpc\":\"1.0\",\"method\":\"x\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":{},\"method\":\"x\"}", "{\"jsonrpc\":\"2.0\",\"id\":[1],\"method\":\"x\"}",
                "{\"jsonrpc\":\"2.0\",\"id\":true,\"method\":\"x\"}", "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":7}",
                "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"x\",\"params\":\"s\"}", "{} {}", "nul", "\"just a string\"",
                "[".repeat(5000) + "]".repeat(5000), "{\"jsonrpc\":\"2.0\",\"id\":4}", "[" + ListenClient.INITIALIZE + "]",
                "\u0000\u0001\u0002", "{\"jsonrpc\":\"2.0\",\"id\":5,\"method\":\"x\"} trailing")) {
            assertRefused(Set.of(400), post(valid(session), body), "body " + body.substring(0, Math.min(40,
                    body.length())));
        }
        assertRefused(Set.of(413), post(valid(session), "{\"jsonrpc\":\"2.0\",\"id\":6,\"method\":\"x\",\"params\":{\"p\":\""
                + "x".repeat(70_000) + "\"}}"), "a body over the limit");
        assertRefused(Set.of(415), post(replacing("Content-Type", "text/plain").apply(valid(session)), call),
                "not JSON");
        assertRefused(Set.of(415), post(without("Content-Type").apply(valid(session)), call), "no content type");
        List<String> get = replacing("Accept", "text/event-stream").apply(valid(session));
        for (String id : List.of("-1", "0-", "x-1", "1-+1", "+1-1", "99999999999-1", "1-99999999999999999999", "0-5",
                "1-1-1", "", " ", "9-0")) {
            assertRefused(Set.of(400, 409), RawHttp.send(port, "GET", "/mcp",
                    replacing("Last-Event-ID", id).apply(get), null), "last event id " + id);
        }
        for (String hostSession : List.of("..", "../x", ".hidden", "a/b", "a b", "x".repeat(200), "é")) {
            assertRefused(Set.of(400), post(replacing("Stretto-Session", hostSession).apply(valid(null)),
                    ListenClient.INITIALIZE), "host session " + hostSession);
        }
        assertRefused(Set.of(404), post(valid("0123456789abcdef0123456789abcdef"), ListenClient.INITIALIZE),
                "initialize of an unknown session");
        assertRefused(Set.of(404), RawHttp.send(port, "POST", "/other", valid(session), call.getBytes()), "another path");
        assertRefused(Set.of(405), RawHttp.send(port, "PUT", "/mcp", valid(session), call.getBytes()), "PUT");

        // The listener still serves, and the server got only what was valid.
        RawHttp.Answer ok = post(valid(session), call);
        assertEquals(200, ok.status(), ok.text());
        assertEquals(200, RawHttp.send(port, "DELETE", "/mcp", valid(session), null).status());
        SessionResult r = ended.poll(30, TimeUnit.SECONDS);
        assertEquals(List.of("initialize", "notifications/initialized", "tools/call"), clientMethods(r.logPath()));
        try (var files = Files.list(logs)) {
            assertEquals(1, files.count(), "only the one session was ever made");
        }
    }

    private static List<String> clientMethods(Path log) throws Exception {
        List<String> out = new ArrayList<>();
        for (String line : Files.readAllLines(log).subList(1, Files.readAllLines(log).size())) {
            JsonNode e = JSON.readTree(line);
            if (e.path("from").asText().equals("client")) {
                out.add(e.path("message").path("method").asText());
            }
        }
        return out;
    }

    @Test
    void bodiesDrawnAtRandomAreEachRefusedOrTakenAsTheMessageTheyAre() throws Exception {
        Random random = new Random(23);
        String[] pieces = {"{", "}", "[", "]", ",", ":", "\"jsonrpc\"", "\"2.0\"", "\"id\"", "\"method\"", "\"params\"",
                "\"result\"", "\"error\"", "1", "-0", "1e999", "null", "true", "\"ping\"", "\"x\\u0000\"", " ", "\n",
                "\"_meta\"", "\"progressToken\"", "\"tools/call\"", "\"initialize\"", "\uD83D\uDE00", "\\"};
        int refused = 0;
        for (int i = 0; i < 400; i++) {
            StringBuilder body = new StringBuilder();
            if (random.nextBoolean()) {
                body.append("{\"jsonrpc\":\"2.0\",");
            }
            int n = random.nextInt(12);
            for (int j = 0; j < n; j++) {
                body.append(pieces[random.nextInt(pieces.length)]);
            }
            RawHttp.Answer a = post(valid(session), body.toString());
            assertTrue(Set.of(200, 202, 400).contains(a.status()), body + " -> " + a.status() + " " + a.text());
            if (a.status() == 400) {
                refused++;
                int code = JSON.readTree(a.body()).path("error").path("code").asInt();
                assertTrue(code == -32700 || code == -32600 || code == -32000, body + " -> " + a.text());
            } else {
                JsonNode message = JSON.readTree(body.toString());
                assertEquals("2.0", message.isArray() ? message.get(0).path("jsonrpc").asText()
                        : message.path("jsonrpc").asText(), "taken, so it is a message: " + body);
            }
        }
        assertTrue(refused > 300, "most random bodies are no message: " + refused);
        RawHttp.Answer ok = post(valid(session), "{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"method\":\"ping\"}");
        assertEquals(200, ok.status(), ok.text());
        assertEquals("{\"jsonrpc\":\"2.0\",\"id\":\"after\",\"result\":{}}", ok.text());
    }
}
