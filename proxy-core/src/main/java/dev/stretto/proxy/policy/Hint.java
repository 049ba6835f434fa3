package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Optional;

/**
 * The four hints a server may give about a tool in its listing ({@code annotations}), as rules
 * match them. A hint's value is what the server said, {@code true} or {@code false}, or {@link
 * Value#ABSENT} when it said nothing (or something that is not a boolean): MCP's defaults for
 * a missing hint are not filled in, so a rule says itself whether it means tools that say
 * nothing too ({@code [false, absent]}).
 */
enum Hint {
    READ_ONLY("readOnlyHint"),
    DESTRUCTIVE("destructiveHint"),
    IDEMPOTENT("idempotentHint"),
    OPEN_WORLD("openWorldHint");

    /** A hint's value for one tool. */
    enum Value {
        TRUE, FALSE, ABSENT
    }

    private final String key;

    Hint(String key) {
        this.key = key;
    }

    /** Its key in a tool's {@code annotations}, and in a rule's. */
    String key() {
        return key;
    }

    /** The hint whose key is {@code key}. */
    static Optional<Hint> keyed(String key) {
        for (Hint h : values()) {
            if (h.key.equals(key)) {
                return Optional.of(h);
            }
        }
        return Optional.empty();
    }

    /** This hint's value in a tool's {@code annotations} (null: none). */
    Value in(JsonNode annotations) {
        JsonNode v = annotations == null ? null : annotations.get(key);
        if (v == null || !v.isBoolean()) {
            return Value.ABSENT;
        }
        return v.booleanValue() ? Value.TRUE : Value.FALSE;
    }
}
