package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.oauth.FollowingBrowser;
import dev.stretto.proxy.oauth.TestAuthServer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Whole sessions with an HTTP upstream that needs OAuth ({@link TestAuthServer} on 127.0.0.1):
 * the host's first request waits for the sign-in and is answered; tokens that expire are
 * refreshed during the session; a forged callback is refused and a callback that never comes
 * ends in a JSON-RPC error; and no token or secret, of any shape, reaches the log or the
 * messages, while the host gets the server's bytes as they are.
 */
class OAuthSessionTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static String request(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/list\"}\n";
    }

    /** The messages of a session. */
    static final class Said implements ProxyMessages {
        final List<String> lines = new CopyOnWriteArrayList<>();

        @Override
        public void message(Level level, String text) {
            lines.add(level + " " + text);
        }
    }

    private static OAuthSettings settings(FollowingBrowser browser, Path store) {
        return OAuthSettings.DEFAULT.withBrowser(browser).withStore(OAuthLogins.directoryStore(store))
                .withLoginTimeout(Duration.ofSeconds(20));
    }

    static Stream<Supplier<String>> tokenShapes() {
        Random random = new Random(21);
        return Stream.<Supplier<String>>of(
                // a JWT, as most servers issue
                () -> "eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ1c2VyLTE" + random.nextInt(1000) + "In0.c2lnbmF0dXJlLWJ5dGVz",
                // opaque base64 with the characters JSON and URLs treat specially
                () -> "AbC+/=" + Long.toHexString(random.nextLong()) + "+/==",
                // a GitHub-like token
                () -> "gho_" + Long.toString(random.nextLong() & Long.MAX_VALUE, 36) + "AbCdEfGhIjKlMnOp",
                // quote, backslash and a space (RFC 6749 allows any VSCHAR)
                () -> "q\"uo\\te sp-" + random.nextInt(100000),
                // a short one
                () -> "t" + (1000 + random.nextInt(9000)),
                // a long one
                () -> "L".repeat(2000) + random.nextInt(1000));
    }

    @ParameterizedTest
    @MethodSource("tokenShapes")
    void theFirstRequestWaitsForTheSignInAndNoTokenOfAnyShapeReachesTheLogOrTheMessages(Supplier<String> shape,
            @TempDir Path tmp) throws Exception {
        List<String> tokens = new CopyOnWriteArrayList<>();
        Supplier<String> recorded = () -> {
            String t = shape.get();
            tokens.add(t);
            return t;
        };
        try (TestAuthServer server = TestAuthServer.start().tokenShapes(recorded, recorded)
                .registersWithSecret("cs-" + new Random().nextInt(100000) + "-secret")) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            Said said = new Said();
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(server.mcp())
                            .withOAuth(settings(browser, tmp.resolve("auth"))))
                    .record(tmp.resolve("logs")).messages(said).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            SessionResult result = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Proxy.run(config,
                    new ByteArrayInputStream((request(1) + request(2)).getBytes(StandardCharsets.UTF_8)), out));
            assertEquals(0, result.exitStatus());
            List<String> answers = out.toString(StandardCharsets.UTF_8).lines().toList();
            assertEquals(2, answers.size(), answers.toString());
            String access = tokens.getFirst();
            for (String answer : answers) {
                assertEquals("Bearer " + access, JSON.readTree(answer).get("result").get("echo").asText(),
                        "the host gets what the server sent, the token included");
            }
            assertEquals(1, browser.opened.get());

            String log = Files.readString(result.logPath());
            List<String> secrets = new ArrayList<>(tokens);
            secrets.add(OAuthLogins.directoryStore(tmp.resolve("auth")).load(server.mcp()).orElseThrow().client().secret());
            for (String secret : secrets) {
                String escaped = JSON.writeValueAsString(secret);
                escaped = escaped.substring(1, escaped.length() - 1);
                assertFalse(log.contains(secret) || log.contains(escaped), "the log holds a secret: " + log);
                for (String line : said.lines) {
                    assertFalse(line.contains(secret), "a message holds a secret: " + line);
                }
            }
            for (String line : log.lines().toList()) {
                JSON.readTree(line);
            }
            assertTrue(log.lines().skip(2).anyMatch(l -> l.contains("\"echo\":\"Bearer <redacted>\"")), log);
            JsonNode header = JSON.readTree(log.lines().findFirst().orElseThrow());
            assertEquals("[\"" + server.mcp() + "\"]", header.get("server_command").toString());
            assertTrue(said.lines.stream().anyMatch(l -> l.startsWith("WARN to sign in to " + server.mcp()
                    + ", open this URL in a browser: " + server.base() + "/authorize?")), said.lines.toString());
        }
    }

    /**
     * The URL to sign in at reaches stderr whatever the level of the proxy's stderr messages
     * ({@code --log-level error} and {@code off} too), while the messages below that level do
     * not; it carries what the authorization request needs, and no secret and no token.
     */
    @ParameterizedTest
    @ValueSource(strings = {"ERROR", "WARN", "OFF"})
    void theSignInUrlReachesStderrWhateverTheLevel(String level, @TempDir Path tmp) throws Exception {
        ProxyMessages messages = level.equals("OFF") ? StderrMessages.promptsOnly()
                : StderrMessages.at(ProxyMessages.Level.valueOf(level));
        List<String> tokens = new CopyOnWriteArrayList<>();
        Supplier<String> recorded = () -> {
            String t = "tok-" + tokens.size() + "-" + new Random().nextInt(1_000_000);
            tokens.add(t);
            return t;
        };
        String secret = "cs-" + new Random().nextInt(100000) + "-secret";
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        String said;
        String prefix;
        try (TestAuthServer server = TestAuthServer.start().tokenShapes(recorded, recorded)
                .registersWithSecret(secret)) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(server.mcp())
                    .withOAuth(settings(browser, tmp.resolve("auth")))).messages(messages).build();
            prefix = "stretto-proxy: to sign in to " + server.mcp() + ", open this URL in a browser: " + server.base()
                    + "/authorize?";
            PrintStream stderr = System.err;
            System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
            try {
                SessionResult result = assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Proxy.run(config,
                        new ByteArrayInputStream(request(1).getBytes(StandardCharsets.UTF_8)),
                        new ByteArrayOutputStream()));
                assertEquals(0, result.exitStatus());
                assertTrue(StderrMessages.flush(Duration.ofSeconds(10)), "stderr took the messages");
            } finally {
                System.setErr(stderr);
            }
            assertEquals(1, browser.opened.get());
            said = err.toString(StandardCharsets.UTF_8);
        }
        // Only the URL: "signed in to ..." is at info, below each of these levels.
        List<String> lines = said.lines().toList();
        assertEquals(1, lines.size(), said);
        assertTrue(lines.getFirst().startsWith(prefix), said);
        Set<String> parameters = new TreeSet<>();
        for (String pair : lines.getFirst().substring(prefix.length()).split("&")) {
            parameters.add(pair.substring(0, pair.indexOf('=')));
        }
        assertTrue(Set.of("response_type", "client_id", "redirect_uri", "code_challenge", "code_challenge_method",
                "state", "scope", "resource").containsAll(parameters), parameters.toString());
        assertTrue(parameters.containsAll(Set.of("response_type", "client_id", "redirect_uri", "code_challenge",
                "code_challenge_method", "state", "resource")), parameters.toString());
        assertFalse(tokens.isEmpty());
        for (String s : tokens) {
            assertFalse(said.contains(s), "stderr holds a token: " + said);
        }
        assertFalse(said.contains(secret), "stderr holds the client secret: " + said);
    }

    @Test
    void tokensThatExpireDuringTheSessionAreRefreshedAndARevokedLoginSignsInAgain(@TempDir Path tmp)
            throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(server.mcp())
                    .withOAuth(settings(browser, tmp))).messages(ProxyMessages.discard()).build();
            Pipe pipe = Pipe.open();
            OutputStream toProxy = Channels.newOutputStream(pipe.sink());
            BlockingQueue<String> lines = new LinkedBlockingQueue<>();
            LineCollector fromProxy = new LineCollector(lines);
            Thread session = Thread.ofPlatform().start(() -> {
                try {
                    Proxy.run(config, Channels.newInputStream(pipe.source()), fromProxy);
                } catch (Exception e) {
                    lines.add("failed: " + e);
                }
            });
            try {
                toProxy.write(request(1).getBytes(StandardCharsets.UTF_8));
                String first = echo(lines.poll(30, TimeUnit.SECONDS));

                server.expireAccessTokens();
                toProxy.write(request(2).getBytes(StandardCharsets.UTF_8));
                String second = echo(lines.poll(30, TimeUnit.SECONDS));
                assertNotEquals(first, second);
                assertEquals(1, server.refreshes.get(), "refreshed, not signed in again");
                assertEquals(1, browser.opened.get());

                server.revokeAll();
                toProxy.write(request(3).getBytes(StandardCharsets.UTF_8));
                String third = echo(lines.poll(30, TimeUnit.SECONDS));
                assertTrue(server.valid(third));
                assertEquals(2, browser.opened.get(), "the refresh token was refused: a new sign-in");
            } finally {
                toProxy.close();
                session.join(Duration.ofSeconds(30));
            }
        }
    }

    private static String echo(String line) throws Exception {
        assertTrue(line != null && !line.startsWith("failed"), String.valueOf(line));
        return JSON.readTree(line).get("result").get("echo").asText();
    }

    @Test
    void aCallbackWithAnotherStateIsRefusedAndTheRealOneStillSignsIn(@TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FORGE_FIRST);
            Said said = new Said();
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(server.mcp())
                    .withOAuth(settings(browser, tmp))).messages(said).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Proxy.run(config,
                    new ByteArrayInputStream(request(1).getBytes(StandardCharsets.UTF_8)), out));
            assertEquals(List.of(400, 200), browser.statuses, "the forged callback was refused, the real one taken");
            assertTrue(server.valid(echo(out.toString(StandardCharsets.UTF_8).strip())));
            assertEquals(1, server.codeExchanges.get(), "the forged code was never exchanged");
            assertTrue(said.lines.stream().anyMatch(l -> l.contains("refused a sign-in callback whose state")),
                    said.lines.toString());
        }
    }

    /**
     * An authorization server whose metadata names a plain http endpoint off loopback: the
     * sign-in is refused before anything is sent there, and the host's error names the endpoint.
     */
    @ParameterizedTest
    @ValueSource(strings = {"token_endpoint", "authorization_endpoint", "registration_endpoint"})
    void anEndpointThatIsNotHttpsIsRefusedByName(String key, @TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start().metadata(key, "http://auth.example.com/x?client_secret=s1")) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.FOLLOW);
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(server.mcp())
                    .withOAuth(settings(browser, tmp))).messages(ProxyMessages.discard()).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Proxy.run(config,
                    new ByteArrayInputStream(request(7).getBytes(StandardCharsets.UTF_8)), out));
            JsonNode error = JSON.readTree(out.toString(StandardCharsets.UTF_8)).get("error");
            assertEquals(-32000, error.get("code").asInt());
            String what = switch (key) {
                case "token_endpoint" -> "the token endpoint";
                case "authorization_endpoint" -> "the authorization endpoint";
                default -> "the registration endpoint";
            };
            assertEquals("upstream needs a sign-in (OAuth), which failed: refusing to sign in: " + what
                    + " http://auth.example.com/x?client_secret=<redacted> is not HTTPS, which the MCP authorization"
                    + " spec requires of authorization servers (plain http is taken only on 127.0.0.1, [::1] and"
                    + " localhost)", error.get("message").asText());
            assertEquals(0, browser.opened.get());
            assertEquals(0, server.registrations.get());
            assertEquals(0, server.codeExchanges.get());
        }
    }

    @Test
    void aCallbackThatNeverComesEndsTheWaitWithAJsonRpcError(@TempDir Path tmp) throws Exception {
        try (TestAuthServer server = TestAuthServer.start()) {
            FollowingBrowser browser = new FollowingBrowser(FollowingBrowser.Mode.NOTHING);
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(server.mcp())
                    .withOAuth(settings(browser, tmp).withLoginTimeout(Duration.ofMillis(300))))
                    .messages(ProxyMessages.discard()).build();
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Proxy.run(config,
                    new ByteArrayInputStream(request(7).getBytes(StandardCharsets.UTF_8)), out));
            JsonNode error = JSON.readTree(out.toString(StandardCharsets.UTF_8)).get("error");
            assertEquals(-32000, error.get("code").asInt());
            assertTrue(error.get("message").asText().startsWith("upstream needs a sign-in (OAuth), which failed: the"
                    + " sign-in to " + server.mcp() + " did not come back within 300 ms"), error.toString());
            assertEquals(0, server.codeExchanges.get());
        }
    }
}
