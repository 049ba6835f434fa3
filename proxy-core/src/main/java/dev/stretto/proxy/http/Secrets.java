package dev.stretto.proxy.http;

import dev.stretto.proxy.HeaderSpec;
import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;

/**
 * The secret strings of one upstream (header values, URL user info) and a scrubber for text
 * that comes from outside (exception messages, server error bodies) before it goes into a
 * warning or an error line. A belt to the braces of never putting the values there ourselves.
 */
public final class Secrets {

    // Replaced whole when a secret is added (an OAuth token obtained during the session).
    private volatile List<String> values;

    Secrets(List<String> values) {
        this.values = sorted(values);
    }

    private static List<String> sorted(List<String> values) {
        List<String> all = new ArrayList<>();
        for (String v : values) {
            if (v == null || v.isBlank()) {
                continue;
            }
            all.add(v);
            // "Bearer abc" may be echoed as just "abc".
            int space = v.indexOf(' ');
            if (space > 0 && space < v.length() - 1) {
                all.add(v.substring(space + 1).strip());
            }
        }
        List<String> distinct = new ArrayList<>(new java.util.LinkedHashSet<>(all));
        distinct.sort(Comparator.comparingInt(String::length).reversed());
        return List.copyOf(distinct);
    }

    /** Scrubs {@code secret} too from now on. Thread-safe. */
    synchronized void add(String secret) {
        if (secret == null || secret.isBlank() || values.contains(secret)) {
            return;
        }
        List<String> all = new ArrayList<>(values);
        all.add(secret);
        values = sorted(all);
    }

    /**
     * The secret strings an upstream at {@code endpoint} with {@code headers} sends, in every
     * form a server may echo them: header values (and a scheme's token alone, {@code abc} of
     * {@code Bearer abc}), the URL's user info and password, credential-looking query values.
     * Longest first.
     */
    public static List<String> of(URI endpoint, List<HeaderSpec> headers) {
        return new Secrets(McpHttp.secretValues(endpoint, headers)).values;
    }

    /** {@code text} with every secret replaced by {@code <redacted>}; null stays null. */
    String scrub(String text) {
        if (text == null) {
            return null;
        }
        String out = text;
        for (String v : values) {
            out = out.replace(v, UrlRedactor.REDACTED);
        }
        return out;
    }
}
