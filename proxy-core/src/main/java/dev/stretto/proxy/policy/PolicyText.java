package dev.stretto.proxy.policy;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import dev.stretto.proxy.PolicyProblem;
import java.io.IOException;
import java.util.HashMap;
import java.util.Map;
import org.yaml.snakeyaml.LoaderOptions;

/**
 * A policy file's text as a tree, with the line and column where each key and value starts,
 * so that what is wrong with the policy can be said where it is. JSON is read strictly (no
 * comments, no trailing commas); YAML as one document of plain mappings, sequences and
 * scalars: anchors, aliases and tags are refused (an alias can make a small file a huge tree,
 * and a tag makes a value something else than it reads as), and so is a key given twice in
 * one object, in either syntax. At most {@link #MAX_CHARS} characters, nested at most {@link
 * #MAX_DEPTH} deep.
 *
 * @param root      the document
 * @param values    where each value starts, by JSON pointer ({@code ""} for the root)
 * @param keys      where each member's key starts, by the member's JSON pointer
 */
record PolicyText(JsonNode root, Map<String, Position> values, Map<String, Position> keys) {

    /** The longest policy read. */
    static final int MAX_CHARS = 1 << 20;

    /** The deepest a policy nests. */
    static final int MAX_DEPTH = 32;

    /** Which syntax a policy is written in. */
    enum Syntax {
        JSON, YAML;

        /** The syntax of a file with this name: YAML for {@code .yaml} and {@code .yml}, else JSON. */
        static Syntax of(String fileName, String text) {
            String name = fileName.toLowerCase(java.util.Locale.ROOT);
            if (name.endsWith(".yaml") || name.endsWith(".yml")) {
                return YAML;
            }
            if (name.endsWith(".json")) {
                return JSON;
            }
            // Neither: JSON when it looks like JSON.
            String start = text.stripLeading();
            return start.startsWith("{") || start.startsWith("[") ? JSON : YAML;
        }
    }

    /** A place in the text. */
    record Position(int line, int column) {
        static final Position NONE = new Position(0, 0);

        static Position of(JsonLocation l) {
            return l == null ? NONE : new Position(Math.max(0, l.getLineNr()), Math.max(0, l.getColumnNr()));
        }
    }

    /** What is wrong with the text itself. */
    static final class Unreadable extends Exception {
        private final transient Position at;

        Unreadable(Position at, String message) {
            super(message, null, false, false);
            this.at = at;
        }

        PolicyProblem problem(String source) {
            return new PolicyProblem(source, at.line(), at.column(), getMessage());
        }
    }

    /** Where the value at {@code pointer} starts, or where its nearest enclosing value does. */
    Position value(String pointer) {
        String p = pointer;
        while (true) {
            Position at = values.get(p);
            if (at != null || p.isEmpty()) {
                return at == null ? Position.NONE : at;
            }
            p = p.substring(0, p.lastIndexOf('/'));
        }
    }

    /** Where the key of the member at {@code pointer} starts, or its value when there is no key. */
    Position key(String pointer) {
        Position at = keys.get(pointer);
        return at != null ? at : value(pointer);
    }

