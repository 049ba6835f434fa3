package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.BrowserOpener;
import dev.stretto.proxy.OAuthSettings;
import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.logging.Logger;
import java.io.IOException;
import java.net.BindException;
import java.net.URI;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.StringJoiner;

/**
 * One sign-in to an MCP server, as the MCP authorization spec has it: the protected resource's
 * metadata (and a check that it names this server), the authorization server's metadata (and a
 * check that it names the issuer it was looked for at), the scopes, a client (pre-registered, a
 * Client ID Metadata Document, an earlier registration, or a new dynamic registration), and
 * tokens: by the client credentials grant for a machine client, else by the authorization code
 * grant with PKCE (S256) through the person's browser and the loopback callback.
 */
final class SignIn {

    /** What a sign-in came to: the login to keep, and the authorization server it was made with. */
    record Result(StoredLogin login, ServerMetadata server) {
    }

    static final String CLIENT_NAME = "stretto-proxy";

    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final String where;
    private final OAuthSettings settings;
    private final BrowserOpener browser;
    private final OAuthHttp http;
    private final InstantSource clock;

    /** @param where the endpoint as messages name it (its log form) */
    SignIn(URI endpoint, String where, OAuthSettings settings, BrowserOpener browser, OAuthHttp http,
           InstantSource clock) {
        this.endpoint = endpoint;
        this.where = where;
        this.settings = settings;
        this.browser = browser;
        this.http = http;
        this.clock = clock;
    }

    /**
     * Signs in.
     *
     * @param challenge the server's challenge
     * @param previous  what was kept before (its client is used again), or null
     * @param stepUp    scopes to ask for besides the selection (a step-up), none for a first sign-in
     */
    Result run(Challenge challenge, StoredLogin previous, List<String> stepUp)
            throws IOException, InterruptedException {
        ResourceMetadata resource = ResourceMetadata.discover(http, endpoint, challenge.resourceMetadata());
        if (resource != null && !ResourceMetadata.covers(resource.resource(), endpoint)) {
            throw new AuthorizationFailedException("the server's protected resource metadata ("
                    + resource.url() + ") is for the resource " + Texts.shown(resource.resource(), 200)
                    + ", not for this server (" + where + "): refusing to sign in, as its tokens would be another"
                    + " server's");
        }
        boolean advertised = resource != null && !resource.authorizationServers().isEmpty();
        URI issuer = advertised ? resource.authorizationServers().getFirst() : endpoint.resolve("/");
        ServerMetadata server = ServerMetadata.discover(http, issuer);
        if (server == null) {
            if (advertised) {
                throw new AuthorizationFailedException("the authorization server " + issuer + " has no metadata at "
                        + ServerMetadata.candidates(issuer));
            }
            server = ServerMetadata.fallback(endpoint);
        } else if (advertised && !server.issuedBy(issuer)) {
            throw new AuthorizationFailedException("the metadata of the authorization server " + issuer
                    + " names another issuer (" + Texts.shown(server.issuer(), 200) + "): refusing to sign in there");
        }
        String resourceId = resource == null ? null : resource.resource();
        boolean machine = settings.clientCredentials() || (!server.grantTypes().contains("authorization_code")
                && server.grantTypes().contains("client_credentials") && settings.clientId() != null
                && (settings.clientSecret() != null || settings.clientKey() != null));
        List<String> scopes = scopes(challenge, resource, server, stepUp, previous, machine);
        String issuerId = server.issuer() != null ? server.issuer() : issuer.toString();
        StoredLogin.Client kept = previous != null && previous.issuer().equals(issuerId) ? previous.client() : null;

        if (machine) {
            StoredLogin.Client client = preRegistered();
            if (client == null) {
                throw new AuthorizationFailedException("a machine client needs its client id (--oauth-client-id)");
            }
            StoredLogin.Tokens tokens = new TokenEndpoint(http, server, client, settings.clientKey(), clock)
                    .clientCredentials(resourceId, scopes);
            Logger.info("signed in to {} as the client {} (client credentials){}", where, client.id(), scopesSaid(tokens));
            return new Result(new StoredLogin(endpoint, resourceId, issuerId, client, tokens), server);
        }
        if (server.authorizationEndpoint() == null) {
            throw new AuthorizationFailedException("the authorization server " + issuerId + " names no authorization"
                    + " endpoint, so nobody can sign in there with a browser"
                    + (server.grantTypes().contains("client_credentials")
                    ? " (it offers client credentials: give --oauth-client-id, a secret or key, and"
                    + " --oauth-client-credentials)" : ""));
        }
        if (server.fromMetadata() && (server.codeChallengeMethods() == null
                || !server.codeChallengeMethods().contains("S256"))) {
            throw new AuthorizationFailedException("the authorization server " + issuerId + " does not say it supports"
                    + " PKCE with S256 (code_challenge_methods_supported), which MCP requires: refusing to sign in");
        }
        String state = Pkce.random(32);
        try (LoopbackCallback callback = listen(kept, state)) {
            StoredLogin.Client client = client(server, kept, callback.redirectUri(), scopes);
            Pkce pkce = Pkce.create();
            URI url = authorizationUrl(server, client, callback.redirectUri(), pkce, state, scopes, resourceId);
            // A prompt, not a warning: whatever the log level, the person needs the URL to sign in.
            Logger.prompt("to sign in to {}, open this URL in a browser: {}", where, url);
            try {
                browser.open(url);
            } catch (IOException | RuntimeException e) {
                Logger.warn("could not open a browser ({}); open the URL above by hand", e.getMessage());
            }
            String code = callback.await(settings.loginTimeout(), where);
            StoredLogin.Tokens tokens = new TokenEndpoint(http, server, client, settings.clientKey(), clock)
                    .authorizationCode(code, pkce.verifier(), callback.redirectUri(), resourceId, scopes);
            Logger.info("signed in to {}{}", where, scopesSaid(tokens));
            return new Result(new StoredLogin(endpoint, resourceId, issuerId, client, tokens), server);
        }
    }

