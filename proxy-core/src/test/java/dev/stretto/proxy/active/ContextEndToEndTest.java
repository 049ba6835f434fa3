package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.RetailGuardsEndToEndTest.onlyLog;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code --context FILE} through the real proxy in front of the real retail demo. */
class ContextEndToEndTest {

    private static void append(Path file, String text) throws Exception {
        Files.writeString(file, text, StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** The log as short labels: {@code context:<content>}, {@code client:<id>}, {@code server:<id>}. */
    private static List<String> labels(SessionLog log) {
        List<String> out = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            var m = ((Payload.Message) e.payload()).tree().orElseThrow();
            out.add(e.from().wireName() + ":" + (m.has("content") ? m.get("content").asText() : m.path("id").asText()));
        }
        return out;
    }

    @Test
    void linesAppendedDuringTheSessionAreLoggedBeforeTheNextCallAndAPartialLineWaitsForItsEnd(@TempDir Path tmp)
            throws Exception {
        Path conversation = tmp.resolve("conversation.jsonl");
        Path logs = tmp.resolve("logs");
        ProxyConfig config = ProxyConfig.builder(Demo.retail()).record(logs).domain("retail")
                .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).context(conversation).build())
                .build();
        try (LiveHost host = LiveHost.start(config)) {
            host.handshake();
            append(conversation, "{\"role\":\"user\",\"content\":\"Hi, I'm c7@example.com. Cancel #W7a, I ordered it by"
                    + " mistake.\"}\n");
            host.call(3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}");
            host.call(4, "get_user_details", "{\"user_id\":\"user_7\"}");
            append(conversation, "\n{\"role\":\"assistant\",\"content\":\"Shall I cancel #W7a?\"}\n{\"role\":\"user\",\"content\":\"Yes, ca");
            host.call(5, "get_order_details", "{\"order_id\":\"#W7a\"}");
            append(conversation, "ncel it.\"}\r\n");
            host.call(6, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}");
            append(conversation, "{\"role\":\"assistant\",\"content\":\"Done.\"}\n");
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        SessionLog log = onlyLog(logs);
        assertEquals(List.of("client:1", "server:1", "client:", "client:2", "server:2",
                "context:Hi, I'm c7@example.com. Cancel #W7a, I ordered it by mistake.", "client:3", "server:3",
                "client:4", "server:4",
                "context:Shall I cancel #W7a?", "client:5", "server:5",
                "context:Yes, cancel it.", "client:6", "server:6",
                "context:Done."), labels(log));
        Episode ep = Episode.of(log);
        assertEquals(List.of("Hi, I'm c7@example.com. Cancel #W7a, I ordered it by mistake.", "Yes, cancel it."),
                ep.events().stream().filter(e -> e instanceof Event.User).map(e -> ((Event.User) e).text()).toList());
    }
}
