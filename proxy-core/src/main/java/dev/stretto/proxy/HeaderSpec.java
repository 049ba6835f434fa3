package dev.stretto.proxy;

import java.util.Locale;
import java.util.Objects;
import java.util.Set;

/**
 * One extra header sent on every request to the upstream server, such as
 * {@code Authorization: Bearer ...} from {@code --upstream-header NAME=VAR} (the CLI resolves
 * VAR and passes the value in).
 *
 * <p>The value is a secret: {@link #toString()} and every exception message name the header
 * but never show its value.
 *
 * @param name  the header name, an HTTP token; not one the proxy sets itself
 * @param value the header value; no line breaks or NUL
 */
public record HeaderSpec(String name, String value) {

    /** Headers the JDK client refuses to let a caller set. */
    private static final Set<String> RESTRICTED = Set.of("connection", "content-length", "expect", "host", "upgrade");

    /** Headers the proxy sets itself on each request, from the session's state. */
    private static final Set<String> OWN = Set.of("accept", "content-type", "mcp-session-id", "mcp-protocol-version",
            "last-event-id");

    /**
     * Checks the header.
     *
     * @throws IllegalArgumentException when the name is not a valid header name, is one the
     *                                  proxy or the HTTP client sets itself, or the value holds
     *                                  a line break or NUL (the message never shows the value)
     */
    public HeaderSpec {
        checkName(name);
        Objects.requireNonNull(value, "value");
        if (value.chars().anyMatch(c -> c == '\r' || c == '\n' || c == 0)) {
            throw new IllegalArgumentException("the value of header " + name
                    + " contains a line break or NUL, which cannot be sent");
        }
    }

    /**
     * Checks a header name on its own, before its value is known (the CLI checks
     * {@code --upstream-header} before it reads the environment).
     *
     * @param name the header's name
     * @throws IllegalArgumentException when the name is not a valid header name, or is one the
     *                                  proxy or the HTTP client sets itself
     */
    public static void checkName(String name) {
        Objects.requireNonNull(name, "name");
        if (name.isEmpty() || !name.chars().allMatch(HeaderSpec::isTokenChar)) {
            throw new IllegalArgumentException("'" + printable(name) + "' is not a valid HTTP header name");
        }
        String lower = name.toLowerCase(Locale.ROOT);
        if (RESTRICTED.contains(lower)) {
            throw new IllegalArgumentException("header " + name + " is managed by the HTTP client and cannot be set");
        }
        if (OWN.contains(lower)) {
            throw new IllegalArgumentException("header " + name + " is set by the proxy itself and cannot be set");
        }
    }

    /** Shows the name only: the value may be a credential. */
    @Override
    public String toString() {
        return "HeaderSpec[name=" + name + ", value=<redacted>]";
    }

    private static boolean isTokenChar(int c) {
        return c > 0x20 && c < 0x7F && "\"(),/:;<=>?@[\\]{}".indexOf(c) < 0;
    }

    private static String printable(String s) {
        StringBuilder out = new StringBuilder();
        s.codePoints().limit(64).forEach(c -> out.append(c >= 0x20 && c < 0x7F ? Character.toString(c) : "?"));
        return out.toString();
    }
}
