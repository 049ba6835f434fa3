package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * An authorization server's metadata (RFC 8414, or OpenID Connect Discovery), found at the
 * well-known URLs in the order the MCP spec gives: for an issuer with a path, {@code
 * /.well-known/oauth-authorization-server/PATH}, {@code /.well-known/openid-configuration/PATH},
 * {@code PATH/.well-known/openid-configuration}; for one without, {@code
 * /.well-known/oauth-authorization-server}, then {@code /.well-known/openid-configuration}. A
 * server of the 2025-03-26 revision that has none gets the default endpoints at its root
 * ({@link #fallback}).
 *
 * @param issuer                 the issuer it names (the URL it was looked for at, for the fallback)
 * @param authorizationEndpoint  where the person is sent to sign in, or null
 * @param tokenEndpoint          where codes and refresh tokens become tokens
 * @param registrationEndpoint   where clients register (RFC 7591), or null
 * @param scopesSupported        its scopes, or null when it names none
 * @param grantTypes             the grants it supports (RFC 8414's default when it names none)
 * @param authMethods            its token endpoint's client authentication methods, none when
 *                               it names none (then {@code client_secret_basic})
 * @param codeChallengeMethods   its PKCE methods, or null when it names none
 * @param clientMetadataDocuments whether it takes a Client ID Metadata Document's URL as a client id
 * @param fromMetadata           false for the fallback endpoints of a server without metadata
 */
record ServerMetadata(String issuer, URI authorizationEndpoint, URI tokenEndpoint, URI registrationEndpoint,
                      List<String> scopesSupported, List<String> grantTypes, List<String> authMethods,
                      List<String> codeChallengeMethods, boolean clientMetadataDocuments, boolean fromMetadata) {

    static List<URI> candidates(URI issuer) {
        String path = issuer.getRawPath() == null ? "" : issuer.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        URI origin = issuer.resolve("/");
        if (path.isEmpty()) {
            return List.of(origin.resolve("/.well-known/oauth-authorization-server"),
                    origin.resolve("/.well-known/openid-configuration"));
        }
        return List.of(origin.resolve("/.well-known/oauth-authorization-server" + path),
                origin.resolve("/.well-known/openid-configuration" + path),
                origin.resolve(path + "/.well-known/openid-configuration"));
    }

    /**
     * The metadata of the server at {@code issuer}, or null when none of the URLs has any.
     *
     * @throws AuthorizationFailedException when a document is there but unusable (no token
     *                                      endpoint), or a URL is not HTTPS ({@link HttpsOnly})
     */
    static ServerMetadata discover(OAuthHttp http, URI issuer) throws IOException, InterruptedException {
        for (URI url : candidates(issuer)) {
            HttpsOnly.require(url, "the authorization server metadata URL");
            OAuthHttp.Answer a = http.get(url);
            if (a.ok() && a.json() != null && a.json().isObject()) {
                return parse(url, a.json());
            }
        }
        return null;
    }

    /**
     * The default endpoints of a 2025-03-26 server without metadata: /authorize, /token, /register at its root.
     *
     * @throws AuthorizationFailedException when they are not HTTPS ({@link HttpsOnly})
     */
    static ServerMetadata fallback(URI base) throws AuthorizationFailedException {
        URI root = base.resolve("/");
        String issuer = root.toString();
        return new ServerMetadata(issuer.endsWith("/") ? issuer.substring(0, issuer.length() - 1) : issuer,
                root.resolve("/authorize"), root.resolve("/token"), root.resolve("/register"), null,
                List.of("authorization_code", "refresh_token"), List.of(), List.of("S256"), false, false).secure();
    }

    /** These endpoints, once each is HTTPS ({@link HttpsOnly}). */
    private ServerMetadata secure() throws AuthorizationFailedException {
        if (authorizationEndpoint != null) {
            HttpsOnly.require(authorizationEndpoint, "the authorization endpoint");
        }
        HttpsOnly.require(tokenEndpoint, "the token endpoint");
        if (registrationEndpoint != null) {
            HttpsOnly.require(registrationEndpoint, "the registration endpoint");
        }
        return this;
    }

    private static ServerMetadata parse(URI url, JsonNode json) throws AuthorizationFailedException {
        URI token = uri(json, "token_endpoint");
        if (token == null) {
            throw new AuthorizationFailedException("the authorization server's metadata at " + url
                    + " names no token endpoint");
        }
        List<String> grants = strings(json.get("grant_types_supported"));
        List<String> methods = strings(json.get("token_endpoint_auth_methods_supported"));
        return new ServerMetadata(json.path("issuer").isTextual() ? json.get("issuer").textValue() : null,
                uri(json, "authorization_endpoint"), token, uri(json, "registration_endpoint"),
                strings(json.get("scopes_supported")),
                grants == null ? List.of("authorization_code", "implicit") : grants,
                methods == null ? List.of() : methods,
                strings(json.get("code_challenge_methods_supported")),
                json.path("client_id_metadata_document_supported").asBoolean(false), true).secure();
    }

    boolean supportsScope(String scope) {
        return scopesSupported != null && scopesSupported.contains(scope);
    }

    /** Whether the issuer it names is {@code expected} (a trailing slash aside). */
    boolean issuedBy(URI expected) {
        return issuer != null && trimmed(issuer).equals(trimmed(expected.toString()));
    }

    private static String trimmed(String s) {
        return s.endsWith("/") ? s.substring(0, s.length() - 1) : s;
    }

    private static URI uri(JsonNode json, String name) {
        JsonNode v = json.get(name);
        if (v == null || !v.isTextual()) {
            return null;
        }
        try {
            URI u = new URI(v.textValue());
            return u.isAbsolute() && u.getHost() != null ? u : null;
        } catch (URISyntaxException e) {
            return null;
        }
    }

    /** The strings of a JSON array, or null when it is not an array. */
    static List<String> strings(JsonNode array) {
        if (array == null || !array.isArray()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        array.forEach(v -> {
            if (v.isTextual()) {
                out.add(v.textValue());
            }
        });
        return List.copyOf(out);
    }
}
