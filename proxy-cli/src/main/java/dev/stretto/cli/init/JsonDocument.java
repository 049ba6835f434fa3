package dev.stretto.cli.init;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadFeature;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiFunction;

/**
 * A host's JSON file (JSONC for VS Code: comments and trailing commas). Read with duplicate
 * keys refused, as a host would read one of them and not the other; edited through the spans of
 * {@link JsonLayout}: an entry's value is replaced where it stands, a new entry goes after the
 * last one, each written in the file's own indentation and line endings ({@link JsonStyle}).
 */
final class JsonDocument implements ConfigDocument {

    private static final JsonFactory STRICT = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION).build();
    private static final JsonFactory LENIENT = JsonFactory.builder()
            .enable(StreamReadFeature.STRICT_DUPLICATE_DETECTION)
            .enable(JsonReadFeature.ALLOW_JAVA_COMMENTS)
            .enable(JsonReadFeature.ALLOW_TRAILING_COMMA).build();

    private final Host host;
    private final Path file;
    private final String text;
    private final JsonFactory factory;
    private final ObjectNode tree;
    private final JsonLayout.ObjectSpan root;
    private final List<String> path;
    private final JsonStyle style;

    private JsonDocument(Host host, Path file, String text, JsonFactory factory, ObjectNode tree,
                         JsonLayout.ObjectSpan root) {
        this.host = host;
        this.file = file;
        this.text = text;
        this.factory = factory;
        this.tree = tree;
        this.root = root;
        this.path = host.serversPath(file);
        this.style = tree == null ? JsonStyle.DEFAULT
                : new JsonStyle(JsonLayout.indentUnit(text), text.contains("\r\n") ? "\r\n" : "\n");
    }

    static JsonDocument parse(Host host, Path file, String text) throws InitException {
        String t = text == null ? "" : text;
        if (t.isBlank()) {
            return new JsonDocument(host, file, t, STRICT, null, null);
        }
        int bom = t.startsWith("\uFEFF") ? 1 : 0;
        String body = t.substring(bom);
        JsonFactory factory = STRICT;
        JsonNode node;
        try {
            node = read(STRICT, body);
        } catch (JsonProcessingException strict) {
            try {
                node = read(LENIENT, body);
            } catch (JsonProcessingException e) {
                throw new InitException(file + " is not valid JSON (" + describe(e) + "); nothing changed");
            }
            if (!host.allowsComments()) {
                throw new InitException(file + " has comments or trailing commas (" + describe(strict) + "), which "
                        + host.title() + " does not read; nothing changed");
            }
            factory = LENIENT;
        }
        if (!(node instanceof ObjectNode object)) {
            throw new InitException(file + ": the top level is not a JSON object; nothing changed");
        }
        JsonNode at = object;
        for (String key : host.serversPath(file)) {
            at = at.get(key);
            if (at == null) {
                break;
            }
            if (!at.isObject()) {
                throw new InitException(file + ": \"" + key + "\" is not an object, so it cannot hold servers;"
                        + " nothing changed");
            }
        }
        try {
            return new JsonDocument(host, file, t, factory, object, JsonLayout.of(factory, body, bom));
        } catch (IOException e) {
            throw new InitException(file + " is not valid JSON (" + e.getMessage() + "); nothing changed");
        }
    }

    private static JsonNode read(JsonFactory factory, String body) throws JsonProcessingException {
        ObjectMapper mapper = new ObjectMapper(factory)
                .enable(DeserializationFeature.USE_BIG_DECIMAL_FOR_FLOATS)
                .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS);
        mapper.setNodeFactory(JsonNodeFactory.withExactBigDecimals(true));
        return mapper.readTree(body);
    }

    private static String describe(JsonProcessingException e) {
        JsonLocation at = e.getLocation();
        String where = at == null ? "" : " at line " + at.getLineNr() + ", column " + at.getColumnNr();
        String what = e.getOriginalMessage() == null ? e.toString() : e.getOriginalMessage();
        return what.lines().findFirst().orElse(what) + where;
    }

    @Override
    public String text() {
        return text;
    }

    @Override
    public Map<String, JsonNode> servers() {
        Map<String, JsonNode> out = new LinkedHashMap<>();
        JsonNode at = tree;
        for (String key : path) {
            at = at == null ? null : at.get(key);
        }
        if (at != null) {
            at.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
        }
        return out;
    }

    @Override
    public Optional<String> entryText(String name) {
        return serversSpan().flatMap(s -> s.member(name)).map(m -> text.substring(m.valueStart(), m.valueEnd()));
    }

    @Override
    public String withEntry(String name, ObjectNode entry) throws InitException {
        ObjectNode expected = expectedWith(name, entry);
        if (tree == null) {
            return checked(style.render(expected, "") + style.newline(), expected);
        }
        return checked(edit(name, (s, base) -> s.render(entry, base), expected), expected);
    }

    @Override
    public String withEntryText(String name, String entryText, ObjectNode expectedEntry) throws InitException {
        if (serversSpan().flatMap(s -> s.member(name)).isEmpty()) {
            throw new InitException(file + " has no server " + name + " to write back");
        }
        ObjectNode expected = expectedWith(name, expectedEntry);
        return checked(edit(name, (s, base) -> entryText, expected), expected);
    }

    private Optional<JsonLayout.ObjectSpan> serversSpan() {
        if (root == null) {
            return Optional.empty();
        }
        List<JsonLayout.Member> found = JsonLayout.walk(root, path);
        return found.size() == path.size() ? Optional.ofNullable(found.getLast().object()) : Optional.empty();
    }

    /**
     * The text with server {@code name}'s value written by {@code value} (given the style and
     * the indentation of the line it starts on): in place of the old one, or as a new member
     * of the servers object, which is made (as rendered from {@code expected}) when missing.
     */
    private String edit(String name, BiFunction<JsonStyle, String, String> value, ObjectNode expected)
            throws InitException {
        List<JsonLayout.Member> found = JsonLayout.walk(root, path);
        if (found.size() == path.size()) {
            JsonLayout.ObjectSpan servers = found.getLast().object();
            Optional<JsonLayout.Member> old = servers.member(name);
            if (old.isPresent()) {
                JsonLayout.Member m = old.get();
                if (JsonLayout.hasComment(text, m.valueStart(), m.valueEnd())) {
                    throw new InitException(name + "'s entry in " + file + " has comments inside it, which writing it"
                            + " anew would lose; take them out or edit the entry by hand; nothing changed");
                }
                JsonStyle s = oneLine(servers) ? new JsonStyle("", style.newline()) : style;
                String rendered = value.apply(s, JsonLayout.indentOfLine(text, m.keyStart()));
                return text.substring(0, m.valueStart()) + rendered + text.substring(m.valueEnd());
            }
            return addMember(servers, name, value);
        }
        // A level of the path is missing: it is added, with what it holds, to the last one there.
        JsonLayout.ObjectSpan parent = found.isEmpty() ? root : found.getLast().object();
        String key = path.get(found.size());
        JsonNode below = expected;
        for (String k : path.subList(0, found.size() + 1)) {
            below = below.get(k);
        }
        JsonNode missing = below;
        return addMember(parent, key, (s, base) -> s.render(missing, base));
    }

    private boolean oneLine(JsonLayout.ObjectSpan object) {
        return !text.substring(object.open(), object.close()).contains("\n") && !object.members().isEmpty();
    }

    private String addMember(JsonLayout.ObjectSpan object, String key, BiFunction<JsonStyle, String, String> value) {
        String nl = style.newline();
        Optional<JsonLayout.Member> last = object.last();
        if (last.isPresent()) {
            String indent = oneLine(object) ? null : JsonLayout.lineIndent(text, last.get().keyStart());
            JsonStyle s = indent == null ? new JsonStyle("", nl) : style;
            String member = JsonStyle.quote(key) + (indent == null ? ":" : ": ") + value.apply(s, indent == null ? ""
                    : indent);
            int after = last.get().valueEnd();
            int next = JsonLayout.skipBlankAndComments(text, after);
            if (next < text.length() && text.charAt(next) == ',') {
                // A trailing comma (JSONC): the new member follows it, with one of its own.
                String insert = (indent == null ? "" : nl + indent) + member + ",";
                return text.substring(0, next + 1) + insert + text.substring(next + 1);
            }
            String insert = "," + (indent == null ? "" : nl + indent) + member;
            return text.substring(0, after) + insert + text.substring(after);
        }
        String outer = JsonLayout.indentOfLine(text, object.open());
        String indent = outer + style.indent();
        String member = JsonStyle.quote(key) + ": " + value.apply(style, indent);
        String interior = text.substring(object.open() + 1, object.close());
        if (interior.isBlank()) {
            return text.substring(0, object.open() + 1) + nl + indent + member + nl + outer + text.substring(object.close());
        }
        return text.substring(0, object.open() + 1) + nl + indent + member + text.substring(object.open() + 1);
    }

    private ObjectNode expectedWith(String name, ObjectNode entry) {
        ObjectNode copy = tree == null ? JsonNodeFactory.instance.objectNode() : tree.deepCopy();
        ObjectNode at = copy;
        for (String key : path) {
            JsonNode next = at.get(key);
            at = next instanceof ObjectNode o ? o : at.putObject(key);
        }
        at.set(name, entry.deepCopy());
        return copy;
    }

    /** {@code newText}, once it reads back as {@code expected}. */
    private String checked(String newText, ObjectNode expected) throws InitException {
        JsonNode back;
        try {
            back = read(factory, newText.substring(newText.startsWith("\uFEFF") ? 1 : 0));
        } catch (JsonProcessingException e) {
            throw new InitException("the edit of " + file + " did not read back as JSON (" + describe(e)
                    + "); this is a bug in stretto init; nothing changed");
        }
        if (!expected.equals(back)) {
            throw new InitException("the edit of " + file + " did not read back as meant; this is a bug in stretto"
                    + " init; nothing changed");
        }
        return newText;
    }
}
