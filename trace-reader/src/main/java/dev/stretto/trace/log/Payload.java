package dev.stretto.trace.log;

/**
 * What a log entry holds: the line as one JSON value ({@code message}) or as text
 * ({@code raw}).
 */
public sealed interface Payload {

    /**
     * A line that is exactly one JSON value.
     *
     * @param json the line's own text, trimmed of surrounding whitespace and otherwise as
     *             it crossed the wire (key order, number spelling and escapes kept)
     */
    record Message(String json) implements Payload {
    }

    /**
     * A line that is not one JSON value, as text; invalid UTF-8 has been replaced by U+FFFD.
     *
     * @param text the line without its line terminator
     */
    record Raw(String text) implements Payload {
    }
}
