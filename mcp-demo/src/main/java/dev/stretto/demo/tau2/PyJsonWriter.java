package dev.stretto.demo.tau2;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;

/**
 * Writes JSON as Python's {@code json.dumps} does with its defaults, which is how τ² turns a
 * tool's result into text: {@code ", "} between items, {@code ": "} after a key, keys in the
 * order given, every character outside printable ASCII escaped ({@code \u00e9}, surrogate
 * pairs above U+FFFF), floats in {@code repr}'s spelling.
 */
final class PyJsonWriter {
    private final StringBuilder out = new StringBuilder();
    /** Per open container: whether an item was written in it yet. */
    private final Deque<boolean[]> open = new ArrayDeque<>();
    private boolean afterKey;

    PyJsonWriter beginObject() {
        beforeValue();
        out.append('{');
        open.push(new boolean[1]);
        return this;
    }

    PyJsonWriter endObject() {
        open.pop();
        out.append('}');
        return this;
    }

    PyJsonWriter beginArray() {
        beforeValue();
        out.append('[');
        open.push(new boolean[1]);
        return this;
    }

    PyJsonWriter endArray() {
        open.pop();
        out.append(']');
        return this;
    }

    PyJsonWriter key(String key) {
        separate();
        quote(key);
        out.append(": ");
        afterKey = true;
        return this;
    }

    PyJsonWriter string(String value) {
        if (value == null) {
            return none();
        }
        beforeValue();
        quote(value);
        return this;
    }

    PyJsonWriter strings(List<String> values) {
        if (values == null) {
            return none();
        }
        beginArray();
        values.forEach(this::string);
        return endArray();
    }

    PyJsonWriter number(double value) {
        beforeValue();
        // json.dumps spells the non-finite floats as JavaScript does.
        out.append(Double.isNaN(value) ? "NaN" : Double.isInfinite(value) ? (value > 0 ? "Infinity" : "-Infinity")
                : PyFloats.repr(value));
        return this;
    }

    /** A Python number that is an {@code int} ({@link Long}) or a {@code float} ({@link Double}). */
    PyJsonWriter number(Number value) {
        if (value == null) {
            return none();
        }
        if (value instanceof Double d) {
            return number(d.doubleValue());
        }
        beforeValue();
        out.append(value.longValue());
        return this;
    }

    PyJsonWriter bool(boolean value) {
        beforeValue();
        out.append(value ? "true" : "false");
        return this;
    }

    PyJsonWriter none() {
        beforeValue();
        out.append("null");
        return this;
    }

    String text() {
        return out.toString();
    }

    private void beforeValue() {
        if (afterKey) {
            afterKey = false;
        } else {
            separate();
        }
    }

    private void separate() {
        boolean[] container = open.peek();
        if (container != null) {
            if (container[0]) {
                out.append(", ");
            }
            container[0] = true;
        }
    }

    private void quote(String s) {
        out.append('"');
        for (int i = 0; i < s.length(); i++) {
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
                    if (c >= ' ' && c <= '~') {
                        out.append(c);
                    } else {
                        // Below U+0020, DEL and everything past ASCII; a char is a UTF-16 unit, so
                        // a character above U+FFFF comes out as its surrogate pair, as Python writes it.
                        out.append("\\u");
                        String hex = Integer.toHexString(c);
                        out.append("0".repeat(4 - hex.length())).append(hex);
                    }
                }
            }
        }
        out.append('"');
    }
}
