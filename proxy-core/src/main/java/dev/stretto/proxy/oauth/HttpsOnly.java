package dev.stretto.proxy.oauth;

import dev.stretto.proxy.redact.UrlRedactor;
import java.net.URI;
import java.util.Locale;
import java.util.Set;

/**
 * The rule of the MCP authorization spec that every authorization server endpoint is served over
 * HTTPS, applied to each URL a sign-in or a refresh reaches: the protected resource's metadata,
 * the authorization server's metadata, its authorization, token and registration endpoints.
 * Plain http is taken only on a loopback host, spelled {@code 127.0.0.1}, {@code [::1]} or
 * {@code localhost} (any case), without user info: where tests and local development run their
 * servers, and where nothing crosses a network. Every other spelling is refused, even one that
 * may name this machine ({@code 127.1}, {@code localhost.}): a host is judged by its text alone,
 * never looked up.
 */
final class HttpsOnly {

    private static final Set<String> LOOPBACK = Set.of("127.0.0.1", "[::1]", "localhost");

    private HttpsOnly() {
    }

    /** Whether {@code url} may be reached by a sign-in: https with a host, or http on a loopback host. */
    static boolean allowed(URI url) {
        String scheme = url.getScheme();
        String host = url.getHost();
        if (scheme == null || host == null || !url.isAbsolute() || url.isOpaque()) {
            return false;
        }
        return switch (scheme.toLowerCase(Locale.ROOT)) {
            case "https" -> true;
            case "http" -> url.getRawUserInfo() == null && LOOPBACK.contains(host.toLowerCase(Locale.ROOT));
            default -> false;
        };
    }

    /**
     * Refuses {@code url} unless it is {@linkplain #allowed allowed}.
     *
     * @param what what the URL is, for the message ({@code the token endpoint})
     * @throws AuthorizationFailedException naming it (without its user info or credentials)
     */
    static void require(URI url, String what) throws AuthorizationFailedException {
        if (!allowed(url)) {
            throw new AuthorizationFailedException("refusing to sign in: " + what + " "
                    + Texts.shown(UrlRedactor.redact(url), 200) + " is not HTTPS, which the MCP authorization"
                    + " spec requires of authorization servers (plain http is taken only on 127.0.0.1, [::1] and"
                    + " localhost)");
        }
    }
}
