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

    private JsonText() {
    }

    /** Returns {@code s} as a quoted JSON string. */
    public static String quote(String s) {
        StringBuilder out = new StringBuilder(s.length() + 2);
        appendQuoted(out, s);
        return out.toString();
    }

    /** Appends {@code s} to {@code out} as a quoted JSON string. */
    public static void appendQuoted(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }
}
