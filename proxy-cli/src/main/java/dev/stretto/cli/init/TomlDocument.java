package dev.stretto.cli.init;

import com.fasterxml.jackson.core.JacksonException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.toml.TomlMapper;
import com.fasterxml.jackson.dataformat.toml.TomlReadFeature;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Codex's config.toml. jackson-dataformat-toml reads it (and so checks that it is valid TOML,
 * duplicate keys and redefined tables included); the edits are text edits of the server's own
 * tables ({@link TomlLayout}): a server's {@code [mcp_servers.NAME]} table and the tables below
 * it are written anew where the first of them stands, a new server goes at the end, and every
 * other line, comments included, stays as it was.
 */
final class TomlDocument implements ConfigDocument {

    private static final TomlMapper MAPPER = TomlMapper.builder().enable(TomlReadFeature.PARSE_JAVA_TIME).build();
    private static final String SERVERS = "mcp_servers";

    private final Path file;
    private final String text;
    private final ObjectNode tree;
    private final TomlLayout layout;
    private final String newline;

    private TomlDocument(Path file, String text, ObjectNode tree) {
        this.file = file;
        this.text = text;
        this.tree = tree;
        this.layout = TomlLayout.of(text);
        this.newline = text.contains("\r\n") ? "\r\n" : "\n";
    }

    static TomlDocument parse(Path file, String text) throws InitException {
        String t = text == null ? "" : text;
        ObjectNode tree = read(t, file + " is not valid TOML");
        JsonNode servers = tree.get(SERVERS);
        if (servers != null && !servers.isObject()) {
            throw new InitException(file + ": " + SERVERS + " is not a table, so it cannot hold servers; nothing"
                    + " changed");
        }
        return new TomlDocument(file, t, tree);
    }

    private static ObjectNode read(String text, String what) throws InitException {
        if (text.isBlank()) {
            return JsonNodeFactory.instance.objectNode();
        }
        try {
            JsonNode node = MAPPER.readTree(text);
            return node instanceof ObjectNode o ? o : JsonNodeFactory.instance.objectNode();
        } catch (JacksonException e) {
            String message = e.getOriginalMessage() == null ? e.toString() : e.getOriginalMessage();
            String where = e.getLocation() == null ? "" : " at line " + e.getLocation().getLineNr();
            throw new InitException(what + " (" + message.lines().findFirst().orElse(message) + where
                    + "); nothing changed");
        }
    }

    @Override
    public String text() {
        return text;
    }

    @Override
    public Map<String, JsonNode> servers() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        JsonNode servers = tree.get(SERVERS);
        if (servers != null) {
            servers.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }

    @Override
    public Optional<String> entryText(String name) {
        List<TomlLayout.Table> tables = tablesOf(name);
        if (tables.isEmpty() || !holdsAll(name, tables) || !contiguous(tables)) {
            return Optional.empty();
        }
        return Optional.of(text.substring(tables.getFirst().start(), tables.getLast().end()));
    }

    /**
     * Whether the server's tables follow one another with no other table between them: then
     * they are one stretch of text, written anew (and given back) as one.
     */
    private boolean contiguous(List<TomlLayout.Table> tables) {
        List<TomlLayout.Table> all = layout.tables();
        int first = all.indexOf(tables.getFirst());
        return all.subList(first, first + tables.size()).equals(tables);
    }

    @Override
    public String withEntry(String name, ObjectNode entry) throws InitException {
        String table;
        try {
            table = TomlStyle.table(List.of(SERVERS, name), entry, newline);
        } catch (IllegalArgumentException e) {
            throw new InitException(name + "'s entry holds " + e.getMessage() + "; nothing changed");
        }
        return place(name, table, expectedWith(name, entry));
    }

    @Override
    public String withEntryText(String name, String tables, ObjectNode expectedEntry) throws InitException {
        if (!servers().containsKey(name)) {
            throw new InitException(file + " has no server " + name + " to write back");
        }
        return place(name, tables.endsWith("\n") ? tables : tables + newline, expectedWith(name, expectedEntry));
    }

    private List<TomlLayout.Table> tablesOf(String name) {
        return layout.tables().stream().filter(t -> t.ofServer(name)).toList();
    }

    /** Whether {@code tables} alone hold all of server {@code name} (no dotted keys or inline table elsewhere). */
    private boolean holdsAll(String name, List<TomlLayout.Table> tables) {
        StringBuilder alone = new StringBuilder();
        for (TomlLayout.Table t : tables) {
            alone.append(text, t.start(), t.end()).append(newline);
        }
        try {
            return read(alone.toString(), "").path(SERVERS).path(name).equals(tree.path(SERVERS).path(name));
        } catch (InitException e) {
            return false;
        }
    }

    /** The text with server {@code name}'s tables replaced by {@code table} (or it added at the end). */
    private String place(String name, String table, ObjectNode expected) throws InitException {
        String out;
        if (servers().containsKey(name)) {
            List<TomlLayout.Table> tables = tablesOf(name);
            if (tables.isEmpty() || !holdsAll(name, tables)) {
                throw new InitException(name + " in " + file + " is written with dotted keys or as an inline table,"
                        + " which stretto init does not rewrite; write it as a [mcp_servers." + name + "] table, or"
                        + " edit it by hand; nothing changed");
            }
            // One stretch when the tables follow one another (the lines between them go too), else
            // each table on its own, the first one's place taking the new text.
            List<int[]> spans = new ArrayList<>();
            if (contiguous(tables)) {
                spans.add(new int[] {tables.getFirst().start(), tables.getLast().end()});
            } else {
                tables.forEach(t -> spans.add(new int[] {t.start(), t.end()}));
            }
            for (int[] span : spans) {
                if (layout.hasComment(span[0], span[1])) {
                    throw new InitException(name + "'s tables in " + file + " have comments inside them, which"
                            + " writing them anew would lose; take them out or edit the entry by hand; nothing"
                            + " changed");
                }
            }
            StringBuilder b = new StringBuilder(text);
            for (int k = spans.size() - 1; k >= 0; k--) {
                int[] span = spans.get(k);
                String replacement = k == 0 ? table : "";
                if (k == 0 && span[1] == text.length() && !text.endsWith("\n")) {
                    replacement = table.substring(0, table.length() - newline.length());
                }
                b.replace(span[0], span[1], replacement);
            }
            out = b.toString();
        } else {
            String before = text;
            if (!before.isEmpty() && !before.endsWith("\n")) {
                before += newline;
            }
            if (!before.isBlank()) {
                before += newline;
            }
            out = before + table;
        }
        ObjectNode back = read(out, "the edit of " + file + " would not be valid TOML there");
        if (!expected.equals(back)) {
            throw new InitException("the edit of " + file + " did not read back as meant; this is a bug in stretto"
                    + " init; nothing changed");
        }
        return out;
    }

    private ObjectNode expectedWith(String name, ObjectNode entry) {
        ObjectNode copy = tree.deepCopy();
        JsonNode servers = copy.get(SERVERS);
        ObjectNode at = servers instanceof ObjectNode o ? o : copy.putObject(SERVERS);
        at.set(name, entry.deepCopy());
        return copy;
    }
}
