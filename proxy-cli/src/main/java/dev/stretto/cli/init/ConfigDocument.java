package dev.stretto.cli.init;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;

/**
 * A host's config file as {@code stretto init} reads and edits it: checked for its format when
 * read, its servers as JSON values, and edits that change one server's entry and leave every
 * other byte of the file as it was. Each edit is checked by reading the new text back: the
 * file must then hold what it held, with the one entry changed, or the edit is refused.
 */
sealed interface ConfigDocument permits JsonDocument, TomlDocument {

    /**
     * {@code text} as {@code host}'s file {@code file}; {@code text} is null (or blank) when the
     * file does not exist yet.
     *
     * @throws InitException when the text is not valid for the host's format
     */
    static ConfigDocument read(Host host, Path file, String text) throws InitException {
        return switch (host.format()) {
            case JSON -> JsonDocument.parse(host, file, text);
            case TOML -> TomlDocument.parse(file, text);
        };
    }

    /** The file's text as read ("" for a file that does not exist). */
    String text();

    /** The servers in the file, by name, in the file's order. */
    Map<String, JsonNode> servers();

    /**
     * The text of server {@code name}'s entry as it stands in the file (the JSON value; for
     * TOML, its tables), or empty when there is no such server.
     */
    Optional<String> entryText(String name);

    /**
     * The file's text with server {@code name}'s entry set to {@code entry} (replaced where it
     * is, or added after the others).
     *
     * @throws InitException when the entry cannot be written there without losing something
     */
    String withEntry(String name, ObjectNode entry) throws InitException;

    /**
     * The file's text with server {@code name}'s entry written as {@code text} (one that
     * {@link #entryText} gave before), so that an entry comes back as it was written.
     *
     * @throws InitException when {@code text} does not hold {@code expected} or cannot go there
     */
    String withEntryText(String name, String text, ObjectNode expected) throws InitException;
}
