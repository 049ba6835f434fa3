package dev.stretto.cli.console;

import dev.stretto.trace.log.JsonText;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;

/** Writes a session log file line by line, as the proxy would, for the console's tests. */
final class TestLog {

    private final StringBuilder text = new StringBuilder();

    private TestLog() {
    }

    /** A log whose header names {@code session} (UTC start to the ms, then the pid) and {@code domain}. */
    static TestLog of(String session, long startedUnixMs, String domain) {
        TestLog log = new TestLog();
        log.text.append("{\"stretto_mcp_log\":2,\"session\":").append(quote(session))
                .append(",\"started_unix_ms\":").append(startedUnixMs)
                .append(",\"server_command\":[\"stretto-mcp-demo\",\"--world\",\"retail\"],\"domain\":")
                .append(domain == null ? "null" : quote(domain)).append(",\"agent_model\":null}\n");
        return log;
    }

    TestLog line(long t, String from, String json) {
        text.append("{\"t_ms\":").append(t).append(",\"from\":\"").append(from).append("\",\"message\":").append(json)
                .append("}\n");
        return this;
    }

    TestLog initialize(long t, String client) {
        line(t, "client", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":" + quote(client)
                + ",\"version\":\"1\"}}}");
        return line(t + 1, "server", "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"protocolVersion\":\"2025-06-18\","
                + "\"serverInfo\":{\"name\":\"stretto-mcp-demo\",\"version\":\"0.1.0\"},\"capabilities\":{}}}");
    }

    TestLog call(long t, Object id, String tool, String argsJson) {
        return line(t, "client", "{\"jsonrpc\":\"2.0\",\"id\":" + idJson(id) + ",\"method\":\"tools/call\",\"params\":"
                + "{\"name\":" + quote(tool) + ",\"arguments\":" + argsJson + "}}");
    }

    TestLog result(long t, Object id, String text, boolean error) {
        return result(t, "server", id, text, error);
    }

    TestLog result(long t, String from, Object id, String text, boolean error) {
        return line(t, from, "{\"id\":" + idJson(id) + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                + quote(text) + ",\"type\":\"text\"}],\"isError\":" + error + "}}");
    }

    TestLog said(long t, String role, String content) {
        return line(t, "context", "{\"role\":\"" + role + "\",\"content\":" + quote(content) + "}");
    }

    TestLog raw(String line) {
        text.append(line).append('\n');
        return this;
    }

    String text() {
        return text.toString();
    }

    Path writeTo(Path file) throws IOException {
        Files.createDirectories(file.getParent());
        Files.writeString(file, text, StandardCharsets.UTF_8);
        return file;
    }

    /** A JSON string; a surrogate as its escape, as a wire message would carry a lone one. */
    static String quote(String s) {
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
