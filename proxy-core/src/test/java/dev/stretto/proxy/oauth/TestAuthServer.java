package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Supplier;

/**
 * An MCP server that needs OAuth and its authorization server, on one port of 127.0.0.1, for
 * the tests: protected resource metadata, authorization server metadata, dynamic registration,
 * an authorization endpoint that approves at once (redirecting with a code and the state), a
 * token endpoint that checks PKCE and rotates refresh tokens (a refresh token used twice
 * revokes everything, as a server that detects reuse does), and {@code /mcp}, which answers
 * each request with the Authorization header it got ({@code {"result":{"echo":...}}}) and
 * anything without a valid token with 401.
 */
public final class TestAuthServer implements AutoCloseable {

    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    private final ExecutorService executor = Executors.newVirtualThreadPerTaskExecutor();
    private final Map<String, String[]> codes = new ConcurrentHashMap<>();
    private final Set<String> accessTokens = ConcurrentHashMap.newKeySet();
    private final Set<String> refreshTokens = ConcurrentHashMap.newKeySet();
    private final Set<String> usedRefreshTokens = ConcurrentHashMap.newKeySet();
    private final AtomicInteger serial = new AtomicInteger();

    /** How many of each the server saw. */
    public final AtomicInteger authorizations = new AtomicInteger();
    public final AtomicInteger codeExchanges = new AtomicInteger();
    public final AtomicInteger refreshes = new AtomicInteger();
    public final AtomicInteger reusedRefreshTokens = new AtomicInteger();
    public final AtomicInteger registrations = new AtomicInteger();
    public final AtomicInteger pkceFailures = new AtomicInteger();
    /** The resource parameters of the token requests. */
    public final List<String> tokenResources = new CopyOnWriteArrayList<>();
    /** The authorization requests' queries. */
    public final List<Map<String, String>> authorizationQueries = new CopyOnWriteArrayList<>();

    private volatile int expiresIn = 3600;
    private volatile Supplier<String> accessShape = () -> "at-" + serial.incrementAndGet() + "-" + Pkce.random(12);
    private volatile Supplier<String> refreshShape = () -> "rt-" + serial.incrementAndGet() + "-" + Pkce.random(12);
    private volatile String clientSecret;
    private final Map<String, String> metadataChanges = new ConcurrentHashMap<>();

