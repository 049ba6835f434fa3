package dev.stretto.proxy;

import dev.stretto.proxy.jwt.PemKeys;
import java.net.URI;
import java.security.PrivateKey;
import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Objects;

/**
 * How a session signs in to a Streamable HTTP server that needs OAuth (the MCP authorization
 * of revisions 2025-06-18 and 2025-11-25), part of {@link UpstreamSpec.Http}. When {@link
 * #enabled()}, a 401 from the server (or a 403 with {@code insufficient_scope}) starts the
 * flow: discovery of the protected resource's and the authorization server's metadata, a
 * client (the pre-registered {@link #clientId()}, a Client ID Metadata Document, or dynamic
 * registration), tokens by the authorization code grant with PKCE through the person's browser
 * and a loopback callback, or by the client credentials grant for a machine client; then the
 * request is sent again. The host's requests wait while it runs, up to {@link
 * #loginTimeout()}. Tokens are kept in the {@link #store()} and refreshed before they expire.
 *
 * <p>The client secret and key are secrets: {@link #toString()} does not show them.
 *
 * @param enabled           whether the proxy signs in at all; without it a 401 is an error
 *                          the host gets, as any other status
 * @param clientId          a client id registered with the authorization server beforehand
 *                          ({@code --oauth-client-id}), or null to use a metadata document or
 *                          register dynamically
 * @param clientSecret      that client's secret ({@code --oauth-client-secret-file}), or null
 * @param clientMetadataUrl the https URL of the proxy's Client ID Metadata Document, used as
 *                          the client id where the authorization server supports such
 *                          documents, or null
 * @param clientKey         a private key to authenticate at the token endpoint with a signed
 *                          JWT ({@code private_key_jwt}, RFC 7523; EC P-256/384/521, RSA or
 *                          Ed25519), or null
 * @param scopes            the scopes to ask for in place of those the spec's selection gives
 *                          (the server's challenge, else its metadata); none for that selection.
 *                          A challenge for more ({@code insufficient_scope}) still adds its own.
 * @param callbackPort      the loopback port of the callback ({@code
 *                          http://127.0.0.1:PORT/callback}), or 0 for the port of the earlier
 *                          registration, else one the system picks
 * @param browser           how the person is shown the authorization URL, or null for the
 *                          machine's own way ({@code $BROWSER}, {@code open} on macOS, {@code
 *                          xdg-open})
 * @param store             where logins are kept, or null for {@code ~/.stretto/auth} under the
 *                          session's {@link HostEnvironment#home()} (memory when no home is known)
 * @param loginTimeout      how long a sign-in may take before the requests waiting for it are
 *                          answered with an error
 * @param clientCredentials a machine client: tokens come from the client credentials grant
 *                          with the client's secret or key, never from a browser
 */
