package dev.stretto.cli.init;

import com.fasterxml.jackson.databind.JsonNode;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * Writes a server's entry as a TOML table, as Codex's own documentation writes them:
 * {@code [mcp_servers.NAME]}, then one {@code key = value} a line, arrays and tables inside it
 * inline ({@code env = { "KEY" = "value" }}).
 */
final class TomlStyle {

    private static final Pattern BARE = Pattern.compile("[A-Za-z0-9_-]+");

    private TomlStyle() {
    }

    /**
     * The table {@code [keys]} holding {@code entry}'s members, each line ended by {@code newline}.
     *
     * @throws IllegalArgumentException for a value TOML cannot hold (null) or that this does
     *                                  not write (a date or time)
     */
    static String table(List<String> keys, JsonNode entry, String newline) {
        StringBuilder out = new StringBuilder("[");
        out.append(String.join(".", keys.stream().map(TomlStyle::key).toList())).append(']').append(newline);
        for (Map.Entry<String, JsonNode> e : entry.properties()) {
            out.append(key(e.getKey())).append(" = ").append(value(e.getValue())).append(newline);
        }
        return out.toString();
    }

    /** A key, bare when it can be, else as a basic string. */
    static String key(String k) {
        return BARE.matcher(k).matches() ? k : string(k);
    }

    static String value(JsonNode v) {
        if (v.isTextual()) {
            return string(v.textValue());
        }
        if (v.isBoolean()) {
            return v.toString();
        }
        if (v.isIntegralNumber()) {
            return v.bigIntegerValue().toString();
        }
        if (v.isFloatingPointNumber()) {
            double d = v.doubleValue();
            if (Double.isNaN(d)) {
                return "nan";
            }
            if (Double.isInfinite(d)) {
                return d > 0 ? "inf" : "-inf";
            }
            String s = (v.isBigDecimal() ? v.decimalValue() : BigDecimal.valueOf(d)).toString();
            return s.contains(".") || s.contains("E") || s.contains("e") ? s : s + ".0";
        }
        if (v.isArray()) {
            List<String> items = new ArrayList<>();
            v.forEach(x -> items.add(value(x)));
            return "[" + String.join(", ", items) + "]";
        }
        if (v.isObject()) {
            if (v.isEmpty()) {
                return "{}";
            }
            List<String> members = new ArrayList<>();
            v.properties().forEach(e -> members.add(key(e.getKey()) + " = " + value(e.getValue())));
            return "{ " + String.join(", ", members) + " }";
        }
        throw new IllegalArgumentException(v.isNull() ? "a null, which TOML has no way to write"
                : "a date or time, which stretto init does not write");
    }

    /** {@code s} as a TOML basic string. */
    static String string(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\b' -> out.append("\\b");
                case '\t' -> out.append("\\t");
                case '\n' -> out.append("\\n");
                case '\f' -> out.append("\\f");
                case '\r' -> out.append("\\r");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        out.append(String.format("\\u%04X", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }
}