    /**
     * The scopes to ask for: {@code --oauth-scope}, else the challenge's, else the resource's
     * {@code scopes_supported}, else none; plus a step-up's and what was granted before; plus
     * {@code offline_access} where the authorization server offers it (for a refresh token).
     */
    private List<String> scopes(Challenge challenge, ResourceMetadata resource, ServerMetadata server,
                                List<String> stepUp, StoredLogin previous, boolean machine) {
        Set<String> out = new LinkedHashSet<>();
        if (!settings.scopes().isEmpty()) {
            out.addAll(settings.scopes());
        } else if (!challenge.scopes().isEmpty()) {
            out.addAll(challenge.scopes());
        } else if (resource != null && resource.scopesSupported() != null) {
            out.addAll(resource.scopesSupported());
        }
        if (!stepUp.isEmpty()) {
            if (previous != null && previous.tokens() != null) {
                out.addAll(previous.tokens().scopes());
            }
            out.addAll(stepUp);
        }
        if (!machine && server.supportsScope("offline_access")) {
            out.add("offline_access");
        }
        return List.copyOf(out);
    }

    private StoredLogin.Client preRegistered() {
        if (settings.clientId() == null) {
            return null;
        }
        return new StoredLogin.Client(settings.clientId(), settings.clientSecret(),
                settings.clientKey() != null ? "private_key_jwt" : null, List.of());
    }

    /**
     * The callback's listener: on {@code --oauth-callback-port}, else on the port the kept
     * registration names (its redirect URI must match), else on one the system picks.
     */
    private LoopbackCallback listen(StoredLogin.Client kept, String state) throws IOException {
        int port = settings.callbackPort();
        if (port != 0) {
            try {
                return LoopbackCallback.listen(port, state);
            } catch (BindException e) {
                throw new AuthorizationFailedException("the callback port " + port + " (--oauth-callback-port) is in"
                        + " use: cannot receive the sign-in");
            }
        }
        int registered = kept == null ? 0 : loopbackPort(kept.redirectUris());
        if (registered > 0) {
            try {
                return LoopbackCallback.listen(registered, state);
            } catch (BindException e) {
                Logger.debug("the registered callback port {} is in use; registering again", registered);
            }
        }
        return LoopbackCallback.listen(0, state);
    }

