package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashSet;
import java.util.List;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * The key scan made in the one pass that builds a line's tree ({@link KeyScan.Scanning} under
 * {@link CanonicalJson#readTree}) is the scan of a pass of its own over every token, and the
 * tree is the one the line parses to alone: on generated lines of every shape the guards meet
 * (keys that fold alike, twins at any depth, ids, batches, scalars).
 */
class KeyScanTest {

    private static final String[] KEYS = {"method", "Method", "METHOD", "id", "Id", "params", "paramſ", "name",
        "arguments", "x", "k", "K", "\u212a", "jsonrpc"};
    private static final String[] STRINGS = {"tools/call", "Tools/Call", "1", "a\\\"b", "caf\u00e9 \u2713",
        "\\u0074ools/call", ""};

    /** The scan of a pass of its own over the first value of {@code line}: the reference. */
    private static List<KeyScan.Message> reference(byte[] line) throws IOException {
        try (JsonParser p = CanonicalJson.factory().createParser(line)) {
            JsonToken t = p.nextToken();
            List<KeyScan.Message> out = new ArrayList<>();
            if (t == JsonToken.START_ARRAY) {
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    out.add(message(p, t));
                }
            } else if (t != null) {
                out.add(message(p, t));
            }
            return out;
        }
    }

    private static KeyScan.Message message(JsonParser p, JsonToken first) throws IOException {
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
                case START_ARRAY -> open.push(new HashSet<>());
                case END_OBJECT, END_ARRAY -> open.pop();
                case FIELD_NAME -> {
                    String folded = KeyScan.fold(p.currentName());
                    twins |= !open.peek().add(folded);
                    if (object && open.size() == 1) {
                        ownKey = folded;
                    }
                }
                case VALUE_STRING -> {
                    if (!object) {
                        call |= "tools/call".equals(p.getText());
                    } else if (ownKey != null && open.size() == 1) {
                        call |= ownKey.equals(KeyScan.METHOD) && "tools/call".equals(p.getText());
                        if (ownKey.equals(KeyScan.ID)) {
                            ids.add(p.getText());
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
                return new KeyScan.Message(object, call, twins, ids);
            }
            t = p.nextToken();
        }
    }

    private record OnePass(JsonNode tree, List<KeyScan.Message> scan) {
    }

    private static OnePass onePass(byte[] line) throws IOException {
        try (KeyScan.Scanning p = new KeyScan.Scanning(CanonicalJson.factory().createParser(line))) {
            JsonNode tree = CanonicalJson.readTree(p);
            assertTrue(tree == null || p.complete(), "the scan is whole once the tree is");
            return new OnePass(tree, p.messages());
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    @Test
    void onGeneratedLinesTheOnePassScanIsTheScanOfAPassOfItsOwnAndTheTreeTheLinesOwn() throws IOException {
        Random random = new Random(25);
        for (int i = 0; i < 3000; i++) {
            StringBuilder json = new StringBuilder();
            int shape = random.nextInt(10);
            if (shape < 5) {
                object(json, random, 0);
            } else if (shape < 9) {
                json.append('[');
                int n = random.nextInt(4);
                for (int e = 0; e < n; e++) {
                    if (e > 0) {
                        json.append(',');
                    }
                    value(json, random, 1);
                }
                json.append(']');
            } else {
                value(json, random, 3);
            }
            if (random.nextInt(8) == 0) {
                // Something after the first value: neither pass reads it.
                json.append(" {\"method\":\"tools/call\"}");
            }
            byte[] line = utf8(json.toString());
            OnePass one = onePass(line);
            assertEquals(reference(line), one.scan(), json::toString);
            assertEquals(KeyScan.of(line), one.scan(), json::toString);
            assertEquals(ProxyLines.parse(line), one.tree(), json::toString);
        }
    }

    private static void object(StringBuilder json, Random random, int depth) {
        json.append('{');
        int n = random.nextInt(depth == 0 ? 6 : 3);
        for (int k = 0; k < n; k++) {
            if (k > 0) {
                json.append(',');
            }
            json.append('"').append(KEYS[random.nextInt(KEYS.length)]).append("\":");
            value(json, random, depth + 1);
        }
        json.append('}');
    }

    private static void value(StringBuilder json, Random random, int depth) {
        int kind = random.nextInt(depth > 3 ? 4 : 7);
        switch (kind) {
            case 0, 1 -> json.append('"').append(STRINGS[random.nextInt(STRINGS.length)]).append('"');
            case 2 -> json.append(random.nextBoolean() ? "-0" : String.valueOf(random.nextLong()));
            case 3 -> json.append(random.nextBoolean() ? "null" : "1.5e3");
            case 4, 5 -> object(json, random, depth);
            default -> {
                json.append('[');
                int n = random.nextInt(3);
                for (int e = 0; e < n; e++) {
                    if (e > 0) {
                        json.append(',');
                    }
                    value(json, random, depth + 1);
                }
                json.append(']');
            }
        }
    }

    @Test
    void aCallsTwinKeysFoldedIdsAndABatchsElementsAreSeenInTheOnePass() throws IOException {
        OnePass twins = onePass(utf8("{\"id\":\"a\",\"method\":\"tools/call\",\"params\":{\"name\":\"x\","
                + "\"arguments\":{\"k\":1,\"\u212a\":2}},\"ID\":\"b\"}"));
        KeyScan.Message m = twins.scan().getFirst();
        assertTrue(m.object() && m.possibleCall() && m.twinKeys());
        assertEquals(List.of("a", "b"), m.stringIds(), "every string some server takes for the id");
        assertEquals("b", twins.tree().get("ID").textValue(), "the tree keeps both, as written");

        OnePass batch = onePass(utf8("[{\"Method\":\"tools/call\",\"id\":1},\"tools/call\",{\"method\":\"ping\"}]"));
        assertEquals(3, batch.scan().size());
        assertTrue(batch.scan().get(0).possibleCall(), "Method folds to method");
        assertFalse(batch.scan().get(1).object());
        assertTrue(batch.scan().get(1).possibleCall(), "a string tools/call in a batch");
        assertFalse(batch.scan().get(2).possibleCall());
    }

    @Test
    void aLineThatIsNotJsonFailsTheOnePassAsItFailsAScanOfItsOwn() {
        for (String bad : List.of("{\"method\":\"tools/call\",", "[{\"id\":1}", "{\"a\" 1}", "[1,]")) {
            assertThrows(IOException.class, () -> onePass(utf8(bad)), bad);
            assertThrows(IOException.class, () -> KeyScan.of(utf8(bad)), bad);
        }
    }
}
