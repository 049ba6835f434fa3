package dev.stretto.demo;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * The demo's side of JSON: reading requests as strictly as the reference demo (serde_json)
 * reads them, and fresh nodes for building answers. Answers are written by trace-reader's
 * {@link dev.stretto.trace.json.CanonicalJson}, which spells them as serde_json does, so
 * they compare byte for byte with the reference's recorded logs.
 *
 * <p>Reading rejects what serde_json rejects and Jackson would let through: trailing
 * values after the first, numbers outside the double range, unpaired surrogates, and
 * nesting deeper than 127 levels.
 */
final class DemoJson {
    /** serde_json gives up at its 128th nested array or object. */
    private static final int MAX_DEPTH = 127;
    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
            .build();

    private DemoJson() {
    }

    /** A fresh object node, for building messages. */
    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * Parses one JSON value from UTF-8 bytes.
     *
     * @throws MalformedJsonException if the bytes are not exactly one valid JSON value
     */
    static JsonNode parse(byte[] bytes, int off, int len) throws MalformedJsonException {
        JsonNode node;
        try (JsonParser p = FACTORY.createParser(bytes, off, len)) {
            // serde_json's reading: the integer -0 is the float -0.0, written back as -0.0.
            node = CanonicalJson.readTree(p);
            if (node != null && p.nextToken() != null) {
                throw new MalformedJsonException("trailing characters after the JSON value");
            }
        } catch (JsonProcessingException e) {
            throw new MalformedJsonException(e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedJsonException(e.getMessage());
        }
        if (node == null) {
            throw new MalformedJsonException("no JSON value");
        }
        checkRepresentable(node);
        return node;
    }

    static JsonNode parse(String text) throws MalformedJsonException {
        byte[] bytes = text.getBytes(StandardCharsets.UTF_8);
        return parse(bytes, 0, bytes.length);
    }

    private static void checkRepresentable(JsonNode root) throws MalformedJsonException {
        // Iterative, so that a deep value cannot exhaust a small virtual-thread stack.
        List<JsonNode> todo = new ArrayList<>();
        todo.add(root);
        while (!todo.isEmpty()) {
            JsonNode node = todo.removeLast();
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    checkString(field.getKey());
                    todo.add(field.getValue());
                }
            } else if (node.isArray()) {
                node.forEach(todo::add);
            } else if (node.isTextual()) {
                checkString(node.textValue());
            } else if (node.isNumber() && !Double.isFinite(node.doubleValue())) {
                // serde_json reads integers wider than u64 as f64 too, so they overflow alike.
                throw new MalformedJsonException("number out of range");
            }
        }
    }

    private static void checkString(String s) throws MalformedJsonException {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new MalformedJsonException("unpaired surrogate in a string");
            }
        }
    }

    /** The input was not one valid JSON value. */
    static final class MalformedJsonException extends Exception {
        MalformedJsonException(String message) {
            super(message);
        }
    }
}
