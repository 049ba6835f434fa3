package dev.stretto.trace.log;

/** Who a logged line came from: the wire name is the value of an entry's {@code from}. */
public enum Source {
    /** The MCP host (the agent's side). */
    CLIENT("client"),
    /** The MCP server. */
    SERVER("server"),
    /** The proxy itself, in active mode: its lookups, refusals and rewritten answers. */
    PROXY("proxy"),
    /** A line of the conversation read from {@code --context}. */
    CONTEXT("context");

    private final String wireName;

    Source(String wireName) {
        this.wireName = wireName;
    }

    /** {@return the name written in the log's {@code from} field} */
    public String wireName() {
        return wireName;
    }

    /**
     * Parses a {@code from} value.
     *
     * @param name {@code client}, {@code server}, {@code proxy} or {@code context}
     * @return the source
     * @throws IllegalArgumentException if it is none of the four names
     */
    public static Source ofWireName(String name) {
        for (Source s : values()) {
            if (s.wireName.equals(name)) {
                return s;
            }
        }
        throw new IllegalArgumentException("unknown \"from\": " + name);
    }
}
