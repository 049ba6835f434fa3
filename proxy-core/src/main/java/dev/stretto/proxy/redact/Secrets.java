package dev.stretto.proxy.redact;

import java.net.URI;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashSet;
import java.util.List;

/**
 * The secret strings of one upstream (header values, URL user info, the tokens it signed in
 * with) and a scrubber for text
 * that comes from outside (exception messages, server error bodies) before it goes into a
 * warning or an error line. A belt to the braces of never putting the values there ourselves.
 */
public final class Secrets {

    // Replaced whole when a secret is added (an OAuth token obtained during the session).
    private volatile List<String> values;

    /**
     * The secrets {@code values}, in every form a server may echo them: each value, and a
     * scheme's token alone ({@code abc} of {@code Bearer abc}). Longest first.
     *
     * @param values the secret values; null and blank ones are left out
     */
    public Secrets(List<String> values) {
        this.values = forms(values);
    }

    private static List<String> forms(List<String> values) {
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
        List<String> distinct = new ArrayList<>(new LinkedHashSet<>(all));
        distinct.sort(Comparator.comparingInt(String::length).reversed());
        return List.copyOf(distinct);
    }

    /**
     * Scrubs {@code secret} too from now on: a token obtained during the session (an OAuth
     * sign-in). Thread-safe.
     *
     * @param secret the secret; null and blank ones are left out
     */
    public synchronized void add(String secret) {
        if (secret == null || secret.isBlank() || values.contains(secret)) {
            return;
        }
        List<String> all = new ArrayList<>(values);
        all.add(secret);
        values = forms(all);
    }

    /**
     * The secrets an upstream at {@code endpoint} sends: the values of the headers it sends
     * ({@code headerValues}, an authorization made from the URL's user info included), the
     * URL's user info and password, and the values of query parameters the URL's log form
     * redacts ({@link UrlRedactor}), with the tokens of known forms in its path and query.
     *
     * @param endpoint     the upstream's URL
     * @param headerValues the values of every header sent to it
     * @return the secrets
     */
    public static Secrets sentTo(URI endpoint, List<String> headerValues) {
        List<String> out = new ArrayList<>(headerValues);
        String userInfo = endpoint.getUserInfo();
        if (userInfo != null) {
            out.add(userInfo);
            out.add(endpoint.getRawUserInfo());
            int colon = userInfo.indexOf(':');
            if (colon >= 0 && colon < userInfo.length() - 1) {
                out.add(userInfo.substring(colon + 1));
            }
        }
        out.addAll(UrlRedactor.credentialValues(endpoint));
        return new Secrets(out);
    }

    /** The secret strings, in every form a server may echo them, longest first. */
    public List<String> values() {
        return values;
    }

    /** {@code text} with every secret replaced by {@code <redacted>}; null stays null. */
    public String scrub(String text) {
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