    private TestAuthServer() throws IOException {
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 50);
        server.setExecutor(executor);
        server.createContext("/", this::handle);
        server.start();
    }

    public static TestAuthServer start() throws IOException {
        return new TestAuthServer();
    }

    public String base() {
        return "http://127.0.0.1:" + server.getAddress().getPort();
    }

    public URI mcp() {
        return URI.create(base() + "/mcp");
    }

    public TestAuthServer expiresIn(int seconds) {
        this.expiresIn = seconds;
        return this;
    }

    /** Tokens of these shapes from now on. */
    public TestAuthServer tokenShapes(Supplier<String> access, Supplier<String> refresh) {
        this.accessShape = access;
        this.refreshShape = refresh;
        return this;
    }

    /** Registrations get this secret (a confidential client) from now on. */
    public TestAuthServer registersWithSecret(String secret) {
        this.clientSecret = secret;
        return this;
    }

    /** Its metadata names {@code value} for the key {@code name} ({@code token_endpoint}, ...) from now on. */
    public TestAuthServer metadata(String name, String value) {
        metadataChanges.put(name, value);
        return this;
    }

    /** The access tokens stop working, as at their expiry; refresh tokens still work. */
    public void expireAccessTokens() {
        accessTokens.clear();
    }

    /** Every token stops working: a new sign-in is needed. */
    public void revokeAll() {
        accessTokens.clear();
        refreshTokens.clear();
    }

    /** The Authorization header of a valid token, or null. */
    public boolean valid(String authorization) {
        return authorization != null && authorization.startsWith("Bearer ")
                && accessTokens.contains(authorization.substring(7));
    }

    @Override
    public void close() {
        server.stop(0);
        executor.shutdownNow();
    }

    private void handle(HttpExchange ex) throws IOException {
        try (ex) {
            String path = ex.getRequestURI().getPath();
            byte[] body = ex.getRequestBody().readAllBytes();
            switch (path) {
                case "/mcp" -> mcp(ex, body);
                case "/.well-known/oauth-protected-resource/mcp" -> json(ex, 200, JSON.createObjectNode()
                        .put("resource", base() + "/mcp")
                        .set("authorization_servers", JSON.createArrayNode().add(base())));
                case "/.well-known/oauth-authorization-server" -> {
                    ObjectNode m = JSON.createObjectNode();
                    m.put("issuer", base());
                    m.put("authorization_endpoint", base() + "/authorize");
                    m.put("token_endpoint", base() + "/token");
                    m.put("registration_endpoint", base() + "/register");
                    m.set("code_challenge_methods_supported", JSON.createArrayNode().add("S256"));
                    m.set("grant_types_supported", JSON.createArrayNode().add("authorization_code").add("refresh_token"));
                    m.set("token_endpoint_auth_methods_supported", JSON.createArrayNode().add("none")
                            .add("client_secret_post"));
                    metadataChanges.forEach(m::put);
                    json(ex, 200, m);
                }
                case "/register" -> {
                    registrations.incrementAndGet();
                    JsonNode req = JSON.readTree(body);
                    ObjectNode r = JSON.createObjectNode().put("client_id", "client-" + serial.incrementAndGet());
                    r.set("redirect_uris", req.get("redirect_uris"));
                    if (clientSecret != null) {
                        r.put("client_secret", clientSecret);
                        r.put("token_endpoint_auth_method", "client_secret_post");
                    }
                    json(ex, 201, r);
                }
                case "/authorize" -> {
                    authorizations.incrementAndGet();
                    Map<String, String> q = form(ex.getRequestURI().getRawQuery());
                    authorizationQueries.add(q);
                    String code = "code-" + serial.incrementAndGet();
                    codes.put(code, new String[] {q.get("code_challenge"), q.get("redirect_uri")});
                    String location = q.get("redirect_uri") + "?code=" + code + "&state="
                            + java.net.URLEncoder.encode(q.get("state"), StandardCharsets.UTF_8);
                    ex.getResponseHeaders().set("Location", location);
                    ex.sendResponseHeaders(302, -1);
                }
                case "/token" -> token(ex, form(new String(body, StandardCharsets.UTF_8)));
                default -> {
                    ex.sendResponseHeaders(404, -1);
                }
            }
        }
    }

    private void token(HttpExchange ex, Map<String, String> f) throws IOException {
        tokenResources.add(String.valueOf(f.get("resource")));
        switch (String.valueOf(f.get("grant_type"))) {
            case "authorization_code" -> {
                codeExchanges.incrementAndGet();
                String[] issued = codes.remove(String.valueOf(f.get("code")));
                if (issued == null) {
                    error(ex, "invalid_grant", "unknown code");
                    return;
                }
                if (f.get("code_verifier") == null || !Pkce.challengeOf(f.get("code_verifier")).equals(issued[0])
                        || !issued[1].equals(f.get("redirect_uri"))) {
                    pkceFailures.incrementAndGet();
                    error(ex, "invalid_grant", "PKCE or redirect_uri mismatch");
                    return;
                }
                tokens(ex);
            }
            case "refresh_token" -> {
                refreshes.incrementAndGet();
                String rt = String.valueOf(f.get("refresh_token"));
                if (!usedRefreshTokens.add(rt)) {
                    // Reuse of a rotated refresh token: everything of the grant is revoked.
                    reusedRefreshTokens.incrementAndGet();
                    revokeAll();
                    error(ex, "invalid_grant", "refresh token reused");
                    return;
                }
                if (!refreshTokens.remove(rt)) {
                    error(ex, "invalid_grant", "refresh token revoked");
                    return;
                }
                tokens(ex);
            }
            default -> error(ex, "unsupported_grant_type", "no");
        }
    }

    private void tokens(HttpExchange ex) throws IOException {
        String access = accessShape.get();
        String refresh = refreshShape.get();
        accessTokens.add(access);
        refreshTokens.add(refresh);
        json(ex, 200, JSON.createObjectNode().put("access_token", access).put("token_type", "Bearer")
                .put("expires_in", expiresIn).put("refresh_token", refresh).put("scope", "mcp"));
    }

    private void mcp(HttpExchange ex, byte[] body) throws IOException {
        if (!ex.getRequestMethod().equals("POST")) {
            ex.sendResponseHeaders(ex.getRequestMethod().equals("DELETE") ? 200 : 405, -1);
            return;
        }
        String authorization = ex.getRequestHeaders().getFirst("Authorization");
        if (!valid(authorization)) {
            ex.getResponseHeaders().set("WWW-Authenticate", "Bearer error=\"invalid_token\", resource_metadata=\""
                    + base() + "/.well-known/oauth-protected-resource/mcp\"");
            json(ex, 401, JSON.createObjectNode().put("error", "invalid_token"));
            return;
        }
        JsonNode msg = JSON.readTree(body);
        if (!msg.has("id")) {
            ex.sendResponseHeaders(202, -1);
            return;
        }
        ObjectNode answer = JSON.createObjectNode().put("jsonrpc", "2.0");
        answer.set("id", msg.get("id"));
        answer.putObject("result").put("echo", authorization);
        json(ex, 200, answer);
    }

    private static void error(HttpExchange ex, String error, String description) throws IOException {
        json(ex, 400, JSON.createObjectNode().put("error", error).put("error_description", description));
    }

    private static void json(HttpExchange ex, int status, JsonNode json) throws IOException {
        byte[] b = JSON.writeValueAsBytes(json);
        ex.getResponseHeaders().set("Content-Type", "application/json");
        ex.sendResponseHeaders(status, b.length);
        try (OutputStream out = ex.getResponseBody()) {
            out.write(b);
        }
    }

    static Map<String, String> form(String raw) {
        Map<String, String> out = new HashMap<>();
        if (raw == null || raw.isEmpty()) {
            return out;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            out.put(URLDecoder.decode(eq < 0 ? pair : pair.substring(0, eq), StandardCharsets.UTF_8),
                    eq < 0 ? "" : URLDecoder.decode(pair.substring(eq + 1), StandardCharsets.UTF_8));
        }
        return out;
    }
}
