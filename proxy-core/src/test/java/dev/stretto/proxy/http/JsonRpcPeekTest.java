package dev.stretto.proxy.http;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.stretto.proxy.http.JsonRpcPeek.Kind;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class JsonRpcPeekTest {

    private static JsonRpcPeek peek(String s) {
        return JsonRpcPeek.of(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void classifiesMessages() {
        assertEquals(new JsonRpcPeek(Kind.REQUEST, "tools/call", "7", null),
                peek("{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"tools/call\",\"params\":{\"a\":[1,{}]}}"));
        assertEquals(new JsonRpcPeek(Kind.REQUEST, "ping", "\"a\\\"b\"", null),
                peek("{\"id\":\"a\\\"b\",\"method\":\"ping\"}"));
        assertEquals(new JsonRpcPeek(Kind.NOTIFICATION, "notifications/initialized", null, null),
                peek("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}"));
        assertEquals(Kind.RESPONSE, peek("{\"jsonrpc\":\"2.0\",\"id\":0,\"result\":{}}").kind());
        assertEquals("null", peek("{\"jsonrpc\":\"2.0\",\"id\":null,\"error\":{}}").id());
        assertEquals(Kind.OTHER_OBJECT, peek("{\"jsonrpc\":\"2.0\"}").kind());
    }

    @Test
    void numberIdKeepsItsSpelling() {
        assertEquals("1.50", peek("{\"id\":1.50,\"method\":\"m\"}").id());
    }

    @Test
    void readsProtocolVersionOfAResult() {
        assertEquals("2025-11-25", peek("{\"result\":{\"capabilities\":{\"x\":{\"protocolVersion\":\"no\"}},"
                + "\"protocolVersion\":\"2025-11-25\"},\"id\":1,\"jsonrpc\":\"2.0\"}").protocolVersion());
        assertNull(peek("{\"result\":[],\"id\":1}").protocolVersion());
    }

    @Test
    void tellsBadLinesApart() {
        assertSame(Kind.BLANK, peek(" \t\r").kind());
        assertSame(Kind.NOT_JSON, peek("hello").kind());
        assertSame(Kind.NOT_JSON, peek("{\"id\":1").kind());
        assertSame(Kind.NOT_JSON, peek("{\"id\":1} {}").kind());
        assertSame(Kind.NOT_OBJECT, peek("[{\"id\":1,\"method\":\"a\"}]").kind());
        assertSame(Kind.NOT_OBJECT, peek("42").kind());
    }

    @Test
    void compactsOnlyWhitespaceOutsideStrings() {
        byte[] pretty = "{\n  \"a\" : \"x y\\n\\\" z\",\r\n  \"b\": [1, 2]\n}\n".getBytes(StandardCharsets.UTF_8);
        assertArrayEquals("{\"a\":\"x y\\n\\\" z\",\"b\":[1,2]}".getBytes(StandardCharsets.UTF_8),
                JsonCompactor.oneLine(pretty));
        byte[] oneLine = "{\"a\": 1,  \"b\" : 2}".getBytes(StandardCharsets.UTF_8);
        assertSame(oneLine, JsonCompactor.oneLine(oneLine));
    }

    @Test
    void errorLinesAreCompactWithSortedKeys() {
        assertEquals("{\"error\":{\"code\":-32000,\"message\":\"a \\\"b\\\"\"},\"id\":\"x\",\"jsonrpc\":\"2.0\"}",
                new String(ErrorLines.error("\"x\"", -32000, "a \"b\""), StandardCharsets.UTF_8));
        assertEquals("{\"error\":{\"code\":-32700,\"message\":\"m\"},\"id\":null,\"jsonrpc\":\"2.0\"}",
                new String(ErrorLines.error(null, -32700, "m"), StandardCharsets.UTF_8));
    }

    @Test
    void backoffGrowsFromTheHintUpToTheCap() {
        Tuning t = Tuning.DEFAULT;
        assertEquals(1000, t.delay(0, -1).toMillis());
        assertEquals(1000, t.delay(1, -1).toMillis());
        assertEquals(4000, t.delay(3, -1).toMillis());
        assertEquals(30000, t.delay(20, -1).toMillis());
        assertEquals(250, t.delay(0, 250).toMillis());
        assertEquals(500, t.delay(2, 250).toMillis());
    }
}
