package dev.stretto.proxy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** JSON pointers into a call's arguments, with * for every element or member. */
class PointerTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    private static List<String> found(String pointer, String args) throws Exception {
        return Pointer.parse(pointer).values(JSON.readTree(args)).stream().map(JsonNode::toString).toList();
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "/path | {\"path\":\"/a\"} | [\"/a\"]",
            "/paths/* | {\"paths\":[\"/a\",\"/b\"]} | [\"/a\", \"/b\"]",
            "/edits/1/oldText | {\"edits\":[{\"oldText\":1},{\"oldText\":2}]} | [2]",
            "/a~1b/c~0d | {\"a/b\":{\"c~d\":true}} | [true]",
            "/* | {\"x\":1,\"y\":2} | [1, 2]",
            "/missing | {\"path\":\"/a\"} | []",
            "/path/0 | {\"path\":\"/a\"} | []",
            "/list/01 | {\"list\":[1,2]} | []",
            "/list/-1 | {\"list\":[1,2]} | []",
            "/0 | {\"0\":\"key\"} | [\"key\"]",
            "'' | {\"a\":1} | [{\"a\":1}]"})
    void findsWhatItPointsTo(String pointer, String args, String expected) throws Exception {
        assertEquals(expected, found(pointer.equals("''") ? "" : pointer, args).toString());
    }

    @ParameterizedTest
    @ValueSource(strings = {"path", "/a~2b", "/a~", "~1"})
    void badPointersAreRefused(String pointer) {
        assertThrows(IllegalArgumentException.class, () -> Pointer.parse(pointer));
    }
}
