package dev.stretto.trace.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class LineClassifierTest {

    private static Payload classify(String s) {
        return classify(s.getBytes(StandardCharsets.UTF_8));
    }

    /** Every line classified here is also asked isMessage, which must agree. */
    private static Payload classify(byte[] line) {
        Payload p = LineClassifier.classify(line);
        assertEquals(p instanceof Payload.Message, LineClassifier.isMessage(line),
                () -> "isMessage disagrees with classify on " + p);
        return p;
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

    /**
     * Given bytes, Jackson detects UTF-16 and UTF-32 from NUL bytes and skips a byte order
     * mark: such lines read as JSON there, but spliced into the log as they are, the log line
     * is no JSON at all. Only well-formed UTF-8 with no BOM can be a message (RFC 8259 8.1).
     */
    @Test
    void jsonInAnotherEncodingOrAfterAByteOrderMarkIsRaw() {
        byte[] utf16le = "{\"a\":1}".getBytes(StandardCharsets.UTF_16LE);
        assertEquals(new Payload.Raw("{\u0000\"\u0000a\u0000\"\u0000:\u00001\u0000}\u0000"),
                classify(utf16le));
        byte[] utf16be = "[1]".getBytes(StandardCharsets.UTF_16BE);
        assertEquals(new Payload.Raw("\u0000[\u00001\u0000]"), classify(utf16be));
        byte[] utf32le = {'1', 0, 0, 0};
        assertEquals(new Payload.Raw("1\u0000\u0000\u0000"), classify(utf32le));
        assertEquals(new Payload.Raw("1\u0000"), classify(new byte[] {'1', 0}));
        assertEquals(new Payload.Raw("{\u0000}\u0000"), classify(new byte[] {'{', 0, '}', 0}));
        byte[] bom = {(byte) 0xEF, (byte) 0xBB, (byte) 0xBF, '{', '}', '\n'};
        assertEquals(new Payload.Raw("\uFEFF{}"), classify(bom));
        byte[] utf16bom = {(byte) 0xFF, (byte) 0xFE, '{', 0, '}', 0};
        assertEquals(new Payload.Raw("\uFFFD\uFFFD{\u0000}\u0000"), classify(utf16bom));
    }

    @Test
    void controlCharactersOutsideJsonWhiteSpaceMakeALineRaw() {
        assertEquals(new Payload.Raw("{\"a\":\"x\u0001\"}"), classify("{\"a\":\"x\u0001\"}"));
        assertEquals(new Payload.Raw("[1,\u000b2]"), classify("[1,\u000b2]"));
        assertEquals(new Payload.Raw("[1,\f2]"), classify("[1,\f2]"));
        assertEquals(new Payload.Raw("[1]\u0000"), classify("[1]\u0000"));
        assertEquals(new Payload.Raw("[1\u00a0]"), classify("[1\u00a0]"));
        assertEquals(new Payload.Raw("{}\uFEFF"), classify("{}\uFEFF"));
        // Form feed is ASCII white space: trimmed around the value, like the reference does.
        assertEquals(new Payload.Message("[1, 2]"), classify("\f[1, 2]\f\r\n"));
        assertEquals(new Payload.Message("[1,\t\r\n2]"), classify("[1,\t\r\n2]"));
    }

    @Test
    void extensionsOfJsonThatJacksonCanBeToldToAcceptAreRaw() {
        for (String notJson : new String[] {"[01]", "[1.]", "[.5]", "[+1]", "[NaN]", "[Infinity]", "[1,]",
                "{\"a\":1,}", "['a']", "{a:1}", "[1] // c", "/* c */ [1]", "[\"\\x\"]", "[,1]", "-", "tru"}) {
            assertEquals(new Payload.Raw(notJson), classify(notJson), notJson);
        }
    }

    @Test
    void anEncodedSurrogateIsInvalidUtf8AndRawWithOneReplacementPerByte() {
        byte[] line = {'"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"'};
        assertEquals(new Payload.Raw("\"\uFFFD\uFFFD\uFFFD\""), classify(line));
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
        assertEquals(new Payload.Raw("{\"a\":\"\uFFFD\"}"), classify(line));
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
