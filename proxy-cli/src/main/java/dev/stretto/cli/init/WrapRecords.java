package dev.stretto.cli.init;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Iterator;
import java.util.Optional;

/**
 * What {@code stretto init --wrap} changed, so that {@code --unwrap} gives each entry back
 * exactly as it was (its JSON value, and its text in the file): for each wrapped server, the
 * file (links followed), the server's name, the entry as it was and its text, and the entry
 * as wrapped; for each entry {@code --write} wrote, the entry as written and no original.
 * Kept in {@code ~/.stretto/wrapped.json}, for its owner only (entries may hold secrets in
 * their env blocks); an entry changed since it was wrapped, or written by {@code --write}, is
 * unwrapped from the proxy's arguments instead. An entry with no record was not wrapped by
 * stretto init, and {@code --unwrap} leaves it as it is.
 */
final class WrapRecords {

    /**
     * One wrapped server.
     *
     * @param original     the entry before it was wrapped, or null for one {@code --write} wrote
     * @param originalText the entry's text in the file before it was wrapped, or null
     */
    record Wrap(String file, String name, ObjectNode original, String originalText, ObjectNode wrapped) {
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path path;
    private final ArrayNode wraps;

    private WrapRecords(Path path, ArrayNode wraps) {
        this.path = path;
        this.wraps = wraps;
    }

    /** The file the records are kept in. */
    Path path() {
        return path;
    }

    static Path pathUnder(Path home) {
        return home.resolve(".stretto/wrapped.json");
    }

    static WrapRecords load(Path home) throws InitException {
        Path path = pathUnder(home);
        if (!Files.exists(path)) {
            return new WrapRecords(path, JsonNodeFactory.instance.arrayNode());
        }
        try {
            JsonNode root = JSON.readTree(Files.readString(path, StandardCharsets.UTF_8));
            if (root != null && root.path("wraps").isArray()) {
                return new WrapRecords(path, (ArrayNode) root.get("wraps"));
            }
        } catch (JsonProcessingException e) {
            // Said below.
        } catch (IOException e) {
            throw new InitException("cannot read " + path + ": " + e.getMessage());
        }
        throw new InitException(path + " is not a file of wrapped servers stretto init reads; move it away; nothing"
                + " changed");
    }

    Optional<Wrap> find(Path file, String name) {
        for (JsonNode w : wraps) {
            if (w.path("file").asText().equals(file.toString()) && w.path("name").asText().equals(name)
                    && (w.path("original").isObject() || !w.has("original")) && w.path("wrapped").isObject()) {
                JsonNode text = w.get("original_text");
                return Optional.of(new Wrap(file.toString(), name, (ObjectNode) w.get("original"),
                        text != null && text.isTextual() ? text.textValue() : null, (ObjectNode) w.get("wrapped")));
            }
        }
        return Optional.empty();
    }

    void put(Path file, String name, ObjectNode original, String originalText, ObjectNode wrapped) {
        remove(file, name);
        ObjectNode w = wraps.addObject();
        w.put("file", file.toString());
        w.put("name", name);
        if (original != null) {
            w.set("original", original);
        }
        if (originalText != null) {
            w.put("original_text", originalText);
        }
        w.set("wrapped", wrapped);
    }

    void remove(Path file, String name) {
        Iterator<JsonNode> it = wraps.iterator();
        while (it.hasNext()) {
            JsonNode w = it.next();
            if (w.path("file").asText().equals(file.toString()) && w.path("name").asText().equals(name)) {
                it.remove();
            }
        }
    }

    void save() throws InitException {
        ObjectNode root = JsonNodeFactory.instance.objectNode();
        root.put("stretto_wrapped", 1);
        root.set("wraps", wraps);
        try {
            Path dir = path.getParent();
            if (!Files.isDirectory(dir)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path tmp = Files.createTempFile(dir, ".wrapped.", ".tmp",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            Files.writeString(tmp, JSON.writerWithDefaultPrettyPrinter().writeValueAsString(root) + "\n");
            try {
                Files.move(tmp, path, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(tmp, path, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new InitException("cannot write " + path + ": " + e.getMessage() + "; nothing changed");
        }
    }
}
