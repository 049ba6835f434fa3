package dev.stretto.proxy.oauth;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;

/**
 * A protected resource's metadata (RFC 9728): the resource's identifier, its authorization
 * servers and the scopes it knows; found at the URL of the server's challenge, else at the
 * well-known URLs in the order the MCP spec gives (the path-aware one, then the root one).
 *
 * @param url                  where it was found
 * @param resource             the {@code resource} identifier
 * @param authorizationServers the issuers of its authorization servers, in its order
 * @param scopesSupported      its {@code scopes_supported}, or null when it has none
 */
record ResourceMetadata(URI url, String resource, List<URI> authorizationServers, List<String> scopesSupported) {

    static final String WELL_KNOWN = "/.well-known/oauth-protected-resource";

    /** The URLs to try for {@code endpoint}: the challenge's, else the path-aware and the root well-known URL. */
    static List<URI> candidates(URI endpoint, URI fromChallenge) {
        List<URI> out = new ArrayList<>();
        if (fromChallenge != null) {
            out.add(fromChallenge);
        }
        String path = endpoint.getRawPath() == null ? "" : endpoint.getRawPath();
        while (path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!path.isEmpty()) {
            out.add(endpoint.resolve(WELL_KNOWN + path));
        }
        out.add(endpoint.resolve(WELL_KNOWN));
        return out.stream().distinct().toList();
    }

    /** The first metadata found at the candidate URLs, or null when none has any. */
    static ResourceMetadata discover(OAuthHttp http, URI endpoint, URI fromChallenge)
            throws IOException, InterruptedException {
        for (URI url : candidates(endpoint, fromChallenge)) {
            HttpsOnly.require(url, "the protected resource metadata URL");
            OAuthHttp.Answer a;
            try {
                a = http.get(url);
            } catch (IOException e) {
                if (url.equals(fromChallenge)) {
                    // the challenge named it: try the well-known ones
                    continue;
                }
                throw e;
            }
            if (a.ok() && a.json() != null && a.json().isObject() && a.json().path("resource").isTextual()) {
                return parse(url, a.json());
            }
        }
        return null;
    }

    private static ResourceMetadata parse(URI url, JsonNode json) {
        List<URI> servers = new ArrayList<>();
        for (JsonNode s : json.path("authorization_servers")) {
            if (s.isTextual()) {
                try {
                    URI u = new URI(s.textValue());
                    if (u.isAbsolute() && u.getHost() != null) {
                        servers.add(u);
                    }
                } catch (URISyntaxException ignored) {
                    // skipped: not a URL
                }
            }
        }
        return new ResourceMetadata(url, json.get("resource").textValue(), List.copyOf(servers),
                ServerMetadata.strings(json.get("scopes_supported")));
    }

    /**
     * Whether {@code resource} may stand for {@code endpoint}: the same scheme, host and port,
     * and a path that is the endpoint's or one of its parents ({@code https://h/} for {@code
     * https://h/mcp}). A resource anywhere else would make the tokens good for another server.
     */
    static boolean covers(String resource, URI endpoint) {
        URI r;
        try {
            r = new URI(resource);
        } catch (URISyntaxException e) {
            return false;
        }
        if (!r.isAbsolute() || r.getHost() == null || r.getRawFragment() != null
                || !r.getScheme().equalsIgnoreCase(endpoint.getScheme())
                || !r.getHost().equalsIgnoreCase(endpoint.getHost()) || port(r) != port(endpoint)) {
            return false;
        }
        String rp = trimmed(r.getRawPath());
        String ep = trimmed(endpoint.getRawPath());
        return rp.isEmpty() || ep.equals(rp) || ep.startsWith(rp + "/");
    }

    private static int port(URI u) {
        if (u.getPort() >= 0) {
            return u.getPort();
        }
        return "https".equalsIgnoreCase(u.getScheme()) ? 443 : 80;
    }

    private static String trimmed(String path) {
        String p = path == null ? "" : path;
        while (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p;
    }
}
