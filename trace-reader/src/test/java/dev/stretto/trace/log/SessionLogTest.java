package dev.stretto.trace.log;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionLogTest {

    private static final String HEADER = "{\"stretto_mcp_log\":2,\"session\":\"s1\",\"started_unix_ms\":5,"
            + "\"server_command\":[\"srv\"],\"domain\":null,\"agent_model\":null}";
    private static final String ENTRY = "{\"t_ms\":1,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1}}";

    private static SessionLog parse(String text) throws LogFormatException {
        return SessionLog.parse(text.getBytes(StandardCharsets.UTF_8), "x.jsonl");
    }

    private static LogFormatException bad(String text) {
        return assertThrows(LogFormatException.class, () -> parse(text));
    }

    @Test
    void everyFixtureLogReadsAndWritesBackByteForByte() throws IOException {
        for (Path p : Fixtures.homeLogs()) {
            SessionLog log = SessionLog.read(p);
            assertEquals(Files.readString(p), log.toJsonLines(), p.toString());
        }
    }

    @Test
    void messagesKeepTheirTextVerbatim() throws LogFormatException {
        String msg = "{ \"b\" : 1.50,\"a\":\"\\u00E9\\n\" , \"c\":[1e3, -0, {}] }";
        SessionLog log = parse(HEADER + "\n{\"t_ms\":3,\"from\":\"server\",\"message\":" + msg + "}\n");
        assertEquals(new Payload.Message(msg), log.entries().getFirst().payload());
    }

    @Test
    void scalarMessagesKeepTheirTextVerbatim() throws LogFormatException {
        SessionLog log = parse(HEADER + "\n"
                + "{\"t_ms\":1,\"from\":\"server\",\"message\":\"a\\\"b\"}\n"
                + "{\"t_ms\":2,\"from\":\"server\",\"message\":42.10}\n"
                + "{\"message\":true,\"t_ms\":3,\"from\":\"server\"}\n"
                + "{\"t_ms\":4,\"from\":\"server\",\"message\":null}\n");
        assertEquals(List.of(new Payload.Message("\"a\\\"b\""), new Payload.Message("42.10"),
                        new Payload.Message("true"), new Payload.Message("null")),
                log.entries().stream().map(LogEntry::payload).toList());
    }

    @Test
    void rawEntriesAreReadAsText() throws LogFormatException {
        SessionLog log = parse(HEADER + "\n{\"t_ms\":7,\"from\":\"server\",\"raw\":\"Listening \\u0001 é\"}\n");
        assertEquals(new LogEntry(7, Source.SERVER, new Payload.Raw("Listening \u0001 é")), log.entries().getFirst());
    }

    @Test
    void blankLinesAreSkipped() throws LogFormatException {
        SessionLog log = parse("\n" + HEADER + "\n\n  \r\n" + ENTRY + "\n\n");
        assertEquals(1, log.entries().size());
    }

    @Test
    void aTornLastLineIsLeftOutAndItsNumberKept() throws LogFormatException {
        SessionLog log = parse(HEADER + "\n" + ENTRY + "\n{\"t_ms\":2,\"from\":\"cli");
        assertEquals(1, log.entries().size());
        assertEquals(3, log.tornLine());
        assertEquals(0, parse(HEADER + "\n" + ENTRY + "\n").tornLine());
    }

    @Test
    void aLastLineWithoutNewlineThatParsesIsKept() throws LogFormatException {
        SessionLog log = parse(HEADER + "\n" + ENTRY + "\n" + ENTRY);
        assertEquals(2, log.entries().size());
    }

    @Test
    void aBadLineInTheMiddleIsReportedWithItsLineNumber() {
        LogFormatException e = bad(HEADER + "\n" + ENTRY + "\n\n{\"t_ms\":2,\"from\":\"cli\n" + ENTRY + "\n");
        assertEquals("x.jsonl", e.file());
        assertEquals(4, e.line());
        assertEquals("x.jsonl:4: " + e.reason(), e.getMessage());
    }

    @Test
    void aBadLastLineWithItsNewlineIsAnError() {
        assertEquals(2, bad(HEADER + "\n{\"t_ms\":2\n").line());
    }

    @Test
    void entriesMustHaveTheirFields() {
        assertEquals("x.jsonl:2: the entry has no \"t_ms\"",
                bad(HEADER + "\n{\"from\":\"client\",\"raw\":\"\"}\n").getMessage());
        assertEquals("x.jsonl:2: the entry has no \"from\"",
                bad(HEADER + "\n{\"t_ms\":1,\"raw\":\"\"}\n").getMessage());
        assertEquals("x.jsonl:2: the entry has neither \"message\" nor \"raw\"",
                bad(HEADER + "\n{\"t_ms\":1,\"from\":\"client\"}\n").getMessage());
        assertEquals("x.jsonl:2: \"from\" must be client, server, proxy or context, not \"host\"",
                bad(HEADER + "\n{\"t_ms\":1,\"from\":\"host\",\"raw\":\"\"}\n").getMessage());
        assertEquals("x.jsonl:2: \"t_ms\" must be a non-negative integer",
                bad(HEADER + "\n{\"t_ms\":-1,\"from\":\"client\",\"raw\":\"\"}\n").getMessage());
        assertEquals("x.jsonl:2: an entry holds one \"message\" or one \"raw\"",
                bad(HEADER + "\n{\"t_ms\":1,\"from\":\"client\",\"raw\":\"\",\"message\":{}}\n").getMessage());
        assertEquals("x.jsonl:2: text after the entry's closing brace",
                bad(HEADER + "\n{\"t_ms\":1,\"from\":\"client\",\"raw\":\"\"} {}\n").getMessage());
    }

    @Test
    void invalidUtf8IsAnError() {
        byte[] h = (HEADER + "\n{\"t_ms\":1,\"from\":\"client\",\"raw\":\"").getBytes(StandardCharsets.UTF_8);
        byte[] content = new byte[h.length + 4];
        System.arraycopy(h, 0, content, 0, h.length);
        content[h.length] = (byte) 0xff;
        content[h.length + 1] = '"';
        content[h.length + 2] = '}';
        content[h.length + 3] = '\n';
        LogFormatException e = assertThrows(LogFormatException.class, () -> SessionLog.parse(content, "u.jsonl"));
        assertEquals("u.jsonl:2: the line is not valid UTF-8", e.getMessage());
    }

    @Test
    void versionOneIsAccepted() throws LogFormatException {
        SessionLog log = parse("{\"stretto_mcp_log\":1,\"session\":\"old\",\"started_unix_ms\":1,"
                + "\"server_command\":[\"a\"],\"domain\":\"d\",\"agent_model\":\"m\"}\n" + ENTRY + "\n");
        assertEquals(1, log.header().version());
        assertEquals("d", log.header().domain());
        assertEquals("m", log.header().agentModel());
    }

    @Test
    void otherVersionsAreRejected() {
        assertEquals("x.jsonl:1: unsupported session log version 3 (this reader knows 1 and 2)",
                bad(HEADER.replace(":2,", ":3,") + "\n").getMessage());
    }

    @Test
    void unknownHeaderFieldsAreKeptInOrder() throws LogFormatException {
        String header = "{\"stretto_mcp_log\":2,\"session\":\"s\",\"started_unix_ms\":1,\"server_command\":[],"
                + "\"domain\":null,\"agent_model\":null,\"host_session\":\"h\",\"server_name\":\"n\","
                + "\"zeta\":{\"k\":[1,2]},\"alpha\":\"x\"}";
        SessionLog log = parse(header + "\n");
        assertEquals(List.of("zeta", "alpha"), List.copyOf(log.header().extra().keySet()));
        assertEquals("h", log.header().hostSession());
        assertEquals("n", log.header().serverName());
        assertEquals(header, log.header().toJson());
    }

    @Test
    void unknownHeaderFieldsAreWrittenBackInTheReferencesSpelling() throws LogFormatException {
        // Lowercase u-escapes and Rust's number spelling, as every other line this code
        // writes (Jackson's own writer gives \\u001F and 1.0E-7), keys in the file's order.
        String header = "{\"stretto_mcp_log\":2,\"session\":\"s\",\"started_unix_ms\":1,\"server_command\":[],"
                + "\"domain\":null,\"agent_model\":null,\"later\":{\"ctl\":\"\\u001f\",\"tiny\":1e-7,\"n\":[0.5,12]}}";
        assertEquals(header, parse(header + "\n").header().toJson());
    }

    @Test
    void aFileWithoutAHeaderIsNotASessionLog() {
        assertEquals("x.jsonl:1: not a session log: the file has no header line", bad("").getMessage());
        assertEquals("x.jsonl:1: not a session log: the first line has no \"stretto_mcp_log\" header",
                bad("{\"action\":\"lookup\"}\n").getMessage());
        assertEquals("x.jsonl:1: not a session log: the first line is not JSON", bad("hello\n").getMessage());
        assertEquals("x.jsonl:1: header: \"session\" must be a string",
                bad("{\"stretto_mcp_log\":2,\"started_unix_ms\":1}\n").getMessage());
    }

    @Test
    void theFlowLogFixtureIsNotASessionLog() {
        LogFormatException e = assertThrows(LogFormatException.class, () -> SessionLog.read(
                Fixtures.file("home/served/shop/20260928T020401.117Z-14662.flow.jsonl")));
        assertEquals(1, e.line());
    }

    @Test
    void headerFieldsAreRead() throws IOException {
        SessionLog log = SessionLog.read(Fixtures.file("home/logs/retail/20260928T020401.312Z-14780.jsonl"));
        LogHeader h = log.header();
        assertEquals("20260928T020401.312Z-14780", h.session());
        assertEquals(1790561041312L, h.startedUnixMs());
        assertEquals(List.of("stretto-mcp-demo", "--world", "retail"), h.serverCommand());
        assertEquals("retail", h.domain());
        assertNull(h.agentModel());
        assertNull(h.hostSession());
        assertEquals(19, log.entries().size());
    }

    @Test
    void aDirectoryIsReadSortedWithoutFlowAndConfirmLogs(@TempDir Path dir) throws IOException {
        Files.writeString(dir.resolve("b.jsonl"), HEADER.replace("s1", "b") + "\n");
        Files.writeString(dir.resolve("a.jsonl"), HEADER.replace("s1", "a") + "\n");
        Files.writeString(dir.resolve("a.flow.jsonl"), "{\"after\":1}\n");
        Files.writeString(dir.resolve("a.confirm.jsonl"), "{\"call\":1}\n");
        Files.writeString(dir.resolve("notes.txt"), "x");
        Files.createDirectory(dir.resolve("sub"));
        Files.writeString(dir.resolve("sub/c.jsonl"), HEADER.replace("s1", "c") + "\n");
        assertEquals(List.of("a", "b"), SessionLog.readDirectory(dir).stream().map(SessionLog::session).toList());
        assertEquals(List.of(dir.resolve("a.jsonl"), dir.resolve("b.jsonl"), dir.resolve("sub/c.jsonl")),
                SessionLog.logFilesRecursively(dir));
    }
}
