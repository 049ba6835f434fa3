package dev.stretto.cli.console;

import dev.stretto.trace.log.JsonText;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a session log file line by line, as the proxy would, for the console's and the learning commands' tests. */
public final class TestLog {

    private final StringBuilder text = new StringBuilder();

    private TestLog() {
    }

    /** A log whose header names {@code session} (UTC start to the ms, then the pid) and {@code domain}. */
    public static TestLog of(String session, long startedUnixMs, String domain) {
        TestLog log = new TestLog();
        log.text.append("{\"stretto_mcp_log\":2,\"session\":").append(quote(session))
                .append(",\"started_unix_ms\":").append(startedUnixMs)
                .append(",\"server_command\":[\"stretto-mcp-demo\",\"--world\",\"retail\"],\"domain\":")
                .append(domain == null ? "null" : quote(domain)).append(",\"agent_model\":null}\n");
        return log;
    }

    public TestLog line(long t, String from, String json) {
        text.append("{\"t_ms\":").append(t).append(",\"from\":\"").append(from).append("\",\"message\":").append(json)
                .append("}\n");
        return this;
    }

    public TestLog initialize(long t, String client) {
        line(t, "client", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":" + quote(client)
                + ",\"version\":\"1\"}}}");
        return line(t + 1, "server", "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"protocolVersion\":\"2025-06-18\","
                + "\"serverInfo\":{\"name\":\"stretto-mcp-demo\",\"version\":\"0.1.0\"},\"capabilities\":{}}}");
    }

    public TestLog call(long t, Object id, String tool, String argsJson) {
        return line(t, "client", "{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":" + quote(tool) + ",\"arguments\":" + argsJson + "}}");
    }

    public TestLog result(long t, Object id, String text, boolean error) {
        return result(t, "server", id, text, error);
    }

    public TestLog result(long t, String from, Object id, String text, boolean error) {
        return line(t, from, "{\"id\":" + idJson(id) + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                + quote(text) + ",\"type\":\"text\"}],\"isError\":" + error + "}}");
    }

    public TestLog said(long t, String role, String content) {
        return line(t, "context", "{\"role\":\"" + role + "\",\"content\":" + quote(content) + "}");
    }

    /** A call of {@code tool} at {@code t} and its successful result with {@code resultText} 1 ms later. */
    public TestLog turn(long t, Object id, String tool, String argsJson, String resultText) {
        call(t, id, tool, argsJson);
        return result(t + 1, id, resultText, false);
    }

    /**
     * The initialize and tools/list exchange of a recorded shop session (lines 2 to 6 of the
     * reference's {@code home/logs/shop/20260928T020400.548Z-14457.jsonl}), as they are.
     */
    public TestLog shopOpening() throws IOException {
        Files.readAllLines(Fixtures.file("home/logs/shop/20260928T020400.548Z-14457.jsonl"), StandardCharsets.UTF_8)
                .subList(1, 6).forEach(this::raw);
        return this;
    }

    public TestLog raw(String line) {
        text.append(line).append('\n');
        return this;
    }

    public String text() {
        return text.toString();
    }

    public Path writeTo(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /** A JSON string; a surrogate as its escape, as a wire message would carry a lone one. */
    public static String quote(String s) {
        StringBuilder b = new StringBuilder();
        for (char c : JsonText.quote(s).toCharArray()) {
            b.append(Character.isSurrogate(c) ? String.format("\\u%04x", (int) c) : String.valueOf(c));
        }
        return b.toString();
    }

    private static String idJson(Object id) {
        return id instanceof String s ? quote(s) : String.valueOf(id);
    }
}
