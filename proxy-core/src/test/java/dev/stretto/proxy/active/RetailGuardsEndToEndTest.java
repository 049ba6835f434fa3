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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

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

    /** Customer 2's order, cancelled without its status looked up: refused whenever it is checked. */
    private static final String CANCEL_W2A = "\"method\":\"tools/call\",\"params\":{\"name\":\"cancel_pending_order\","
            + "\"arguments\":{\"order_id\":\"#W2a\",\"reason\":\"ordered by mistake\"}}";

    /** Whether the demo cancelled anything in the session logged in {@code dir}. */
    private static boolean anythingCancelled(Path dir) throws Exception {
        return onlyLog(dir).entries().stream().anyMatch(e -> e.from() == Source.SERVER
                && e.payload() instanceof Payload.Message m && m.json().contains("cancelled"));
    }

    @ParameterizedTest
    @ValueSource(strings = {"null", "{\"k\":3}", "[1]", "true", "6,\"id\":null"})
    void aCallWithAnIdTheSpecDoesNotAllowIsRefusedWithAJsonRpcErrorAndTheDemoNeverRunsIt(String id, @TempDir Path tmp)
            throws Exception {
        try (LiveHost host = LiveHost.start(retail(tmp).build())) {
            lookUpCustomer7(host);
            host.send("{\"jsonrpc\":\"2.0\",\"id\":" + id + "," + CANCEL_W2A + "}");
            String why = id.contains(",") ? "a tools/call has a key twice, or two keys that differ only in case, which"
                    + " servers read differently"
                    : "a tools/call's id must be a string or an integer of magnitude below 2^53, not " + id;
            assertEquals("{\"error\":{\"code\":-32600,\"message\":\"Refused by the policy check, so nothing was run and"
                    + " nothing changed: " + why.replace("\"", "\\\"") + ".\"},\"id\":null,\"jsonrpc\":\"2.0\"}",
                    host.nextLine());
            host.call(9, "get_order_details", "{\"order_id\":\"#W2a\"}");
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        assertFalse(anythingCancelled(tmp), "the demo cancels a call with any id, so it must never see this one");
    }

    @Test
    void aCallWithoutAnIdIsNeverSentNorAnswered(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(retail(tmp).build())) {
            lookUpCustomer7(host);
            host.send("{\"jsonrpc\":\"2.0\"," + CANCEL_W2A + "}");
            JsonNode next = host.call(9, "get_order_details", "{\"order_id\":\"#W2a\"}");
            assertEquals(9, next.path("id").asInt());
            assertEquals(9, host.received().getLast().path("id").asInt(), "nothing came before it");
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        assertFalse(anythingCancelled(tmp));
    }

    @Test
    void aBatchHoldingARefusedCallIsRefusedWholeWithAnAnswerForEachOfItsRequests(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(retail(tmp).build())) {
            lookUpCustomer7(host);
            host.send("[{\"jsonrpc\":\"2.0\",\"id\":50," + CANCEL_W2A + "},{\"jsonrpc\":\"2.0\",\"id\":51,\"method\":"
                    + "\"ping\"},{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{}}]");
            assertEquals("[{\"id\":50,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the policy check,"
                    + " so cancel_pending_order was not run and nothing changed: the order's status was not checked first"
                    + " (policy check retail.status_checked).\",\"type\":\"text\"}],\"isError\":true}},{\"error\":{\"code\":"
                    + "-32600,\"message\":\"Not sent: it came in a batch with a call the policy check refused, and nothing in"
                    + " the batch was sent.\"},\"id\":51,\"jsonrpc\":\"2.0\"}]", host.nextLine());
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        SessionLog log = onlyLog(tmp);
        assertTrue(log.entries().stream().noneMatch(e -> e.from() == Source.SERVER && e.payload() instanceof Payload.Message m
                && m.json().contains("Invalid Request")), "the demo never saw the batch");
        Episode ep = Episode.of(log);
        assertEquals("cancel_pending_order", ep.calls().getLast().name(), "the batch's call is in the episode");
    }

    @Test
    void aBatchWhoseCallsAllPassGoesToTheServerAsItCame(@TempDir Path tmp) throws Exception {
        String batch = "[{\"jsonrpc\":\"2.0\",\"id\":50,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"get_order_details\",\"arguments\":{\"order_id\":\"#W7a\"}}} , {\"jsonrpc\":\"2.0\",\"id\":51,"
                + "\"method\":\"ping\"}]";
        try (LiveHost host = LiveHost.start(retail(tmp).build())) {
            lookUpCustomer7(host);
            host.send(batch);
            // The demo does not take batches: its one error says it read the line.
            assertEquals("{\"error\":{\"code\":-32600,\"message\":\"Invalid Request\"},\"id\":null,\"jsonrpc\":\"2.0\"}",
                    host.nextLine());
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        SessionLog log = onlyLog(tmp);
        LogEntry sent = log.entries().stream().filter(e -> e.from() == Source.CLIENT && e.payload() instanceof Payload.Message m
                && m.json().startsWith("[")).findFirst().orElseThrow();
        assertEquals(batch, ((Payload.Message) sent.payload()).json());
        assertTrue(log.entries().stream().noneMatch(e -> e.from() == Source.PROXY), "the proxy answered nothing itself");
    }

    /** The server is stepped by hand here: the demo has no find_user_id_by_name_zip or modify_user_address. */
    @Test
    void anAddressChangeForAnotherUserThanTheOneAuthenticatedByNameAndZipIsRefused() throws Exception {
        try (ActorHarness h = new ActorHarness(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).build())) {
            String find = LiveHost.callLine(3, "find_user_id_by_name_zip",
                    "{\"first_name\":\"Ann\",\"last_name\":\"Lee\",\"zip\":\"19122\"}");
            h.host.send(find);
            assertEquals(find, h.server.next());
            h.server.say("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"user_7\",\"type\":\"text\"}],"
                    + "\"isError\":false}}");
            assertEquals("user_7", LiveHost.text(h.host.response(3)));
            String address = "\"address1\":\"1 Main St\",\"address2\":\"\",\"city\":\"Philadelphia\",\"state\":\"PA\","
                    + "\"country\":\"USA\",\"zip\":\"19122\"";
            h.host.send(LiveHost.callLine(4, "modify_user_address", "{\"user_id\":\"user_9\"," + address + "}"));
            assertEquals("Refused by the policy check, so modify_user_address was not run and nothing changed: the call is"
                    + " for user_9, not the authenticated user (policy check retail.own_user).", LiveHost.text(h.host.response(4)));
            String own = LiveHost.callLine(5, "modify_user_address", "{\"user_id\":\"user_7\"," + address + "}");
            h.host.send(own);
            assertEquals(own, h.server.next(), "the user's own address change goes through; the refused one never came");
        }
    }
}
