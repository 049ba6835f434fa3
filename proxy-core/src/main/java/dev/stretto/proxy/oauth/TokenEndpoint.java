package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.jwt.JwtAssertion;
import java.io.IOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.security.PrivateKey;
import java.time.Instant;
import java.time.InstantSource;
import java.util.Arrays;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The authorization server's token endpoint, for one client: the authorization code grant
 * (with the PKCE verifier), refresh, and the client credentials grant, each with the RFC 8707
 * {@code resource} when there is one, and the client authenticated the way the server and the
 * client agree on: {@code private_key_jwt} with a key, else the method the registration gave,
 * else {@code client_secret_basic}, {@code client_secret_post} or {@code none} as the server
 * supports them (as the SDK's client chooses).
 */
final class TokenEndpoint {

    /** The token endpoint said no, with an OAuth error code. */
    static final class Refused extends AuthorizationFailedException {
        private final String error;

        Refused(String message, String error) {
            super(message);
            this.error = error;
        }

        /** The OAuth error code, or null. */
        String error() {
            return error;
        }
    }

    private final OAuthHttp http;
    private final ServerMetadata server;
    private final StoredLogin.Client client;
    private final PrivateKey key;
    private final InstantSource clock;

    TokenEndpoint(OAuthHttp http, ServerMetadata server, StoredLogin.Client client, PrivateKey key, InstantSource clock) {
        this.http = http;
        this.server = server;
        this.client = client;
        this.key = key;
        this.clock = clock;
    }

    StoredLogin.Tokens authorizationCode(String code, String verifier, String redirectUri, String resource,
                                         List<String> asked) throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "authorization_code");
        form.put("code", code);
        form.put("redirect_uri", redirectUri);
        form.put("code_verifier", verifier);
        putResource(form, resource);
        return tokens(post(form, "exchange the authorization code"), asked, null);
    }

    StoredLogin.Tokens refresh(StoredLogin.Tokens old, String resource) throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "refresh_token");
        form.put("refresh_token", old.refreshToken());
        putResource(form, resource);
        return tokens(post(form, "refresh the tokens"), old.scopes(), old.refreshToken());
    }

    StoredLogin.Tokens clientCredentials(String resource, List<String> scopes) throws IOException, InterruptedException {
        Map<String, String> form = new LinkedHashMap<>();
        form.put("grant_type", "client_credentials");
        if (!scopes.isEmpty()) {
            form.put("scope", String.join(" ", scopes));
        }
        putResource(form, resource);
        return tokens(post(form, "get tokens with the client credentials"), scopes, null);
    }

    /** The client authentication method used with this server. */
    String method() {
        List<String> supported = server.authMethods();
        boolean secret = client.secret() != null;
        if (key != null && (supported.isEmpty() || supported.contains("private_key_jwt"))) {
            return "private_key_jwt";
        }
        String registered = client.authMethod();
        if (registered != null && List.of("client_secret_basic", "client_secret_post", "none").contains(registered)
                && (supported.isEmpty() || supported.contains(registered))
                && (secret || registered.equals("none"))) {
            return registered;
        }
        if (supported.isEmpty()) {
            return secret ? "client_secret_basic" : "none";
        }
        if (secret && supported.contains("client_secret_basic")) {
            return "client_secret_basic";
        }
        if (secret && supported.contains("client_secret_post")) {
            return "client_secret_post";
        }
        if (supported.contains("none")) {
            return "none";
        }
        return secret ? "client_secret_post" : "none";
    }

    private static void putResource(Map<String, String> form, String resource) {
        if (resource != null) {
            form.put("resource", resource);
        }
    }

    private OAuthHttp.Answer post(Map<String, String> form, String what) throws IOException, InterruptedException {
        Map<String, String> headers = new LinkedHashMap<>();
        switch (method()) {
            case "private_key_jwt" -> {
                form.put("client_id", client.id());
                form.put("client_assertion_type", JwtAssertion.TYPE);
                String audience = server.issuer() != null ? server.issuer() : server.tokenEndpoint().toString();
                form.put("client_assertion", JwtAssertion.sign(client.id(), audience, key, clock.instant()));
            }
            case "client_secret_basic" -> {
                String pair = OAuthHttp.encode(client.id()) + ":" + OAuthHttp.encode(client.secret());
                headers.put("Authorization", "Basic "
                        + Base64.getEncoder().encodeToString(pair.getBytes(StandardCharsets.UTF_8)));
            }
            case "client_secret_post" -> {
                form.put("client_id", client.id());
                form.put("client_secret", client.secret());
            }
            default -> form.put("client_id", client.id());
        }
        URI endpoint = server.tokenEndpoint();
        OAuthHttp.Answer a = http.postForm(endpoint, form, headers);
        if (!a.ok()) {
            throw new Refused("the authorization server refused to " + what + " (" + a.describe() + ")", a.error());
        }
        return a;
    }

    private StoredLogin.Tokens tokens(OAuthHttp.Answer a, List<String> asked, String oldRefresh)
            throws AuthorizationFailedException {
        JsonNode json = a.json();
        if (json == null || !json.path("access_token").isTextual() || json.get("access_token").textValue().isEmpty()) {
            throw new AuthorizationFailedException("the authorization server's token answer holds no access token");
        }
        String type = json.path("token_type").asText("Bearer");
        if (!type.toLowerCase(Locale.ROOT).equals("bearer")) {
            throw new AuthorizationFailedException("the authorization server issued a token of type "
                    + Texts.shown(type, 30) + "; the proxy sends Bearer tokens only");
        }
        Instant now = clock.instant();
        Instant expires = null;
        if (json.path("expires_in").canConvertToLong() && json.get("expires_in").asLong() > 0) {
            expires = now.plusSeconds(json.get("expires_in").asLong());
        }
        String refresh = json.path("refresh_token").isTextual() ? json.get("refresh_token").textValue() : oldRefresh;
        List<String> scopes = json.path("scope").isTextual()
                ? Arrays.stream(json.get("scope").textValue().strip().split("\\s+")).filter(s -> !s.isEmpty()).toList()
                : asked;
        return new StoredLogin.Tokens(json.get("access_token").textValue(), refresh, now, expires, scopes);
    }
}
