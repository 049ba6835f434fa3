package dev.stretto.cli.console;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.SecureRandom;
import java.util.Base64;
import java.util.List;

/**
 * Who may read the console: whoever has the link it printed. The link carries a random token;
 * the first request with it gets the token as a cookie (HttpOnly, SameSite=Strict, this port's
 * own name) and is sent on to the same address without it, so the token leaves the address bar
 * and every later request, events included, carries the cookie instead. Requests naming
 * another host than 127.0.0.1 or localhost at this port are refused too: a page of another
 * site that points a name at 127.0.0.1 cannot reach the console.
 */
final class Access {

    /** The query parameter of the printed link. */
    static final String PARAM = "token";

    private final String token;
    private final String cookieName;
    private final List<String> hosts;

    private Access(String token, int port) {
        this.token = token;
        this.cookieName = "stretto-console-" + port;
        this.hosts = List.of("127.0.0.1:" + port, "localhost:" + port);
    }

    /** A new random token for the console at {@code port}. */
    static Access random(int port) {
        byte[] b = new byte[24];
        new SecureRandom().nextBytes(b);
        return new Access(Base64.getUrlEncoder().withoutPadding().encodeToString(b), port);
    }

    String token() {
        return token;
    }

    /** Whether the Host header names this console. */
    boolean hostAllowed(String host) {
        return host != null && hosts.contains(host.toLowerCase(java.util.Locale.ROOT));
    }

    /** Whether {@code given} is the token, compared in constant time. */
    boolean isToken(String given) {
        return given != null && MessageDigest.isEqual(given.getBytes(StandardCharsets.UTF_8),
                token.getBytes(StandardCharsets.UTF_8));
    }

    /** Whether one of the Cookie headers carries the token under this console's name. */
    boolean hasCookie(List<String> cookieHeaders) {
        if (cookieHeaders == null) {
            return false;
        }
        for (String header : cookieHeaders) {
            for (String part : header.split(";")) {
                int eq = part.indexOf('=');
                if (eq > 0 && part.substring(0, eq).strip().equals(cookieName)
                        && isToken(part.substring(eq + 1).strip())) {
                    return true;
                }
            }
        }
        return false;
    }

    /** {@return the Set-Cookie header's value} */
    String setCookie() {
        return cookieName + "=" + token + "; Path=/; HttpOnly; SameSite=Strict";
    }
}
