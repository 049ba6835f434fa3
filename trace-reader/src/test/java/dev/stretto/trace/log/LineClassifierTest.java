package dev.stretto.trace.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineClassifierTest {

    private static Payload classify(String s) {
        return LineClassifier.classify(s.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void oneJsonObjectIsAMessageKeptVerbatim() {
        assertEquals(new Payload.Message("{\"b\":1.50, \"a\":\"\\u00E9\"}"),
                classify("{\"b\":1.50, \"a\":\"\\u00E9\"}\n"));
    }

    @Test
    void crlfAndSurroundingWhitespaceAreTrimmedFromAMessage() {
        assertEquals(new Payload.Message("[1,2]"), classify("  [1,2] \r\n"));
    }

    @Test
    void aBatchIsAMessage() {
        assertEquals(new Payload.Message("[{\"id\":1},{\"id\":2}]"), classify("[{\"id\":1},{\"id\":2}]"));
    }

    /**
     * A message must also read back where the reference reads logs (serde_json): a line it
     * cannot parse would make the reference's reader reject the whole log, so such a line
     * is logged as raw text, as the reference's own writer does.
     */
    @Test
    void jsonTheReferenceCannotReadBackIsRaw() {
        assertEquals(new Payload.Raw("{\"s\":\"\\ud800\"}"), classify("{\"s\":\"\\ud800\"}\n"));
        assertEquals(new Payload.Raw("{\"\\udc00\":1}"), classify("{\"\\udc00\":1}"));
        assertEquals(new Payload.Raw("[1e400]"), classify("[1e400]"));
        assertEquals(new Payload.Raw("-" + "9".repeat(400)), classify("-" + "9".repeat(400)));
        // The entry wraps the message in one more object, and serde_json stops at depth 128.
        String deepest = "[".repeat(126) + "]".repeat(126);
        assertEquals(new Payload.Message(deepest), classify(deepest));
        String tooDeep = "[".repeat(127) + "]".repeat(127);
        assertEquals(new Payload.Raw(tooDeep), classify(tooDeep));
        // Paired surrogates and large but finite numbers are fine.
        assertEquals(new Payload.Message("{\"s\":\"\\ud83d\\ude00\",\"n\":1e300,\"u\":18446744073709551616}"),
                classify("{\"s\":\"\\ud83d\\ude00\",\"n\":1e300,\"u\":18446744073709551616}"));
    }

    @Test
    void twoValuesOnOneLineAreRaw() {
        assertEquals(new Payload.Raw("{} {}"), classify("{} {}\n"));
    }

    @Test
    void textIsRawWithoutItsTerminator() {
        assertEquals(new Payload.Raw("Listening on stdio"), classify("Listening on stdio\r\n"));
    }

    @Test
    void aBlankLineIsEmptyRaw() {
        assertEquals(new Payload.Raw(""), classify("\n"));
        assertEquals(new Payload.Raw(""), classify(""));
    }

    @Test
    void invalidUtf8IsRawWithReplacementCharacters() {
        byte[] line = {'{', '"', 'a', '"', ':', '"', (byte) 0xff, '"', '}', '\n'};
        assertEquals(new Payload.Raw("{\"a\":\"\uFFFD\"}"), LineClassifier.classify(line));
    }

    @Test
    void truncatedJsonIsRaw() {
        assertEquals(new Payload.Raw("{\"a\":"), classify("{\"a\":"));
    }

    @Test
    void aBareScalarIsOneJsonValue() {
        assertEquals(new Payload.Message("42"), classify("42\n"));
    }

    @Test
    void entryJsonUsesLowercaseHexForControlCharacters() {
        LogEntry e = new LogEntry(7, Source.SERVER, new Payload.Raw("a\u0001\"é\t"));
        assertEquals("{\"t_ms\":7,\"from\":\"server\",\"raw\":\"a\\u0001\\\"é\\t\"}", e.toJson());
    }

    @Test
    void messageEntrySplicesTheLineIn() {
        LogEntry e = new LogEntry(12, Source.CLIENT, new Payload.Message("{\"jsonrpc\":\"2.0\",\"id\":3}"));
        assertEquals("{\"t_ms\":12,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":3}}", e.toJson());
    }

    @Test
    void headerWritesFieldsInReferenceOrder() {
        LogHeader h = LogHeader.of("20260923T212000.123Z-4242", 1790198400123L,
                java.util.List.of("npx", "-y", "some-mcp-server"), "orders", null, "host-1");
        assertEquals("{\"stretto_mcp_log\":2,\"session\":\"20260923T212000.123Z-4242\",\"started_unix_ms\":1790198400123,"
                + "\"server_command\":[\"npx\",\"-y\",\"some-mcp-server\"],\"domain\":\"orders\",\"agent_model\":null,"
                + "\"host_session\":\"host-1\"}", h.toJson());
    }
}
