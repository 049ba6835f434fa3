package dev.stretto.trace.manifest;

import com.fasterxml.jackson.databind.JsonNode;

/**
 * What a tool does, as its server claims with the {@code readOnlyHint} annotation. Flows
 * only ever call {@link #READ} tools on their own.
 */
public enum ToolKind {
    /** {@code readOnlyHint: true}: the call changes nothing. */
    READ("read"),
    /** {@code readOnlyHint: false}: the call may change something. */
    WRITE("write"),
    /** No hint: unknown. */
    GENERIC("generic");

    private final String wireName;

    ToolKind(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the name a manifest file uses: {@code read}, {@code write} or {@code generic}} */
    public String wireName() {
        return wireName;
    }

    /**
     * The kind a {@code tools/list} entry gives its tool: {@code annotations.readOnlyHint} true
     * is {@link #READ}, false {@link #WRITE}, and anything else (absent, not a boolean) {@link
     * #GENERIC}.
     *
     * @param tool one entry of a listing's {@code tools}
     * @return its kind
     */
    public static ToolKind ofListing(JsonNode tool) {
        JsonNode hint = tool.path("annotations").get("readOnlyHint");
        return hint == null || !hint.isBoolean() ? GENERIC : hint.booleanValue() ? READ : WRITE;
    }

    /**
     * Parses a manifest file's kind.
     *
     * @param name {@code read}, {@code write} or {@code generic}
     * @return the kind
     * @throws IllegalArgumentException for any other name
     */
    public static ToolKind ofWireName(String name) {
        for (ToolKind k : values()) {
            if (k.wireName.equals(name)) {
                return k;
            }
        }
        throw new IllegalArgumentException("unknown tool kind \"" + name + "\" (read, write or generic)");
    }
}
