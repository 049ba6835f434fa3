package dev.stretto.proxy.http;

import java.io.ByteArrayOutputStream;

/**
 * Makes one line of a JSON document that spans several. A literal line break can only be
 * whitespace between tokens in valid JSON (inside strings it must be escaped), so dropping the
 * whitespace outside strings is enough; every other byte stays as the server sent it.
 */
public final class JsonCompactor {

    private JsonCompactor() {
    }

    /** True when the bytes hold a CR or LF, which the host's line framing cannot carry. */
    static boolean needsCompacting(byte[] json) {
        for (byte b : json) {
            if (b == '\n' || b == '\r') {
                return true;
            }
        }
        return false;
    }

    /** {@code json} as one line: unchanged when it already is one. */
    public static byte[] oneLine(byte[] json) {
        return needsCompacting(json) ? compact(json) : json;
    }

    /** Removes the JSON whitespace outside strings. The input must be valid JSON. */
    static byte[] compact(byte[] json) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(json.length);
        boolean inString = false;
        boolean escaped = false;
        for (byte b : json) {
            if (inString) {
                if (escaped) {
                    escaped = false;
                } else if (b == '\\') {
                    escaped = true;
                } else if (b == '"') {
                    inString = false;
                }
                out.write(b);
            } else if (b == '"') {
                inString = true;
                out.write(b);
            } else if (b != ' ' && b != '\t' && b != '\n' && b != '\r') {
                out.write(b);
            }
        }
        return out.toByteArray();
    }
}
