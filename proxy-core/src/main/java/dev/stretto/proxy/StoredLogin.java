package dev.stretto.proxy;

import java.net.URI;
import java.time.Instant;
import java.util.List;
import java.util.Objects;

/**
 * What the proxy keeps of one sign-in to an MCP server that needs OAuth: which server and
 * resource it is for, the authorization server that issued it, the client the proxy is known
 * as there (a registration, or the pre-registered or metadata-document id) and the tokens. A
 * {@link TokenStore} keeps one per server.
 *
 * <p>The client secret and the tokens are secrets: {@link #toString()} and those of the nested
 * records never show them.
 *
 * @param server   the MCP endpoint, as the key it is stored under ({@link TokenStore#keyOf})
 * @param resource the resource the tokens are for (RFC 8707), or null when the server has no
 *                 protected resource metadata
 * @param issuer   the authorization server's issuer (or, for a server without metadata, its
 *                 URL)
 * @param client   the client registration with that authorization server, or null when none
 *                 was made yet
 * @param tokens   the tokens, or null when there are none (signed out, or a refresh token that
 *                 the server no longer takes)
 */
public record StoredLogin(URI server, String resource, String issuer, Client client, Tokens tokens) {

    /**
     * Checks the login.
     *
     * @throws NullPointerException when the server or the issuer is null
     */
    public StoredLogin {
        Objects.requireNonNull(server, "server");
        Objects.requireNonNull(issuer, "issuer");
    }

    /**
     * This login with other tokens.
     *
     * @param tokens the tokens, or null for none
     * @return the login
     */
    public StoredLogin withTokens(Tokens tokens) {
        return new StoredLogin(server, resource, issuer, client, tokens);
    }

    /** The server, the resource, the issuer, the client id and the tokens' scopes and expiry; no secret. */
    @Override
    public String toString() {
        return "StoredLogin[server=" + server + ", resource=" + resource + ", issuer=" + issuer + ", client="
                + client + ", tokens=" + tokens + "]";
    }

    /**
     * The client the proxy is known as at the authorization server.
     *
     * @param id           the client id (for a Client ID Metadata Document, its URL)
     * @param secret       the client secret, or null for a public client
     * @param authMethod   how the client authenticates at the token endpoint ({@code none},
     *                     {@code client_secret_basic}, {@code client_secret_post}, {@code
     *                     private_key_jwt}), or null to choose from the server's metadata
     * @param redirectUris the redirect URIs it was registered with, none when it was not
     *                     registered by the proxy
     */
    public record Client(String id, String secret, String authMethod, List<String> redirectUris) {

        /**
         * Checks the client.
         *
         * @throws NullPointerException when the id is null
         */
        public Client {
            Objects.requireNonNull(id, "id");
            redirectUris = redirectUris == null ? List.of() : List.copyOf(redirectUris);
        }

        /** The id, whether there is a secret, the method and the redirect URIs; never the secret. */
        @Override
        public String toString() {
            return "Client[id=" + id + ", secret=" + (secret == null ? "none" : "<redacted>") + ", authMethod="
                    + authMethod + ", redirectUris=" + redirectUris + "]";
        }
    }

    /**
     * The tokens of a sign-in.
     *
     * @param accessToken  the access token, sent as {@code Authorization: Bearer ...}
     * @param refreshToken the refresh token, or null when the server gave none
     * @param obtained     when the access token was obtained
     * @param expiresAt    when the access token expires, or null when the server did not say
     * @param scopes       the scopes granted (as the server said, else as asked for)
     */
    public record Tokens(String accessToken, String refreshToken, Instant obtained, Instant expiresAt,
                         List<String> scopes) {

        /**
         * Checks the tokens.
         *
         * @throws NullPointerException when the access token or the time it was obtained is null
         */
        public Tokens {
            Objects.requireNonNull(accessToken, "accessToken");
            Objects.requireNonNull(obtained, "obtained");
            scopes = scopes == null ? List.of() : List.copyOf(scopes);
        }

        /** Whether there is a refresh token, the times and the scopes; never a token. */
        @Override
        public String toString() {
            return "Tokens[accessToken=<redacted>, refreshToken=" + (refreshToken == null ? "none" : "<redacted>")
                    + ", obtained=" + obtained + ", expiresAt=" + expiresAt + ", scopes=" + scopes + "]";
        }
    }
}