    /** The client to sign in as, registering one when there is none yet for {@code redirectUri}. */
    private StoredLogin.Client client(ServerMetadata server, StoredLogin.Client kept, String redirectUri,
                                      List<String> scopes) throws IOException, InterruptedException {
        StoredLogin.Client pre = preRegistered();
        if (pre != null) {
            return pre;
        }
        if (kept != null && (kept.redirectUris().isEmpty() || kept.redirectUris().contains(redirectUri))) {
            if (!kept.redirectUris().isEmpty() || server.clientMetadataDocuments()) {
                return kept;
            }
        }
        if (server.clientMetadataDocuments() && settings.clientMetadataUrl() != null) {
            return new StoredLogin.Client(settings.clientMetadataUrl().toString(), null, "none", List.of());
        }
        if (server.registrationEndpoint() == null) {
            throw new AuthorizationFailedException("the authorization server " + server.issuer() + " takes no dynamic"
                    + " client registration" + (server.clientMetadataDocuments()
                    ? " (it takes client metadata documents: give one's URL with --oauth-client-metadata-url)" : "")
                    + ": register a client there and give its id with --oauth-client-id");
        }
        return register(server, redirectUri, scopes);
    }

    /** Dynamic client registration (RFC 7591): a public client with this redirect URI. */
    private StoredLogin.Client register(ServerMetadata server, String redirectUri, List<String> scopes)
            throws IOException, InterruptedException {
        ObjectNode body = JSON.createObjectNode();
        body.put("client_name", CLIENT_NAME);
        body.putArray("redirect_uris").add(redirectUri);
        body.putArray("grant_types").add("authorization_code").add("refresh_token");
        body.putArray("response_types").add("code");
        body.put("token_endpoint_auth_method", "none");
        if (!scopes.isEmpty()) {
            body.put("scope", String.join(" ", scopes));
        }
        OAuthHttp.Answer a = http.postJson(server.registrationEndpoint(), body);
        JsonNode json = a.json();
        if (!a.ok() || json == null || !json.path("client_id").isTextual()) {
            throw new AuthorizationFailedException("the authorization server refused to register the proxy as a"
                    + " client (" + a.describe() + ")");
        }
        List<String> uris = new ArrayList<>();
        json.path("redirect_uris").forEach(u -> uris.add(u.asText()));
        if (uris.isEmpty()) {
            uris.add(redirectUri);
        }
        String secret = json.path("client_secret").isTextual() ? json.get("client_secret").textValue() : null;
        String method = json.path("token_endpoint_auth_method").isTextual()
                ? json.get("token_endpoint_auth_method").textValue() : null;
        Logger.info("registered with the authorization server of {} as the client {}", where,
                json.get("client_id").textValue());
        return new StoredLogin.Client(json.get("client_id").textValue(), secret, method, uris);
    }

    private static URI authorizationUrl(ServerMetadata server, StoredLogin.Client client, String redirectUri,
                                        Pkce pkce, String state, List<String> scopes, String resource) {
        StringJoiner q = new StringJoiner("&");
        q.add("response_type=code");
        q.add("client_id=" + OAuthHttp.encode(client.id()));
        q.add("redirect_uri=" + OAuthHttp.encode(redirectUri));
        q.add("code_challenge=" + pkce.challenge());
        q.add("code_challenge_method=S256");
        q.add("state=" + state);
        if (!scopes.isEmpty()) {
            q.add("scope=" + OAuthHttp.encode(String.join(" ", scopes)).replace("+", "%20"));
        }
        if (scopes.contains("offline_access")) {
            // OpenID Connect grants offline_access only with consent asked for.
            q.add("prompt=consent");
        }
        if (resource != null) {
            q.add("resource=" + OAuthHttp.encode(resource));
        }
        String base = server.authorizationEndpoint().toString();
        int hash = base.indexOf('#');
        if (hash >= 0) {
            base = base.substring(0, hash);
        }
        return URI.create(base + (base.contains("?") ? "&" : "?") + q);
    }

    private static int loopbackPort(List<String> uris) {
        for (String u : uris) {
            try {
                URI uri = new URI(u);
                if ("127.0.0.1".equals(uri.getHost()) && uri.getPort() > 0) {
                    return uri.getPort();
                }
            } catch (java.net.URISyntaxException ignored) {
                // not ours
            }
        }
        return 0;
    }

    private static String scopesSaid(StoredLogin.Tokens tokens) {
        return tokens.scopes().isEmpty() ? "" : " (scopes " + String.join(" ", tokens.scopes()) + ")";
    }
}