public record OAuthSettings(boolean enabled, String clientId, String clientSecret, URI clientMetadataUrl,
                            PrivateKey clientKey, List<String> scopes, int callbackPort, BrowserOpener browser,
                            TokenStore store, Duration loginTimeout, boolean clientCredentials) {

    /** How long a sign-in may take by default. */
    public static final Duration DEFAULT_LOGIN_TIMEOUT = Duration.ofMinutes(5);

    /** Signing in with everything chosen as the spec says, the system's browser, the default store. */
    public static final OAuthSettings DEFAULT = new OAuthSettings(true, null, null, null, null, List.of(), 0, null, null,
            DEFAULT_LOGIN_TIMEOUT, false);

    /** No signing in: a 401 is passed on as an error, as any other status. */
    public static final OAuthSettings OFF = DEFAULT.withEnabled(false);

    /**
     * Checks the settings.
     *
     * @throws IllegalArgumentException when the client id or a scope is blank or holds a space
     *                                  or control character, the metadata URL is not an https URL
     *                                  with a path, the port is out of range, the timeout not
     *                                  positive, or a client credentials client has neither a
     *                                  secret nor a key, or no client id
     */
    public OAuthSettings {
        if (clientId != null && (clientId.isBlank() || clientId.chars().anyMatch(c -> c < 0x20 || c == 0x7F))) {
            throw new IllegalArgumentException("the OAuth client id is blank or holds a control character");
        }
        if (clientSecret != null && clientSecret.isEmpty()) {
            throw new IllegalArgumentException("the OAuth client secret is empty");
        }
        if (clientMetadataUrl != null && !isMetadataUrl(clientMetadataUrl)) {
            throw new IllegalArgumentException("the client metadata document's URL must be an https URL with a path,"
                    + " not " + clientMetadataUrl);
        }
        scopes = List.copyOf(scopes == null ? List.of() : scopes);
        for (String s : scopes) {
            if (s.isEmpty() || s.chars().anyMatch(c -> c <= 0x20 || c == 0x7F || c == '"' || c == '\\')) {
                throw new IllegalArgumentException("'" + s + "' is not an OAuth scope (no spaces, quotes or"
                        + " control characters)");
            }
        }
        if (callbackPort < 0 || callbackPort > 65535) {
            throw new IllegalArgumentException("the callback port " + callbackPort + " is out of range (1 to 65535,"
                    + " or 0 to let the system pick)");
        }
        Objects.requireNonNull(loginTimeout, "loginTimeout");
        if (loginTimeout.isNegative() || loginTimeout.isZero()) {
            throw new IllegalArgumentException("the sign-in timeout must be positive");
        }
        if (clientCredentials && clientId == null) {
            throw new IllegalArgumentException("a client credentials client needs its client id");
        }
        if (clientCredentials && clientSecret == null && clientKey == null) {
            throw new IllegalArgumentException("a client credentials client needs its client secret or private key");
        }
        if (clientKey != null) {
            PemKeys.algorithmFor(clientKey);
        }
    }

    /**
     * These settings switched on or off.
     *
     * @param enabled whether to sign in
     * @return the settings
     */
    public OAuthSettings withEnabled(boolean enabled) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, loginTimeout, clientCredentials);
    }

    /**
     * These settings with a pre-registered client.
     *
     * @param clientId     the client id, or null for none
     * @param clientSecret its secret, or null for a public client
     * @return the settings
     */
    public OAuthSettings withClient(String clientId, String clientSecret) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, loginTimeout, clientCredentials);
    }

    /**
     * These settings with the URL of a Client ID Metadata Document.
     *
     * @param url an https URL with a path, or null for none
     * @return the settings
     */
    public OAuthSettings withClientMetadataUrl(URI url) {
        return new OAuthSettings(enabled, clientId, clientSecret, url, clientKey, scopes, callbackPort, browser, store,
                loginTimeout, clientCredentials);
    }

    /**
     * These settings with a key for {@code private_key_jwt}.
     *
     * @param key the private key, or null for none
     * @return the settings
     */
    public OAuthSettings withClientKey(PrivateKey key) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, key, scopes, callbackPort, browser,
                store, loginTimeout, clientCredentials);
    }

    /**
     * These settings asking for {@code scopes}.
     *
     * @param scopes the scopes, none for the spec's selection
     * @return the settings
     */
    public OAuthSettings withScopes(List<String> scopes) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, loginTimeout, clientCredentials);
    }

    /**
     * These settings with the callback on {@code port}.
     *
     * @param port the port, or 0 to let the proxy choose
     * @return the settings
     */
    public OAuthSettings withCallbackPort(int port) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, port, browser,
                store, loginTimeout, clientCredentials);
    }

    /**
     * These settings showing the authorization URL with {@code browser}.
     *
     * @param browser the opener ({@link OAuthLogins#browserCommand} runs a command), or null for
     *                the system's
     * @return the settings
     */
    public OAuthSettings withBrowser(BrowserOpener browser) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, loginTimeout, clientCredentials);
    }

    /**
     * These settings keeping logins in {@code store}.
     *
     * @param store the store, or null for the default
     * @return the settings
     */
    public OAuthSettings withStore(TokenStore store) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, loginTimeout, clientCredentials);
    }

    /**
     * These settings waiting at most {@code timeout} for a sign-in.
     *
     * @param timeout the bound, positive
     * @return the settings
     */
    public OAuthSettings withLoginTimeout(Duration timeout) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, timeout, clientCredentials);
    }

    /**
     * These settings for a machine client (the client credentials grant), or not.
     *
     * @param clientCredentials whether to use the client credentials grant
     * @return the settings
     */
    public OAuthSettings withClientCredentials(boolean clientCredentials) {
        return new OAuthSettings(enabled, clientId, clientSecret, clientMetadataUrl, clientKey, scopes, callbackPort,
                browser, store, loginTimeout, clientCredentials);
    }

    /**
     * Reads a private key from PEM text ({@code -----BEGIN PRIVATE KEY-----}, PKCS #8) for
     * {@link #withClientKey}.
     *
     * @param pem the PEM text
     * @return the key
     * @throws IllegalArgumentException when it is not a PKCS #8 private key of a kind the proxy
     *                                  can sign with (the message never shows the text)
     */
    public static PrivateKey readPrivateKey(String pem) {
        return PemKeys.read(pem);
    }

    /** Everything but the client secret and key, whose presence alone it shows. */
    @Override
    public String toString() {
        return "OAuthSettings[enabled=" + enabled + ", clientId=" + clientId + ", clientSecret="
                + (clientSecret == null ? "none" : "<redacted>") + ", clientMetadataUrl=" + clientMetadataUrl
                + ", clientKey=" + (clientKey == null ? "none" : clientKey.getAlgorithm().toLowerCase(Locale.ROOT)
                + " <redacted>") + ", scopes=" + scopes + ", callbackPort=" + callbackPort + ", browser=" + browser
                + ", store=" + store + ", loginTimeout=" + loginTimeout + ", clientCredentials=" + clientCredentials
                + "]";
    }

    private static boolean isMetadataUrl(URI url) {
        return url.isAbsolute() && "https".equalsIgnoreCase(url.getScheme()) && url.getHost() != null
                && url.getRawPath() != null && !url.getRawPath().isEmpty() && !url.getRawPath().equals("/");
    }
}
