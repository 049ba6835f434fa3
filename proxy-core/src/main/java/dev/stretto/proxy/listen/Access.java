package dev.stretto.proxy.listen;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import dev.stretto.proxy.ListenConfig;
import java.net.InetAddress;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;

/**
 * Who may use the endpoint, as the transport's security rules ask. DNS rebinding: a listener
 * bound to a loopback address answers only requests whose {@code Host} names a loopback host
 * ({@code localhost}, {@code 127.0.0.1}, {@code [::1]}, any port) or the host of an allowed
 * origin; and a request that comes with an {@code Origin} (a browser's) only from a loopback
 * origin or one allowed. With a token, every request but a browser's CORS preflight carries
 * {@code Authorization: Bearer <token>}, compared in constant time (both sides' SHA-256
 * digests, so neither the token's bytes nor its length show in the time taken).
 */
final class Access {
    private final boolean loopbackOnly;
    private final Set<String> origins;
    private final Set<String> originHosts = new HashSet<>();
    private final byte[] tokenDigest;

    Access(InetAddress bound, List<String> origins, String token) {
        this.loopbackOnly = bound.isLoopbackAddress();
        this.origins = Set.copyOf(origins);
        for (String o : origins) {
            originHosts.add(hostOf(o.substring(o.indexOf("://") + 3)));
        }
        this.tokenDigest = token == null ? null : digest(token);
    }

    /**
     * Checks the request's Host and Origin.
     *
     * @throws Refused with 403 when either is not allowed, 400 when either is given twice
     */
    void checkPlace(HttpExchange exchange) throws Refused {
        Headers headers = exchange.getRequestHeaders();
        String host = single(headers, "Host");
        if (loopbackOnly && (host == null || !loopbackHost(host))) {
            throw new Refused(403, "Forbidden: the Host header " + (host == null ? "is missing" : "'" + shown(host)
                    + "' does not name this listener") + " (it answers localhost, 127.0.0.1 and [::1] only)");
        }
        String origin = single(headers, "Origin");
        if (origin != null && !allowedOrigin(origin)) {
            throw new Refused(403, "Forbidden: origin '" + shown(origin) + "' may not use this listener (pages of"
                    + " loopback origins may; allow others with --listen-origin)");
        }
    }

    /** The request's Origin when it is one allowed (to echo in CORS headers), else null. */
    String corsOrigin(HttpExchange exchange) {
        List<String> values = exchange.getRequestHeaders().get("Origin");
        return values != null && values.size() == 1 && allowedOrigin(values.getFirst()) ? values.getFirst() : null;
    }

    /** Whether the request carries the token (always, without one). */
    boolean authorized(HttpExchange exchange) {
        if (tokenDigest == null) {
            return true;
        }
        List<String> values = exchange.getRequestHeaders().get("Authorization");
        if (values == null || values.size() != 1) {
            return false;
        }
        String value = values.getFirst().strip();
        if (value.length() < 7 || !value.regionMatches(true, 0, "Bearer ", 0, 7)) {
            return false;
        }
        return MessageDigest.isEqual(tokenDigest, digest(value.substring(7).strip()));
    }

    /** Whether a token is asked for. */
    boolean needsToken() {
        return tokenDigest != null;
    }

    private boolean allowedOrigin(String origin) {
        String normalized;
        try {
            normalized = ListenConfig.origin(origin);
        } catch (IllegalArgumentException e) {
            return false;
        }
        String host = hostOf(normalized.substring(normalized.indexOf("://") + 3));
        return isLoopbackName(host) || origins.contains(normalized);
    }

    private boolean loopbackHost(String hostHeader) {
        String host = hostOf(hostHeader.strip().toLowerCase(Locale.ROOT));
        return host != null && (isLoopbackName(host) || originHosts.contains(host));
    }

    // host[:port] or [v6][:port] -> host (brackets kept), or null when it is no such thing.
    private static String hostOf(String authority) {
        String host;
        String port;
        if (authority.startsWith("[")) {
            int close = authority.indexOf(']');
            if (close < 0) {
                return null;
            }
            host = authority.substring(0, close + 1);
            port = authority.substring(close + 1);
            if (!port.isEmpty() && !port.startsWith(":")) {
                return null;
            }
            port = port.isEmpty() ? "" : port.substring(1);
        } else {
            int colon = authority.indexOf(':');
            host = colon < 0 ? authority : authority.substring(0, colon);
            port = colon < 0 ? "" : authority.substring(colon + 1);
        }
        if (!port.chars().allMatch(Character::isDigit) || port.length() > 5 || host.isEmpty()) {
            return null;
        }
        return host.toLowerCase(Locale.ROOT);
    }

    private static boolean isLoopbackName(String host) {
        return host.equals("localhost") || host.equals("[::1]") || host.matches("127\\.\\d{1,3}\\.\\d{1,3}\\.\\d{1,3}");
    }

    private static String single(Headers headers, String name) throws Refused {
        List<String> values = headers.get(name);
        if (values == null || values.isEmpty()) {
            return null;
        }
        if (values.size() > 1) {
            throw new Refused(400, "Bad Request: the " + name + " header is given more than once");
        }
        return values.getFirst();
    }

    // A header value as a message may show it: printable ASCII, cut short.
    static String shown(String value) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < value.length() && out.length() < 80; i++) {
            char c = value.charAt(i);
            out.append(c >= 0x20 && c < 0x7f ? c : '?');
        }
        return value.length() > 80 ? out + "..." : out.toString();
    }

    private static byte[] digest(String token) {
        try {
            return MessageDigest.getInstance("SHA-256").digest(token.getBytes(StandardCharsets.UTF_8));
        } catch (NoSuchAlgorithmException cannotHappen) {
            throw new IllegalStateException("every JDK has SHA-256", cannotHappen);
        }
    }
}
