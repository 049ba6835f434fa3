package dev.stretto.proxy.share;

import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogFormatException;
import dev.stretto.trace.log.SessionLog;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/** Session logs made in a test, line by line, as the proxy writes them. */
final class Logs {

    private final String session;
    private final List<String> lines = new ArrayList<>();
    private long t;
    private int id = 1;

    Logs(String session) {
        this(session, "[\"demo\"]", null);
    }

    Logs(String session, String serverCommandJson, String hostSession) {
        this.session = session;
        lines.add("{\"stretto_mcp_log\":2,\"session\":\"" + session + "\",\"started_unix_ms\":1790000000000,"
                + "\"server_command\":" + serverCommandJson + ",\"domain\":\"demo\",\"agent_model\":null"
                + (hostSession == null ? "" : ",\"host_session\":\"" + hostSession + "\"") + "}");
    }

    Logs entry(String from, String messageJson) {
        lines.add("{\"t_ms\":" + (t++) + ",\"from\":\"" + from + "\",\"message\":" + messageJson + "}");
        return this;
    }

    Logs raw(String from, String text) {
        lines.add("{\"t_ms\":" + (t++) + ",\"from\":\"" + from + "\",\"raw\":" + CanonicalJson.write(
                com.fasterxml.jackson.databind.node.TextNode.valueOf(text)) + "}");
        return this;
    }

    Logs said(String role, String text) {
        return entry("context", "{\"role\":\"" + role + "\",\"content\":" + quote(text) + "}");
    }

    /** A call of {@code tool} with {@code argumentsJson} and its result, whose text is {@code resultText}. */
    Logs call(String tool, String argumentsJson, String resultText) {
        int i = id++;
        entry("client", "{\"jsonrpc\":\"2.0\",\"id\":" + i + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + argumentsJson + "}}");
        return entry("server", "{\"id\":" + i + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                + quote(resultText) + ",\"type\":\"text\"}],\"isError\":false}}");
    }

    static String quote(String s) {
        return dev.stretto.trace.log.JsonText.quote(s);
    }

    String text() {
        return String.join("\n", lines) + "\n";
    }

    String name() {
        return session + ".jsonl";
    }

    SessionLog log() throws LogFormatException {
        return SessionLog.parse(text().getBytes(StandardCharsets.UTF_8), name());
    }

    ShareFile.Session file() throws LogFormatException {
        return new ShareFile.Session(name(), log());
    }
}
