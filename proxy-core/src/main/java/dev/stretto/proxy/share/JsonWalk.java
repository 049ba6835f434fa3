package dev.stretto.proxy.share;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.Deque;

/**
 * One walk over a JSON text, token by token, that meets every string, number and key with
 * its {@link Zone} and can put other text in its place: what a visitor returns is written
 * where the token stood, everything else keeps its bytes (key order, number spelling, escapes,
 * white space). The parsed tree is walked alongside, so that a zone can look at a token's
 * siblings. Without recursion: a deeply nested text costs no stack. A kept part is skipped
 * unread.
 */
final class JsonWalk {

    /** What a walk does at each token; each method returns the token's new text, or null to keep it. */
    interface Visitor {

        /** A string value outside kept zones. */
        String string(String text, Zone zone, JsonNode holder);

        /** A number in a data zone (the text is its spelling). */
        String number(String text, Zone.Data zone, JsonNode holder);

        /** A key of an object that stands in a data zone. */
        String key(String key, Zone.Data objectZone, JsonNode object);
    }

    private static final class Frame {
        final Zone zone;
        final JsonNode node;
        final boolean object;
        int index;
        String key;

        Frame(Zone zone, JsonNode node, boolean object) {
            this.zone = zone;
            this.node = node;
            this.object = object;
        }
    }

    private JsonWalk() {
    }

    /** Parses {@code json} and walks it; see {@link #walk(String, JsonNode, Zone, Visitor)}. */
    static String walk(String json, Zone root, Visitor visitor) throws IOException {
        return walk(json, parse(json), root, visitor);
    }

    static JsonNode parse(String json) throws IOException {
        try {
            return CanonicalJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw new IOException("not JSON: " + e.getMessage(), e);
        }
    }

    /**
     * Walks {@code json} (whose tree is {@code tree}) from the zone {@code root}.
     *
     * @return the rewritten text, or {@code json} itself when nothing was replaced
     * @throws IOException when {@code json} is not JSON
     */
    static String walk(String json, JsonNode tree, Zone root, Visitor visitor) throws IOException {
        StringBuilder out = null;
        int copied = 0;
        Deque<Frame> stack = new ArrayDeque<>();
        try (JsonParser p = CanonicalJson.factory().createParser(json)) {
            JsonToken t;
            while ((t = p.nextToken()) != null) {
                if (t == JsonToken.END_OBJECT || t == JsonToken.END_ARRAY) {
                    stack.pop();
                    continue;
                }
                Frame top = stack.peek();
                if (t == JsonToken.FIELD_NAME) {
                    top.key = p.currentName();
                    if (top.zone instanceof Zone.Data d) {
                        String r = visitor.key(top.key, d, top.node);
                        if (r != null) {
                            int start = (int) p.currentTokenLocation().getCharOffset();
                            out = splice(out, json, copied, start);
                            JsonText.appendQuoted(out, r);
                            copied = endOfString(json, start);
                        }
                    }
                    continue;
                }
                Zone zone;
                JsonNode node;
                if (top == null) {
                    zone = root;
                    node = tree;
                } else if (top.object) {
                    zone = top.zone.child(top.key, -1, top.node);
                    node = top.node == null ? null : top.node.get(top.key);
                } else {
                    int i = top.index++;
                    zone = top.zone.child(null, i, top.node);
                    node = top.node == null ? null : top.node.get(i);
                }
                JsonNode holder = top == null ? null : top.node;
                switch (t) {
                    case START_OBJECT, START_ARRAY -> {
                        if (zone instanceof Zone.Keep) {
                            p.skipChildren();
                        } else {
                            stack.push(new Frame(zone, node, t == JsonToken.START_OBJECT));
                        }
                    }
                    case VALUE_STRING -> {
                        if (!(zone instanceof Zone.Keep)) {
                            String text = p.getText();
                            String r = visitor.string(text, zone, holder);
                            if (r != null && !r.equals(text)) {
                                int start = (int) p.currentTokenLocation().getCharOffset();
                                out = splice(out, json, copied, start);
                                JsonText.appendQuoted(out, r);
                                copied = endOfString(json, start);
                            }
                        }
                    }
                    case VALUE_NUMBER_INT, VALUE_NUMBER_FLOAT -> {
                        if (zone instanceof Zone.Data d) {
                            String text = p.getText();
                            String r = visitor.number(text, d, holder);
                            if (r != null && !r.equals(text)) {
                                int start = (int) p.currentTokenLocation().getCharOffset();
                                out = splice(out, json, copied, start);
                                out.append(r);
                                copied = start + text.length();
                            }
                        }
                    }
                    default -> {
                        // true, false, null: nothing personal in them.
                    }
                }
            }
        }
        return out == null ? json : out.append(json, copied, json.length()).toString();
    }

    private static StringBuilder splice(StringBuilder out, String json, int copied, int start) {
        if (out == null) {
            out = new StringBuilder(json.length() + 64);
        }
        return out.append(json, copied, start);
    }

    /** The index after the closing quote of the JSON string that opens at {@code quote}. */
    private static int endOfString(String json, int quote) {
        int i = quote + 1;
        while (json.charAt(i) != '"') {
            i += json.charAt(i) == '\\' ? 2 : 1;
        }
        return i + 1;
    }
}