    /** Reads {@code text}. */
    static PolicyText read(String text, Syntax syntax) throws Unreadable {
        if (text.startsWith("\uFEFF")) {
            // A byte order mark, as editors on some systems write one.
            text = text.substring(1);
        }
        if (text.length() > MAX_CHARS) {
            throw new Unreadable(Position.NONE, "the policy is " + text.length() + " characters long; at most "
                    + MAX_CHARS + " are read");
        }
        StreamReadConstraints limits = StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH + 2)
                .maxStringLength(MAX_CHARS).maxNumberLength(100).build();
        JsonFactory factory;
        if (syntax == Syntax.YAML) {
            LoaderOptions options = new LoaderOptions();
            options.setAllowDuplicateKeys(true); // found here, with the line of both
            options.setMaxAliasesForCollections(0);
            options.setNestingDepthLimit(MAX_DEPTH + 2);
            options.setCodePointLimit(MAX_CHARS);
            factory = YAMLFactory.builder().loaderOptions(options).streamReadConstraints(limits).build();
        } else {
            factory = JsonFactory.builder().streamReadConstraints(limits).build();
        }
        try (JsonParser p = factory.createParser(text)) {
            Builder b = new Builder(p, syntax);
            JsonNode root = b.document();
            return new PolicyText(root, b.values, b.keys);
        } catch (JsonProcessingException e) {
            throw new Unreadable(Position.of(e.getLocation()), "not " + (syntax == Syntax.YAML ? "YAML" : "JSON")
                    + " that can be read: " + bare(e));
        } catch (IOException e) {
            throw new Unreadable(Position.NONE, "cannot be read: " + e.getMessage());
        }
    }

    /** Jackson's message without the place it appends, which the problem gives itself. */
    private static String bare(JsonProcessingException e) {
        String m = e.getOriginalMessage();
        if (m == null) {
            return e.getClass().getSimpleName();
        }
        int cut = m.indexOf("\n at [");
        m = cut >= 0 ? m.substring(0, cut) : m;
        return m.replaceAll("\\s*\\R\\s*", " ").strip();
    }

    /** Builds the tree from the parser's tokens, noting places. */
    private static final class Builder {
        private final JsonParser p;
        private final Syntax syntax;
        private final Map<String, Position> values = new HashMap<>();
        private final Map<String, Position> keys = new HashMap<>();

        Builder(JsonParser p, Syntax syntax) {
            this.p = p;
            this.syntax = syntax;
        }

        JsonNode document() throws IOException, Unreadable {
            JsonToken t = p.nextToken();
            if (t == null) {
                throw new Unreadable(new Position(1, 1), "the policy is empty");
            }
            JsonNode root = value(t, "", 0);
            JsonToken after = p.nextToken();
            if (after != null) {
                throw new Unreadable(here(), syntax == Syntax.YAML ? "holds more than one YAML document; a policy is one"
                        : "has more after the end of the policy's object");
            }
            return root;
        }

        private Position here() {
            return Position.of(p.currentTokenLocation());
        }

        private void plainYaml() throws IOException, Unreadable {
            if (p instanceof YAMLParser y) {
                if (y.isCurrentAlias()) {
                    throw new Unreadable(here(), "has a YAML alias (*" + y.getText() + "); aliases and anchors are not"
                            + " allowed in a policy");
                }
                if (y.getObjectId() != null) {
                    throw new Unreadable(here(), "has a YAML anchor (&" + y.getObjectId() + "); anchors and aliases are"
                            + " not allowed in a policy");
                }
                if (y.getTypeId() != null) {
                    throw new Unreadable(here(), "has a YAML tag (" + y.getTypeId() + "); tags are not allowed in a"
                            + " policy, write the value as it is");
                }
            }
        }

        private JsonNode value(JsonToken first, String pointer, int depth) throws IOException, Unreadable {
            if (depth > MAX_DEPTH) {
                throw new Unreadable(here(), "nests more than " + MAX_DEPTH + " deep");
            }
            plainYaml();
            values.put(pointer, here());
            JsonNodeFactory f = JsonNodeFactory.withExactBigDecimals(true);
            return switch (first) {
                case START_OBJECT -> object(pointer, depth, f);
                case START_ARRAY -> {
                    ArrayNode a = f.arrayNode();
                    JsonToken t;
                    while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                        a.add(value(t, pointer + "/" + a.size(), depth + 1));
                    }
                    yield a;
                }
                case VALUE_STRING -> f.textNode(p.getText());
                case VALUE_NUMBER_INT -> f.numberNode(p.getBigIntegerValue());
                case VALUE_NUMBER_FLOAT -> f.numberNode(p.getDecimalValue());
                case VALUE_TRUE -> f.booleanNode(true);
                case VALUE_FALSE -> f.booleanNode(false);
                case VALUE_NULL -> f.nullNode();
                default -> throw new Unreadable(here(), "has a value the policy cannot hold (" + first + ")");
            };
        }

        private ObjectNode object(String pointer, int depth, JsonNodeFactory f) throws IOException, Unreadable {
            ObjectNode o = f.objectNode();
            Map<String, Position> seen = new HashMap<>();
            JsonToken t;
            while ((t = p.nextToken()) != JsonToken.END_OBJECT) {
                if (t != JsonToken.FIELD_NAME) {
                    throw new Unreadable(here(), "has a key that is not a string");
                }
                plainYaml();
                String name = p.currentName();
                Position at = here();
                String member = pointer + "/" + name.replace("~", "~0").replace("/", "~1");
                Position earlier = seen.putIfAbsent(name, at);
                if (earlier != null) {
                    throw new Unreadable(at, "has the key '" + name + "' twice in one object (first on line "
                            + earlier.line() + ")");
                }
                keys.put(member, at);
                o.set(name, value(p.nextToken(), member, depth + 1));
            }
            return o;
        }
    }
}
