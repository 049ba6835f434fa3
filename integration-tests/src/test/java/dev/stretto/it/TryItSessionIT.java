package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The README's try-it session (bin/try): the proxy in front of the demo, recording. */
class TryItSessionIT {
    /** The lines bin/try sends, as written there. */
    static final List<String> TRY_IT_LINES = List.of(
            "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"shell\",\"version\":\"0\"}}}",
            "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}",
            "{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\",\"arguments\":{\"text\":\"hello\"}}}",
            "{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\",\"params\":{\"name\":\"update\",\"arguments\":{\"text\":\"hi\",\"fail\":true}}}");

    @TempDir
    Path logs;

    @Test
    void tryItSessionIsAnsweredAndLoggedFieldByField() throws Exception {
        long before = System.currentTimeMillis();
        int status;
        String out;
        try (Proc p = Proc.start(List.of(Repo.bin("try"), logs.toString()))) {
            status = p.waitFor();
            out = new String(p.stdoutBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertEquals(0, status, "bin/try exit status; stderr:\n" + p.stderr());
        }
        long after = System.currentTimeMillis();

        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log.path())));

        JsonNode h = log.header();
        List<String> fields = new ArrayList<>();
        h.fieldNames().forEachRemaining(fields::add);
        assertEquals(List.of("stretto_mcp_log", "session", "started_unix_ms", "server_command", "domain",
                "agent_model", "host_session"), fields);
        assertEquals(2, h.get("stretto_mcp_log").asInt());
        String session = h.get("session").asText();
        assertTrue(session.matches("\\d{8}T\\d{6}\\.\\d{3}Z-\\d+"), session);
        assertEquals(session + ".jsonl", log.path().getFileName().toString());
        long started = h.get("started_unix_ms").asLong();
        assertTrue(started >= before && started <= after, "started_unix_ms " + started);
        assertEquals(1, h.get("server_command").size());
        assertTrue(h.get("server_command").get(0).asText().endsWith("bin/stretto-mcp-demo"));
        assertEquals("demo", h.get("domain").asText());
        assertTrue(h.get("agent_model").isNull());
        assertTrue(h.get("host_session").asText().startsWith("host-"), h.toString());

        // 5 host lines and 4 answers, each logged.
        assertEquals(9, log.entries().size(), String.join("\n", log.lines()));
        log.assertTimesNeverDecrease();
        List<String> sent = new ArrayList<>();
        for (int i : log.indexesFrom("client")) {
            sent.add(log.messageText(i));
        }
        assertEquals(TRY_IT_LINES, sent, "the host's lines, verbatim and in order");
        Map<Integer, Integer> requestAt = new HashMap<>();
        for (int i = 0; i < log.entries().size(); i++) {
            JsonNode e = log.entries().get(i);
            JsonNode m = e.get("message");
            assertTrue(m != null && m.isObject(), "every line is a message here: " + e);
            if (e.get("from").asText().equals("client") && m.has("id")) {
                requestAt.put(m.get("id").asInt(), i);
            } else if (e.get("from").asText().equals("server")) {
                int id = m.get("id").asInt();
                assertTrue(requestAt.containsKey(id) && requestAt.get(id) < i, "request " + id + " before its response");
            }
        }
        assertEquals(4, log.indexesFrom("server").size());

        // And the session as a person reads it, through bin/stretto show.
        String timeline = out.substring(out.indexOf("== the same session as a person reads it"));
        assertTrue(timeline.contains("lookup {\"text\":\"hello\"}  id 3"), timeline);
        assertTrue(timeline.contains("2 calls, 1 failed, 1 turn, "), timeline);

        // The host saw the four answers; the failed update is an error result.
        String[] answers = out.substring(out.indexOf("\n") + 1, out.indexOf("== session log")).trim().split("\n");
        assertEquals(4, answers.length, out);
        for (String a : answers) {
            JsonNode m = SessionLogFile.JSON.readTree(a);
            if (m.get("id").asInt() == 3) {
                assertEquals("{\"text\":\"hello\"}", m.at("/result/content/0/text").asText());
                assertTrue(!m.at("/result/isError").asBoolean());
            }
            if (m.get("id").asInt() == 4) {
                assertTrue(m.at("/result/isError").asBoolean(), a);
            }
        }
    }
}
