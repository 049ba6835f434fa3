package dev.stretto.proxy.active;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * What a tree of a JSON line cannot show: every key as it was written, duplicates included.
 * Servers read a duplicated key differently (the last value in Jackson, JavaScript and Python,
 * the first in some parsers, an error in others), and Go's {@code encoding/json} matches keys
 * to fields case-insensitively, with Unicode folding ({@code "Method"}, {@code "paramſ"}). So
 * the scan tells, for each message of a line (the line's one object, or each element of a
 * batch), whether any key that some server takes for {@code method} has the value {@code
 * tools/call}, every string some server takes for its {@code id}, and whether any object in it
 * holds two keys that fold alike.
 */
final class KeyScan {

    /**
     * One message of the line.
     *
     * @param object       whether it is a JSON object (anything else is no JSON-RPC message)
     * @param possibleCall an object: one of its keys folding to {@code method} holds {@code
     *                     "tools/call"}; anything else: {@code "tools/call"} is a string in it
     * @param twinKeys     some object in it has two keys that are equal once folded
     * @param stringIds    the string values of its keys that fold to {@code id}
     */
    record Message(boolean object, boolean possibleCall, boolean twinKeys, List<String> stringIds) {
    }

    static final String METHOD = fold("method");
    static final String ID = fold("id");
    private static final Set<String> IN_ARRAY = Collections.emptySet();

    private KeyScan() {
    }

    /**
     * The messages of one line of well-formed JSON: one for an object or a scalar, one per
     * element for an array.
     *
     * @throws IOException when the line is not well-formed JSON
     */
    static List<Message> of(byte[] line) throws IOException {
        try (JsonParser p = CanonicalJson.factory().createParser(line)) {
            JsonToken t = p.nextToken();
            List<Message> out = new ArrayList<>();
            if (t == JsonToken.START_ARRAY) {
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw new IOException("the array is not closed");
                    }
                    out.add(message(p, t));
                }
            } else if (t != null) {
                out.add(message(p, t));
            }
            return out;
        }
    }

    /** Scans the value that starts at {@code first}, the parser's current token, to its end. */
    private static Message message(JsonParser p, JsonToken first) throws IOException {
        boolean object = first == JsonToken.START_OBJECT;
        boolean call = false;
        boolean twins = false;
        List<String> ids = new ArrayList<>();
        Deque<Set<String>> open = new ArrayDeque<>();
        String ownKey = null;
        JsonToken t = first;
        while (true) {
            switch (t) {
                case START_OBJECT -> open.push(new HashSet<>());
                case START_ARRAY -> open.push(IN_ARRAY);
                case END_OBJECT, END_ARRAY -> open.pop();
                case FIELD_NAME -> {
                    String folded = fold(p.currentName());
                    twins |= !open.peek().add(folded);
                    if (object && open.size() == 1) {
                        ownKey = folded;
                    }
                }
                case VALUE_STRING -> {
                    String text = p.getText();
                    if (!object) {
                        call |= "tools/call".equals(text);
                    } else if (ownKey != null && open.size() == 1) {
                        call |= ownKey.equals(METHOD) && "tools/call".equals(text);
                        if (ownKey.equals(ID)) {
                            ids.add(text);
                        }
                    }
                }
                default -> {
                }
            }
            if (t != JsonToken.FIELD_NAME && open.size() <= 1) {
                ownKey = null;
            }
            if (open.isEmpty()) {
                return new Message(object, call, twins, ids);
            }
            t = p.nextToken();
            if (t == null) {
                throw new IOException("the value is not closed");
            }
        }
    }

    /**
     * A key as Go's {@code encoding/json} compares keys: each character lower-cased, then
     * upper-cased, so {@code "method"}, {@code "METHOD"} and {@code "Method"} are one key, and
     * {@code ſ} (long s) is {@code S}, the Kelvin sign {@code K}.
     */
    static String fold(String key) {
        boolean ascii = true;
        for (int i = 0; i < key.length() && ascii; i++) {
            ascii = key.charAt(i) < 0x80;
        }
        if (ascii) {
            return key.toUpperCase(java.util.Locale.ROOT);
        }
        StringBuilder b = new StringBuilder(key.length());
        key.codePoints().forEach(c -> b.appendCodePoint(Character.toUpperCase(Character.toLowerCase(c))));
        return b.toString();
    }
}
