package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.LiveHost.callLine;
import static dev.stretto.proxy.active.LiveHost.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.ServedFlow;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.Source;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The server never has two requests with one id, and each answer goes to whoever asked: the
 * proxy's own requests skip the ids the host has in flight, a line of the host's with the id of
 * a request of the proxy's still open waits for it, and with policy checks a call whose id is
 * in flight is refused.
 */
class RequestIdsTest {

    private static final ActiveMode COMMIT = ActiveMode.builder().commit(true).build();
    private static final ActiveMode GUARDS = ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).build();

    private static String result(Object id, String text) {
        String idJson = id instanceof String s ? "\"" + s + "\"" : String.valueOf(id);
        return "{\"id\":" + idJson + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"" + text
                + "\",\"type\":\"text\"}],\"isError\":false}}";
    }

    /** A call with a string id. */
    private static String call(String id, String tool, String arguments) {
        return "{\"jsonrpc\":\"2.0\",\"id\":\"" + id + "\",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + arguments + "}}";
    }

    private static String commitOf(String arguments) {
        return "{\"calls\":[{\"name\":\"update\",\"arguments\":" + arguments + "}]}";
    }

    /** The answer to {@code id}: one already read past, or the next with that id. */
    private static JsonNode answer(LiveHost host, Object id) throws Exception {
        for (JsonNode m : host.received()) {
            if (!m.has("method") && m.path("id").asText().equals(String.valueOf(id))) {
                return m;
            }
        }
        return host.response(id);
    }

    private static int indexOf(List<LogEntry> entries, Source from, String part) {
        for (int i = 0; i < entries.size(); i++) {
            if (entries.get(i).from() == from && entries.get(i).payload() instanceof Payload.Message m
                    && m.json().contains(part)) {
                return i;
            }
        }
        throw new AssertionError("not logged from " + from + ": " + part);
    }

    @Test
    void theProxysRequestSkipsAnIdTheHostHasInFlight() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(call("stretto-1", "read", "{}"));
            assertEquals(call("stretto-1", "read", "{}"), h.server.next());
            h.host.send(callLine(2, "stretto_commit", commitOf("{\"x\":1}")));
            assertEquals("{\"id\":\"stretto-2\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                    + "{\"x\":1},\"name\":\"update\"}}", h.server.next());
            h.server.say(result("stretto-1", "the host's"));
            h.server.say(result("stretto-2", "the commit's"));
            assertEquals("the host's", LiveHost.text(h.host.response("stretto-1")));
            assertEquals("update {\"x\":1}:\nthe commit's", LiveHost.text(h.host.response(2)));
        }
    }

    @Test
    void aHostRequestWithTheIdOfTheProxysOpenRequestWaitsForItsAnswerAndTheLinesBehindItWaitToo() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(callLine(1, "stretto_commit", commitOf("{\"x\":1}")));
            assertTrue(h.server.next().contains("\"id\":\"stretto-1\""));
            h.host.send(call("stretto-1", "read", "{}"));
            h.host.send(request(7, "ping", null));
            h.server.say(result("stretto-1", "the commit's"));
            assertEquals("update {\"x\":1}:\nthe commit's", LiveHost.text(h.host.response(1)));
            assertEquals(call("stretto-1", "read", "{}"), h.server.next(), "sent once the proxy's request was answered");
            assertEquals(request(7, "ping", null), h.server.next(), "in order");
            h.server.say(result("stretto-1", "the host's"));
            assertEquals("the host's", LiveHost.text(h.host.response("stretto-1")));
            List<LogEntry> log = h.log.snapshot().entries();
            assertTrue(indexOf(log, Source.SERVER, "the commit's") < indexOf(log, Source.CLIENT, "\"read\""),
                    "the host's line is taken after the proxy's request ended");
        }
    }

    @Test
    void aHostRequestWithTheIdOfTheProxysTimedOutRequestIsRefusedAndTheLateAnswerDropped() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(callLine(1, "stretto_commit", commitOf("{\"x\":1}")));
            assertTrue(h.server.next().contains("\"id\":\"stretto-1\""));
            h.advance(Duration.ofSeconds(60));
            assertEquals("update {\"x\":1} got no answer from the server", LiveHost.text(h.host.response(1)));
            h.host.send(call("stretto-1", "read", "{}"));
            assertEquals("{\"error\":{\"code\":-32600,\"message\":\"Not sent: the id stretto-1 is taken by a request the"
                    + " proxy made itself, which the server has not answered; send this again with another id.\"},\"id\":"
                    + "\"stretto-1\",\"jsonrpc\":\"2.0\"}", h.host.nextLine());
            h.server.say(result("stretto-1", "late"));
            h.host.send(call("stretto-1", "read", "{}"));
            assertEquals(call("stretto-1", "read", "{}"), h.server.next(), "once the late answer came, the id is free");
            h.server.say(result("stretto-1", "the host's"));
            assertEquals("the host's", LiveHost.text(h.host.response("stretto-1")));
        }
    }

    @Test
    void withPolicyChecksACallWhoseIdIsInFlightIsRefusedAndSoIsAnyRequestWithTheIdOfACallInFlight() throws Exception {
        try (ActorHarness h = new ActorHarness(GUARDS)) {
            h.host.send(callLine(5, "get_order_details", "{\"order_id\":\"#W7a\"}"));
            assertEquals(callLine(5, "get_order_details", "{\"order_id\":\"#W7a\"}"), h.server.next());
            String sameId = "{\"error\":{\"code\":-32600,\"message\":\"Refused by the policy check, so nothing was run and"
                    + " nothing changed: its id is the id of another request of the host's still in flight, so the"
                    + " server's answers could not be told apart.\"},\"id\":null,\"jsonrpc\":\"2.0\"}";
            h.host.send(callLine(5, "get_order_details", "{\"order_id\":\"#W9a\"}"));
            assertEquals(sameId, h.host.nextLine());
            h.host.send("{\"jsonrpc\":\"2.0\",\"id\":5.0,\"method\":\"ping\"}");
            assertEquals(sameId, h.host.nextLine(), "5.0 is 5 to most servers");
            h.server.say(result(5, "{\\\"order_id\\\":\\\"#W7a\\\"}"));
            assertEquals(result(5, "{\\\"order_id\\\":\\\"#W7a\\\"}"), h.host.nextLine());
            h.host.send(callLine(5, "get_order_details", "{\"order_id\":\"#W9a\"}"));
            assertEquals(callLine(5, "get_order_details", "{\"order_id\":\"#W9a\"}"), h.server.next(), "answered: free again");
        }
    }

    /**
     * The real proxy with a served flow and stretto_commit before the real retail demo, and a
     * host whose calls have the ids {@code stretto-1}, {@code stretto-2}, ...: each gets its own
     * answer, and each commit result shows its own call's.
     */
    @Test
    void aHostWhoseIdsLookLikeTheProxysGetsItsOwnAnswersBesideAFlowAndCommits() throws Exception {
        ServedFlow flow = ServedFlow.of(FlowFile.read(ReferenceData.file("home/shop.flow.json")), "home/shop.flow.json",
                FlowOptions.DEFAULTS, null);
        ActiveMode mode = ActiveMode.builder().commit(true).flow(flow).build();
        try (LiveHost host = LiveHost.start(ProxyConfig.builder(Demo.retail()).domain("retail").active(mode).build())) {
            host.handshake();
            JsonNode first = host.call(10, "stretto_commit", "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":"
                    + "{\"order_id\":\"#W41a\",\"reason\":\"no longer needed\"}},{\"name\":\"get_order_details\","
                    + "\"arguments\":{\"order_id\":\"#W41a\"}}]}");
            assertTrue(LiveHost.text(first).startsWith("cancel_pending_order {\"order_id\":\"#W41a\",\"reason\":\"no longer"
                    + " needed\"}:\n{\"order_id\":\"#W41a\",\"status\":\"cancelled\"}"), LiveHost.text(first));

            host.send(call("stretto-1", "find_user_id_by_email", "{\"email\":\"c41@example.com\"}"));
            JsonNode found = host.response("stretto-1");
            assertEquals("user_41", LiveHost.text(found), "the host's answer, not dropped as a late one of the proxy's");
            assertTrue(found.path("result").path("content").path(1).path("text").asText()
                    .startsWith("--- Also looked up automatically"), "the flow looked the user up: " + found);

            // Pipelined: the commit's request must not take the id of the host's call in flight.
            host.send(call("stretto-4", "get_order_details", "{\"order_id\":\"#W41b\"}"));
            host.send(callLine(11, "stretto_commit", "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":"
                    + "{\"order_id\":\"#W41b\",\"reason\":\"ordered by mistake\"}}]}"));
            assertEquals("cancel_pending_order {\"order_id\":\"#W41b\",\"reason\":\"ordered by mistake\"}:\n"
                    + "{\"order_id\":\"#W41b\",\"status\":\"cancelled\"}", LiveHost.text(answer(host, 11)));
            JsonNode order = LiveHost.JSON.readTree(LiveHost.text(answer(host, "stretto-4")));
            assertEquals("pending", order.path("status").asText(), "the host's own call's answer: " + order);

            for (int n = 5; n <= 8; n++) {
                host.send(call("stretto-" + n, "get_user_details", "{\"user_id\":\"user_" + n + "\"}"));
                JsonNode user = LiveHost.JSON.readTree(LiveHost.text(host.response("stretto-" + n)));
                assertEquals("user_" + n, user.path("user_id").asText());
            }
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
    }
}
