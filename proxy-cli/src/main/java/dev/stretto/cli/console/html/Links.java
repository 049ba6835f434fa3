package dev.stretto.cli.console.html;

import dev.stretto.cli.console.index.SessionFilter;
import dev.stretto.cli.console.source.FileKey;
import java.nio.charset.StandardCharsets;

/** The console's URLs. A file is named by its key, each path segment percent-encoded. */
public final class Links {

    private Links() {
    }

    /** {@return the session page of a log} */
    public static String session(FileKey key) {
        return "/session/" + path(key);
    }

    /** {@return the server-sent events of a log that is being recorded} */
    public static String live(FileKey key) {
        return "/live/" + path(key);
    }

    /** {@return the key as a path: the root's number, then each segment encoded} */
    static String path(FileKey key) {
        StringBuilder b = new StringBuilder().append(key.root());
        for (String segment : key.relative().split("/", -1)) {
            b.append('/').append(encode(segment));
        }
        return b.toString();
    }

    /**
     * The sessions page with a filter.
     *
     * @param f    the filter
     * @param page the page
     * @return the link
     */
    static String sessions(SessionFilter f, int page) {
        StringBuilder q = new StringBuilder();
        param(q, "domain", f.domain());
        param(q, "mode", f.mode() == null ? null : f.mode().word());
        param(q, "from", f.from() == null ? null : f.from().toString());
        param(q, "to", f.to() == null ? null : f.to().toString());
        param(q, "q", f.text().isEmpty() ? null : f.text());
        param(q, "page", page == 1 ? null : Integer.toString(page));
        return q.isEmpty() ? "/" : "/?" + q;
    }

    private static void param(StringBuilder q, String name, String value) {
        if (value == null) {
            return;
        }
        if (!q.isEmpty()) {
            q.append('&');
        }
        q.append(name).append('=').append(encode(value));
    }

    /** Percent-encodes everything but the unreserved characters of RFC 3986. */
    static String encode(String s) {
        StringBuilder b = new StringBuilder();
        for (byte c : s.getBytes(StandardCharsets.UTF_8)) {
            if (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '.'
                    || c == '_' || c == '~') {
                b.append((char) c);
            } else {
                b.append('%').append(Character.toUpperCase(Character.forDigit(c >> 4 & 0xf, 16)))
                        .append(Character.toUpperCase(Character.forDigit(c & 0xf, 16)));
            }
        }
        return b.toString();
    }
}
