package dev.stretto.proxy.redact;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The log form of an upstream URL: what the session log's header records as its
 * {@code server_command}.
 *
 * <p>The user info ({@code user:password@}) is removed, and so is the fragment (it is never
 * sent to the server, and OAuth-style fragments carry tokens). In the query, the value of each
 * parameter whose name looks like a credential is replaced by {@code <redacted>}; the
 * parameter's name and position are kept, so a reader still sees which parameters were sent.
 * A name looks like a credential when, decoded and lowercased, it contains one of
 * {@value #WORDS_TEXT}. In the path and in the other parameters' values, tokens recognisable
 * by their form ({@link KnownTokens}: {@code sk-...}, {@code ghp_...}) are replaced the same
 * way; the rest of the path is kept as it is: put tokens in headers, not in paths.
 */
public final class UrlRedactor {

    static final String WORDS_TEXT = "token, key, secret, password, passwd, auth, signature, sig, credential, session, code";

    private static final List<String> WORDS = List.of("token", "key", "secret", "password", "passwd", "auth",
            "signature", "sig", "credential", "session", "code");

    /** The replacement for a credential's value. */
    public static final String REDACTED = "<redacted>";

    private UrlRedactor() {
    }

    /** Returns {@code url} in its log form, as described on the class. */
    public static String redact(URI url) {
        StringBuilder out = new StringBuilder();
        if (url.getScheme() != null) {
            out.append(url.getScheme()).append(':');
        }
        if (url.isOpaque()) {
            // No authority or query to speak of (e.g. mailto:); nothing sensible to keep.
            return out.append(REDACTED).toString();
        }
        if (url.getRawAuthority() != null) {
            out.append("//");
            if (url.getHost() != null) {
                out.append(url.getHost());
                if (url.getPort() >= 0) {
                    out.append(':').append(url.getPort());
                }
            } else {
                // A registry-based authority: drop anything up to an '@', which would be user info.
                String authority = url.getRawAuthority();
                out.append(authority.substring(authority.lastIndexOf('@') + 1));
            }
        }
        if (url.getRawPath() != null) {
            out.append(KnownTokens.redact(url.getRawPath(), REDACTED));
        }
        if (url.getRawQuery() != null) {
            out.append('?').append(redactQuery(url.getRawQuery()));
        }
        return out.toString();
    }

    /** True when a query parameter of this (decoded) name is taken for a credential. */
    public static boolean looksLikeCredential(String name) {
        String lower = name.toLowerCase(Locale.ROOT);
        return WORDS.stream().anyMatch(lower::contains);
    }

    /**
     * The values of the query parameters whose names look like credentials, as written in the
     * URL and decoded (a server may echo either), and the tokens of known forms in the path
     * and the query. Values shorter than 4 characters are left out: no credential is that
     * short, and scrubbing "1" would mangle every text it is in.
     */
    static List<String> credentialValues(URI url) {
        List<String> out = new ArrayList<>();
        for (String part : new String[] {url.getRawPath(), url.getPath(), url.getRawQuery(), url.getQuery()}) {
            if (part != null) {
                out.addAll(KnownTokens.found(part));
            }
        }
        String rawQuery = url.getRawQuery();
        if (rawQuery == null) {
            return out;
        }
        for (String part : rawQuery.split("&", -1)) {
            int eq = part.indexOf('=');
            if (eq >= 0 && eq < part.length() - 1 && looksLikeCredential(decode(part.substring(0, eq)))) {
                String raw = part.substring(eq + 1);
                for (String value : List.of(raw, decode(raw))) {
                    if (value.strip().length() >= 4) {
                        out.add(value);
                    }
                }
            }
        }
        return out;
    }

    private static String redactQuery(String rawQuery) {
        StringBuilder out = new StringBuilder();
        for (String part : rawQuery.split("&", -1)) {
            int eq = part.indexOf('=');
            String piece = part;
            if (eq >= 0 && looksLikeCredential(decode(part.substring(0, eq)))) {
                piece = part.substring(0, eq + 1) + REDACTED;
            } else {
                piece = KnownTokens.redact(piece, REDACTED);
            }
            out.append(piece).append('&');
        }
        out.setLength(out.length() - 1);
        return out.toString();
    }

    private static String decode(String s) {
        try {
            return URLDecoder.decode(s, StandardCharsets.UTF_8);
        } catch (IllegalArgumentException badEscape) {
            return s;
        }
    }
}
