package dev.stretto.trace.log;

/**
 * JSON string quoting exactly as the reference implementation writes it, so that files
 * written here and there compare byte for byte: non-ASCII characters are written as they
 * are, only {@code "}, {@code \} and control characters are escaped, with the short
 * escapes where JSON has one and lowercase <code>&#92;u00xx</code> otherwise (Jackson would write
 * uppercase hex, which changes content hashes).
 */
public final class JsonText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    // The escape of each character that has one, up to the last ('\\'); null for the others.
    private static final String[] ESCAPES = escapes();

    private JsonText() {
    }

    /**
     * Returns {@code s} as a quoted JSON string.
     *
     * @param s any text
     * @return the JSON string, quotes included
     */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2);
        appendQuoted(out, s);
        return out.toString();
    }

    /**
     * Appends {@code s} to {@code out} as a quoted JSON string.
     *
     * @param out where it goes
     * @param s   any text
     */
    public static void appendQuoted(StringBuilder out, String s) {
        out.append('"');
        int copied = 0;
        for (int i = 0, n = s.length(); i < n; i++) {
            String escape = escapeOf(s.charAt(i));
            if (escape != null) {
                out.append(s, copied, i).append(escape);
                copied = i + 1;
            }
        }
        out.append(s, copied, s.length()).append('"');
    }

    /** The escape that stands for {@code c} in a string, or null when {@code c} stands for itself. */
    static String escapeOf(int c) {
        return c < ESCAPES.length ? ESCAPES[c] : null;
    }

    private static String[] escapes() {
        String[] e = new String['\\' + 1];
        for (int c = 0; c < 0x20; c++) {
            e[c] = "\\u00" + HEX[c >> 4] + HEX[c & 0xF];
        }
        e['"'] = "\\\"";
        e['\\'] = "\\\\";
        e['\n'] = "\\n";
        e['\r'] = "\\r";
        e['\t'] = "\\t";
        e['\b'] = "\\b";
        e['\f'] = "\\f";
        return e;
    }
}
