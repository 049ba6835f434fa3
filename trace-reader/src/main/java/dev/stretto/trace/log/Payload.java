package dev.stretto.trace.log;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Optional;

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

        /**
         * The message parsed into a tree, or empty when its text is not JSON after all
         * (a hand-made log can hold such a line; it then tells a reader nothing).
         *
         * @return the tree, or empty
         */
        public Optional<JsonNode> tree() {
            try {
                return Optional.of(CanonicalJson.parse(json));
            } catch (IllegalArgumentException notJson) {
                return Optional.empty();
            }
        }
    }

    /**
     * A line that is not one JSON value, as text; invalid UTF-8 has been replaced by U+FFFD.
     *
     * @param text the line without its line terminator
     */
    record Raw(String text) implements Payload {
    }
}
