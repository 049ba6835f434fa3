package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy guards through the real proxy in front of the real {@code stretto-mcp-demo
 * --world retail}: the agent authenticates by email and looks up the user and the order, then
 * cancels.
 */
class RetailGuardsEndToEndTest {

    static ProxyConfig.Builder retail(Path logs) {
        return ProxyConfig.builder(Demo.retail())
                .record(logs)
                .domain("retail")
                .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).build());
    }

    static SessionLog onlyLog(Path dir) throws Exception {
        return SessionLog.read(onlyLogPath(dir));
    }

    static Path onlyLogPath(Path dir) throws Exception {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> logs = s.toList();
            assertEquals(1, logs.size(), "one session log in " + dir);
            return logs.getFirst();
        }
    }

    /** The log's entries whose message has {@code "id": id} (a number), from {@code from}. */
    static List<LogEntry> withId(SessionLog log, int id, Source from) {
        return log.entries().stream()
                .filter(e -> e.from() == from && e.payload() instanceof Payload.Message m
                        && m.tree().orElseThrow().path("id").asInt(-1) == id)
                .toList();
    }

    private static void lookUpCustomer7(LiveHost host) throws Exception {
        host.handshake();
        assertEquals("user_7", LiveHost.text(host.call(3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}")));
        host.call(4, "get_user_details", "{\"user_id\":\"user_7\"}");
    }

    @Test
    void aCancellationForAReasonThePolicyRejectsIsRefusedAndNeverReachesTheServer(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(retail(tmp).build())) {
            lookUpCustomer7(host);
            host.call(5, "get_order_details", "{\"order_id\":\"#W7a\"}");
            JsonNode refused = host.call(6, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"found it cheaper\"}");
            assertEquals("{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the policy check, so"
                    + " cancel_pending_order was not run and nothing changed: 'found it cheaper' is not an accepted reason"
                    + " (policy check retail.cancel_reason).\",\"type\":\"text\"}],\"isError\":true}}",
                    LiveHost.JSON.writeValueAsString(refused));
            // (b) the accepted reason reaches the server and succeeds.
            JsonNode done = host.call(7, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}");
            assertEquals("{\"order_id\":\"#W7a\",\"status\":\"cancelled\"}", LiveHost.text(done));
            assertFalse(done.path("result").path("isError").asBoolean());
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        SessionLog log = onlyLog(tmp);
        assertEquals(1, withId(log, 6, Source.CLIENT).size(), "the refused call is logged");
        assertEquals(1, withId(log, 6, Source.PROXY).size(), "so is the proxy's refusal");
        assertTrue(withId(log, 6, Source.SERVER).isEmpty(), "the server never answered it: it never saw it");
        assertEquals(1, withId(log, 7, Source.SERVER).size());
        int client = log.entries().indexOf(withId(log, 6, Source.CLIENT).getFirst());
        int proxy = log.entries().indexOf(withId(log, 6, Source.PROXY).getFirst());
        assertTrue(client < proxy, "the call is logged before its refusal");
        Episode ep = Episode.of(log);
        assertEquals(List.of("find_user_id_by_email", "get_user_details", "get_order_details", "cancel_pending_order",
                "cancel_pending_order"), ep.calls().stream().map(c -> c.name()).toList());
    }

    @Test
    void aCancellationWithoutTheOrderLookedUpFirstIsRefusedByStatusChecked(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(retail(tmp).build())) {
            lookUpCustomer7(host);
            JsonNode refused = host.call(5, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"no longer needed\"}");
            assertEquals("Refused by the policy check, so cancel_pending_order was not run and nothing changed: the order's"
                    + " status was not checked first (policy check retail.status_checked).", LiveHost.text(refused));
            assertTrue(refused.path("result").path("isError").asBoolean());
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        assertTrue(withId(onlyLog(tmp), 5, Source.SERVER).isEmpty());
    }
}
