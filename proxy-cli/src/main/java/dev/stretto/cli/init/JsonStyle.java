package dev.stretto.cli.init;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import java.util.Iterator;
import java.util.Map;

/**
 * Writes JSON the way the hosts and editors write their own files, as
 * {@code JSON.stringify(value, null, indent)} does: one member or element a line, {@code "key":
 * value}, {@code {}} and {@code []} when empty. An empty {@code indent} writes it on one line,
 * for a file kept on one line.
 *
 * @param indent  one level of indentation ({@code "  "}, four spaces, a tab), or "" for one line
 * @param newline the file's line ending
 */
record JsonStyle(String indent, String newline) {

    /** What {@code stretto init} writes a new file in. */
    static final JsonStyle DEFAULT = new JsonStyle("  ", "\n");

    boolean oneLine() {
        return indent.isEmpty();
    }

    /**
     * {@code value} as text starting where it stands, its later lines indented from {@code base}
     * (the indentation of the line the value starts on).
     *
     * @throws IllegalArgumentException for a value JSON cannot hold
     */
    String render(JsonNode value, String base) {
        StringBuilder out = new StringBuilder();
        write(value, base, out);
        return out.toString();
    }

    /** One member, {@code "key": value}, as it stands at {@code base}. */
    String member(String key, JsonNode value, String base) {
        return quote(key) + (oneLine() ? ":" : ": ") + render(value, base);
    }

    private void write(JsonNode v, String base, StringBuilder out) {
        if (v.isObject()) {
            if (v.isEmpty()) {
                out.append("{}");
                return;
            }
            String inner = base + indent;
            out.append('{');
            Iterator<Map.Entry<String, JsonNode>> fields = v.properties().iterator();
            while (fields.hasNext()) {
                Map.Entry<String, JsonNode> f = fields.next();
                lineBreak(inner, out);
                out.append(quote(f.getKey())).append(oneLine() ? ":" : ": ");
                write(f.getValue(), inner, out);
                if (fields.hasNext()) {
                    out.append(',');
                }
            }
            lineBreak(base, out);
            out.append('}');
        } else if (v.isArray()) {
            if (v.isEmpty()) {
                out.append("[]");
                return;
            }
            String inner = base + indent;
            out.append('[');
            for (int i = 0; i < v.size(); i++) {
                lineBreak(inner, out);
                write(v.get(i), inner, out);
                if (i + 1 < v.size()) {
                    out.append(',');
                }
            }
            lineBreak(base, out);
            out.append(']');
        } else if (v.isTextual()) {
            out.append(quote(v.textValue()));
        } else if (v.isNumber() || v.isBoolean() || v.isNull()) {
            out.append(v);
        } else {
            throw new IllegalArgumentException("a value JSON cannot hold: " + v.getNodeType());
        }
    }

    private void lineBreak(String at, StringBuilder out) {
        if (!oneLine()) {
            out.append(newline).append(at);
        }
    }

    /** {@code s} as a JSON string: quotes, backslashes and control characters escaped, nothing else. */
    static String quote(String s) {
        return "\"" + new String(JsonStringEncoder.getInstance().quoteAsString(s)) + "\"";
    }
}
