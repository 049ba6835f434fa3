package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logs the real proxy records in front of the real demo read back, through trace-reader, to what was sent. */
class RecordedLogRoundTripIT {

    @TempDir
    Path logs;

    @Test
    void proxyRecordedLogReadsBackToTheMessagesSentAndAnEpisode() throws Exception {
        try (Proc p = Proc.start(List.of(Repo.bin("try"), logs.toString()))) {
            assertEquals(0, p.waitFor(), p.stderr());
        }
        Path file;
        try (var s = Files.list(logs)) {
            file = s.filter(f -> f.toString().endsWith(".jsonl")).findFirst().orElseThrow();
        }
        SessionLog log = SessionLog.read(file);

        List<String> sent = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == Source.CLIENT) {
                sent.add(((Payload.Message) e.payload()).json());
            }
        }
        assertEquals(TryItSessionIT.TRY_IT_LINES, sent, "the host's messages, exactly as sent");
        assertEquals(String.join("\n", Files.readAllLines(file)) + "\n", log.toJsonLines(),
                "the log writes back byte for byte");

        Episode ep = Episode.of(log);
        assertEquals(log.header().session(), ep.id());
        assertEquals("demo", ep.domain());
        assertEquals("shell", ep.agentModel(), "the host's clientInfo.name stands in for the model");
        assertEquals(List.of("lookup", "update"), ep.calls().stream().map(c -> c.name()).toList());
        assertEquals("{\"text\":\"hello\"}", ep.calls().get(0).arguments().toString());
        List<Event.ToolResult> results = ep.events().stream()
                .filter(Event.ToolResult.class::isInstance).map(Event.ToolResult.class::cast).toList();
        assertEquals(2, results.size());
        Event.ToolResult lookup = results.stream().filter(r -> r.callId().equals("3")).findFirst().orElseThrow();
        Event.ToolResult update = results.stream().filter(r -> r.callId().equals("4")).findFirst().orElseThrow();
        assertEquals("{\"text\":\"hello\"}", lookup.content());
        assertTrue(!lookup.error());
        assertTrue(update.error());
        assertEquals("update failed, as asked: {\"fail\":true,\"text\":\"hi\"}", update.content());
        Event.Assistant first = (Event.Assistant) ep.events().stream()
                .filter(Event.Assistant.class::isInstance).findFirst().orElseThrow();
        assertNull(first.text());
        assertEquals(Episode.fromJson(ep.toJson()), ep, "the episode's JSON reads back to itself");
    }

    @Test
    void strettoCommandShowsAndListsARecordedSession() throws Exception {
        try (Proc p = Proc.start(List.of(Repo.bin("try"), logs.toString()))) {
            assertEquals(0, p.waitFor(), p.stderr());
        }
        Path file;
        try (var s = Files.list(logs)) {
            file = s.filter(f -> f.toString().endsWith(".jsonl")).findFirst().orElseThrow();
        }
        try (Proc show = Proc.start(List.of(Repo.bin("stretto"), "show", file.toString()))) {
            assertEquals(0, show.waitFor(), show.stderr());
            String out = new String(show.stdoutBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(out.indexOf("lookup") >= 0 && out.indexOf("lookup") < out.indexOf("update"), out);
            assertTrue(!out.contains("\u001b["), "no colours when stdout is not a terminal");
        }
        try (Proc sessions = Proc.start(List.of(Repo.bin("stretto"), "sessions", logs.toString()))) {
            assertEquals(0, sessions.waitFor(), sessions.stderr());
            String out = new String(sessions.stdoutBytes(), java.nio.charset.StandardCharsets.UTF_8);
            assertTrue(out.contains(SessionLog.read(file).session()), out);
        }
        Path notALog = Files.writeString(logs.resolve("notes.jsonl"), "{\"hello\":1}\n");
        try (Proc bad = Proc.start(List.of(Repo.bin("stretto"), "show", notALog.toString()))) {
            assertEquals(1, bad.waitFor());
            assertTrue(bad.stderr().startsWith("stretto: " + notALog + ":1:"), bad.stderr());
        }
    }
}
