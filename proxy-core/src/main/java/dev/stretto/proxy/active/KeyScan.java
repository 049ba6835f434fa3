package dev.stretto.proxy.active;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.util.JsonParserDelegate;
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
        try (Scanning p = new Scanning(CanonicalJson.factory().createParser(line))) {
            while (!p.complete()) {
                if (p.nextToken() == null) {
                    if (p.started) {
                        throw new IOException("the value is not closed");
                    }
                    break;
                }
            }
            return p.messages();
        }
    }

    /**
     * A parser that scans what is read through it, token by token, as {@link #of} scans a
     * line: so one pass over a line gives both its tree ({@link CanonicalJson#readTree}, which
     * reads by {@link #nextToken()} alone) and its scan, and the line's strings are decoded
     * once. The scan covers the first JSON value read.
     */
    static final class Scanning extends JsonParserDelegate {
        private final List<Message> out = new ArrayList<>();
        private boolean started;
        private boolean batch;
        private boolean complete;
        // The message being scanned, or null between the elements of a batch.
        private Scan current;

        Scanning(JsonParser parser) {
            super(parser);
        }

        @Override
        public JsonToken nextToken() throws IOException {
            JsonToken t = super.nextToken();
            if (t != null && !complete) {
                take(t);
            }
            return t;
        }

        private void take(JsonToken t) throws IOException {
            if (!started) {
                started = true;
                if (t == JsonToken.START_ARRAY) {
                    batch = true;
                    return;
                }
            } else if (current == null && t == JsonToken.END_ARRAY) {
                // The batch's end.
                complete = true;
                return;
            }
            if (current == null) {
                current = new Scan(t == JsonToken.START_OBJECT);
            }
            if (current.take(t, this)) {
                out.add(current.message());
                current = null;
                complete = !batch;
            }
        }

        /** Whether the first value read has ended: the scan is whole. */
        boolean complete() {
            return complete;
        }

        /** The messages of the value read; only whole once {@link #complete()}. */
        List<Message> messages() {
            return out;
        }
    }

    /** The scan of one message, fed its tokens in order. */
    private static final class Scan {
        private final boolean object;
        private boolean call;
        private boolean twins;
        private final List<String> ids = new ArrayList<>();
        private final Deque<Set<String>> open = new ArrayDeque<>();
        private String ownKey;

        Scan(boolean object) {
            this.object = object;
        }

        /** Takes the parser's current token, {@code t}; returns whether the message ended with it. */
        boolean take(JsonToken t, JsonParser p) throws IOException {
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
            return open.isEmpty();
        }

        Message message() {
            return new Message(object, call, twins, ids);
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
