package dev.stretto.trace.manifest;

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
