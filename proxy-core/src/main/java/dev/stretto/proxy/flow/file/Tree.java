package dev.stretto.proxy.flow.file;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.FlowFormatException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A node of a flow's JSON tree and where it is ({@code bindings.args.get_order_details[0]}),
 * with readers that fail with that place in the message. Missing optional members read as
 * absent; a member that is present must have the right shape.
 */
record Tree(JsonNode node, String path) {

    /** A shape error; turned into a {@link FlowFormatException} at the top of the reader. */
    static final class Bad extends RuntimeException {
        Bad(String message) {
            super(message, null, false, false);
        }
    }

    Bad bad(String expected) {
        return new Bad((path.isEmpty() ? "the flow" : path) + ": expected " + expected + ", found " + describe(node));
    }

    private static String describe(JsonNode n) {
        if (n == null || n.isMissingNode()) {
            return "nothing";
        }
        if (n.isNull()) {
            return "null";
        }
        if (n.isObject()) {
            return "an object";
        }
        if (n.isArray()) {
            return "a list of " + n.size();
        }
        if (n.isTextual()) {
            return "a string";
        }
        if (n.isBoolean()) {
            return n.booleanValue() ? "true" : "false";
        }
        return n.isNumber() ? "the number " + n.asText() : n.getNodeType().toString().toLowerCase();
    }

    private String child(String name) {
        return path.isEmpty() ? name : path + "." + name;
    }

    /** A member that must be present. */
    Tree field(String name) {
        if (!node.isObject()) {
            throw bad("an object");
        }
        JsonNode v = node.get(name);
        if (v == null) {
            throw new Bad((path.isEmpty() ? "the flow" : path) + ": the field \"" + name + "\" is missing");
        }
        return new Tree(v, child(name));
    }

    /** A member that may be absent (or null), or null when it is. */
    Tree optional(String name) {
        if (!node.isObject()) {
            throw bad("an object");
        }
        JsonNode v = node.get(name);
        return v == null || v.isNull() ? null : new Tree(v, child(name));
    }

    Tree at(int index) {
        return new Tree(node.get(index), path + "[" + index + "]");
    }

    String string() {
        if (node == null || !node.isTextual()) {
            throw bad("a string");
        }
        return node.textValue();
    }

    boolean bool() {
        if (node == null || !node.isBoolean()) {
            throw bad("true or false");
        }
        return node.booleanValue();
    }

    /** A non-negative integer (Rust's u64 reads no fraction and no sign). */
    long count() {
        if (node == null || !node.isIntegralNumber() || !node.canConvertToLong() || node.longValue() < 0) {
            throw bad("a whole number of at least 0");
        }
        return node.longValue();
    }

    int smallCount() {
        long v = count();
        if (v > Integer.MAX_VALUE) {
            throw bad("a whole number below 2^31");
        }
        return (int) v;
    }

    /** Any finite number, read as a double. */
    double number() {
        if (node == null || !node.isNumber() || !Double.isFinite(node.doubleValue())) {
            throw bad("a number");
        }
        return node.doubleValue();
    }

    List<Tree> list() {
        if (node == null || !node.isArray()) {
            throw bad("a list");
        }
        List<Tree> out = new ArrayList<>(node.size());
        for (int i = 0; i < node.size(); i++) {
            out.add(at(i));
        }
        return out;
    }

    /** A list of exactly {@code n} items. */
    List<Tree> tuple(int n, String shape) {
        if (node == null || !node.isArray() || node.size() != n) {
            throw bad(shape);
        }
        return list();
    }

    /** The members of an object, in the file's order. */
    Map<String, Tree> members() {
        if (node == null || !node.isObject()) {
            throw bad("an object");
        }
        Map<String, Tree> out = new LinkedHashMap<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> e = it.next();
            out.put(e.getKey(), new Tree(e.getValue(), child(e.getKey())));
        }
        return out;
    }
}
