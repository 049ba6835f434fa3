package dev.stretto.cli.console.html;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import java.util.Iterator;
import java.util.Map;

/**
 * JSON pretty-printed as HTML, two spaces a level, keys in their order, each kind of value in
 * a span of its own class ({@code k} keys, {@code s} strings, {@code n} numbers, {@code b}
 * booleans and null) for colour. Strings are escaped twice over: as JSON, then as HTML.
 */
final class JsonView {

    /** Numbers keep their digits: {@code 1.10} stays {@code 1.10}. */
    private static final ObjectMapper JSON = JsonMapper.builder()
            .nodeFactory(JsonNodeFactory.withExactBigDecimals(true))
            .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private JsonView() {
    }

    /**
     * Parses text that is one JSON object or array, as a tool's text result often is.
     *
     * @param text the text
     * @return the value, or null when the text is anything else
     */
    static JsonNode parseStructure(String text) {
        String t = text.strip();
        if (t.isEmpty() || t.charAt(0) != '{' && t.charAt(0) != '[') {
            return null;
        }
        try {
            return JSON.readTree(t);
        } catch (JsonProcessingException e) {
            return null;
        }
    }

    /** {@return how many lines {@link #write(Html, JsonNode)} writes for {@code node}} */
    static int lines(JsonNode node) {
        if (node.isContainerNode() && !node.isEmpty()) {
            int n = 2;
            for (JsonNode child : node) {
                n += lines(child);
            }
            return n;
        }
        return 1;
    }

    /** Writes {@code node}, pretty-printed. */
    static void write(Html out, JsonNode node) {
        write(out, node, 0);
    }

    private static void write(Html out, JsonNode node, int depth) {
        if (node.isObject()) {
            if (node.isEmpty()) {
                out.markup("{}");
                return;
            }
            out.markup("{\n");
            Iterator<Map.Entry<String, JsonNode>> it = node.fields();
            while (it.hasNext()) {
                Map.Entry<String, JsonNode> e = it.next();
                indent(out, depth + 1);
                out.el("span", quote(e.getKey()), "class", "k");
                out.markup(": ");
                write(out, e.getValue(), depth + 1);
                out.markup(it.hasNext() ? ",\n" : "\n");
            }
            indent(out, depth);
            out.markup("}");
        } else if (node.isArray()) {
            if (node.isEmpty()) {
                out.markup("[]");
                return;
            }
            out.markup("[\n");
            for (int i = 0; i < node.size(); i++) {
                indent(out, depth + 1);
                write(out, node.get(i), depth + 1);
                out.markup(i + 1 < node.size() ? ",\n" : "\n");
            }
            indent(out, depth);
            out.markup("]");
        } else if (node.isTextual()) {
            out.el("span", quote(node.textValue()), "class", "s");
        } else if (node.isNumber()) {
            out.el("span", node.isBigDecimal() ? node.decimalValue().toString() : node.toString(), "class", "n");
        } else {
            out.el("span", node.toString(), "class", "b");
        }
    }

    private static void indent(Html out, int depth) {
        out.markup("  ".repeat(depth));
    }

    /** A string as JSON writes it. */
    static String quote(String s) {
        try {
            return JSON.writeValueAsString(s);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException(e);
        }
    }

    /** {@return the value on one line, compact} */
    static String compact(JsonNode node) {
        return node.toString();
    }
}
