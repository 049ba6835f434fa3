package dev.stretto.proxy.io;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogFormatException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reading back the JSON-lines files a session writes beside its log (the flow log, the
 * confirm log): the lines as JSON with their numbers, and the checks of their fields, with
 * the messages every such reader gives. Blank lines are skipped; a last line without a
 * newline that does not parse is dropped (the proxy stopped while writing it); any other line
 * that is not JSON is an error naming the file and line.
 */
public final class JsonLines {

    /** What a reader does with each line's JSON. */
    @FunctionalInterface
    public interface LineReader {

        /**
         * Takes one line.
         *
         * @throws IllegalArgumentException saying what is wrong with the line
         */
        void line(JsonNode node);
    }

    private JsonLines() {
    }

    /**
     * Where a file of the session logged at {@code sessionLog} goes by default: beside it, its
     * name with the {@code .jsonl} extension replaced by {@code extension} ({@code .flow.jsonl}
     * makes {@code <session>.flow.jsonl}).
     */
    public static Path besideSessionLog(Path sessionLog, String extension) {
        String name = sessionLog.getFileName().toString();
        String base = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        return sessionLog.resolveSibling(base + extension);
    }

    /**
     * A file's text.
     *
     * @param what what the file should be, for the message when it is not text ({@code "flow log"})
     * @throws IOException when it cannot be read, or is not UTF-8 text
     */
    public static String text(Path file, String what) throws IOException {
        try {
            return Files.readString(file, StandardCharsets.UTF_8);
        } catch (CharacterCodingException e) {
            throw new IOException(file + ": not UTF-8 text, so not a " + what, e);
        }
    }

    /**
     * Hands each line of {@code text}, as JSON, to {@code reader}, in order.
     *
     * @param name the file's name, for messages
     * @throws LogFormatException for the first line that is not JSON or that {@code reader}
     *                            rejects, naming the file and the line
     */
    public static void read(String text, String name, LineReader reader) throws LogFormatException {
        List<String> lines = text.lines().toList();
        for (int i = 0; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isBlank()) {
                continue;
            }
            JsonNode node;
            try {
                node = CanonicalJson.parse(line);
            } catch (IllegalArgumentException e) {
                if (i == lines.size() - 1 && !text.endsWith("\n")) {
                    return;
                }
                throw new LogFormatException(name, i + 1, "not JSON (" + e.getMessage() + ")");
            }
            try {
                reader.line(node);
            } catch (IllegalArgumentException e) {
                throw new LogFormatException(name, i + 1, e.getMessage());
            }
        }
    }

    /**
     * The value of {@code field} of the object {@code n}.
     *
     * @param what the kind of line, for messages ({@code "flow log"})
     * @throws IllegalArgumentException when {@code n} is not an object or has no such field
     */
    public static JsonNode required(JsonNode n, String field, String what) {
        if (!n.isObject()) {
            throw new IllegalArgumentException("a " + what + " line is a JSON object");
        }
        JsonNode v = n.get(field);
        if (v == null) {
            throw new IllegalArgumentException("\"" + field + "\" is missing: not a " + what + " line");
        }
        return v;
    }

    /**
     * The string {@code field}; with {@code nullable}, null when it is missing or null.
     *
     * @throws IllegalArgumentException when it is something else, or missing though required
     */
    public static String string(JsonNode n, String field, String what, boolean nullable) {
        JsonNode v = nullable ? n.get(field) : required(n, field, what);
        if (v == null || v.isNull()) {
            if (nullable) {
                return null;
            }
        } else if (v.isTextual()) {
            return v.textValue();
        }
        throw new IllegalArgumentException("\"" + field + "\" must be a string");
    }

    /**
     * The number {@code field}, or null when it is missing or null.
     *
     * @throws IllegalArgumentException when it is something else
     */
    public static Double number(JsonNode n, String field) {
        JsonNode v = n.get(field);
        if (v == null || v.isNull()) {
            return null;
        }
        if (!v.isNumber()) {
            throw new IllegalArgumentException("\"" + field + "\" must be a number or null");
        }
        return v.doubleValue();
    }
}
