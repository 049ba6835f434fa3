package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.LiveHost.callLine;
import static dev.stretto.proxy.active.LiveHost.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.ServedFlow;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.proxy.testing.Stderr;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flow served by the actor, on a whole session whose server the test plays by hand and whose
 * clock it moves: the run holds the agent's answer, makes its lookups as the proxy's own
 * requests, and lets the answer go when it hands back, when a lookup gets no answer in time,
 * when the server dies, or at once when it makes none; answers that come meanwhile go straight
 * on; the session's lookup limit stops later runs. The flow is the reference's shop.flow.json,
 * served with its default (reach) decider.
 */
class FlowInTheActorTest {

    private static final String FIND = callLine(3, "find_user_id_by_email", "{\"email\":\"c41@example.com\"}");
    private static final String USER_41 = "{\"email\":\"c41@example.com\",\"orders\":[\"#W41a\",\"#W41b\"],"
            + "\"payment_methods\":{\"credit_card_41\":{\"source\":\"credit_card\"}},\"user_id\":\"user_41\"}";
    private static final String LOOKUP_1 = "{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\","
            + "\"params\":{\"arguments\":{\"user_id\":\"user_41\"},\"name\":\"get_user_details\"}}";
    private static final String LOOKUP_2 = "{\"id\":\"stretto-2\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\","
            + "\"params\":{\"arguments\":{\"order_id\":\"#W41a\"},\"name\":\"get_order_details\"}}";

    @TempDir
    Path tmp;

    private ActiveMode shop(FlowOptions options) throws Exception {
        ServedFlow served = ServedFlow.of(FlowFile.read(ReferenceData.file("home/shop.flow.json")), "shop.flow.json",
                options, tmp.resolve("flow.jsonl"));
        return ActiveMode.builder().flow(served).build();
    }

    private static FlowOptions perSession(int lookups) {
        return new FlowOptions(0.3, null, 8, lookups, 300, null, false, null, null);
    }

    /** A tools/call result with one text item, written as the demo writes it (keys sorted). */
    private static String result(Object id, String text, boolean isError) {
        JsonNode idNode = id instanceof String s ? TextNode.valueOf(s) : IntNode.valueOf((Integer) id);
        return CanonicalJson.write(ProxyLines.toolResult(idNode, text, isError));
    }

    private List<String> flowLog() throws Exception {
        return Files.readAllLines(tmp.resolve("flow.jsonl"), StandardCharsets.UTF_8);
    }

    /** Lets the host send a ping the server answers: what reached the host before it came first. */
    private static void pingThrough(ActorHarness h, int id) throws Exception {
        h.host.send(request(id, "ping", null));
        assertEquals(request(id, "ping", null), h.server.next());
        h.server.say("{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":{}}");
    }

    @Test
    void aLookupThatNeverAnswersEndsTheRunAfterTheLimitWithTheServersOwnBytes() throws Exception {
        String answer3 = result(3, "user_41", false);
        try (Stderr stderr = new Stderr(); ActorHarness h = new ActorHarness(shop(FlowOptions.DEFAULTS))) {
            h.host.send(FIND);
            assertEquals(FIND, h.server.next());
            h.server.say(answer3);
            assertEquals(LOOKUP_1, h.server.next());
            h.advance(Duration.ofSeconds(59));
            pingThrough(h, 9);
            assertEquals("{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{}}", h.host.nextLine(), "59 s on, the answer is still held");
            h.advance(Duration.ofSeconds(1));
            assertEquals(answer3, h.host.nextLine(), "no lookup was made: the server's bytes as they came");

            h.server.say(result("stretto-1", USER_41, false));
            pingThrough(h, 10);
            assertEquals("{\"id\":10,\"jsonrpc\":\"2.0\",\"result\":{}}", h.host.nextLine(), "the late answer is dropped");
            assertTrue(stderr.text().contains("stretto-proxy: no answer to get_user_details within 60 s; going on without"
                    + " it\n"), stderr.text());
        }
        List<String> lines = flowLog();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).startsWith("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":3,\"arguments\":"
                + "{\"user_id\":\"user_41\"},\"binding\":0.875,"), lines.get(0));
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",3,0.0]],\"surprise\":-0.0}}", lines.get(1));
    }

    @Test
    void otherAnswersGoStraightOnWhileARunHoldsOneAndStartNoRunOfTheirOwn() throws Exception {
        String answer5 = result(5, "{\"order_id\":\"#W41a\",\"status\":\"pending\"}", false);
        try (ActorHarness h = new ActorHarness(shop(FlowOptions.DEFAULTS))) {
            h.host.send(FIND);
            h.server.next();
            h.server.say(result(3, "user_41", false));
            assertEquals(LOOKUP_1, h.server.next());
            String call5 = callLine(5, "get_order_details", "{\"order_id\":\"#W41a\"}");
            h.host.send(call5);
            assertEquals(call5, h.server.next());
            h.server.say(answer5);
            assertEquals(answer5, h.host.nextLine(), "answered while the run holds call 3's answer");
            h.server.say(result("stretto-1", USER_41, false));
            assertEquals(LOOKUP_2.replace("#W41a", "#W41b"), h.server.next(),
                    "the agent looked up #W41a itself meanwhile: the flow passes the other order");
        }
        assertTrue(flowLog().stream().noneMatch(l -> l.contains("\"after\":5")), "one run at a time");
    }

    @Test
    void aServerThatDiesMidRunEndsItWithTheLookupsMadeSoFar() throws Exception {
        try (ActorHarness h = new ActorHarness(shop(FlowOptions.DEFAULTS))) {
            h.host.send(FIND);
            h.server.next();
            h.server.say(result(3, "user_41", false));
            assertEquals(LOOKUP_1, h.server.next());
            h.server.say(result("stretto-1", USER_41, false));
            assertEquals(LOOKUP_2, h.server.next());
            h.server.exit(3);
            String reply = h.host.nextLine();
            assertEquals("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"user_41\",\"type\":\"text\"},"
                    + "{\"text\":" + CanonicalJson.write(TextNode.valueOf(
                            "--- Also looked up automatically (current results; no need to repeat these calls) ---\n\n"
                                    + "get_user_details {\"user_id\":\"user_41\"}:\n" + USER_41))
                    + ",\"type\":\"text\"}],\"isError\":false}}", reply);
            assertEquals(3, h.host.exitStatus());
            List<LogEntry> entries = h.log.snapshot().entries();
            LogEntry last = entries.getLast();
            assertEquals(Source.PROXY, last.from(), "the reply is the proxy's");
            assertEquals(reply, ((Payload.Message) last.payload()).json());
        }
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",true,-0.13353139262452263],[\"decide#1\",2,0.0]],"
                + "\"surprise\":0.13353139262452263}}", flowLog().getLast());
    }

    @Test
    void aFailedLookupIsAppendedWithErrorAndTheRunGoesOnAtItsErrorSite() throws Exception {
        try (ActorHarness h = new ActorHarness(shop(FlowOptions.DEFAULTS))) {
            h.host.send(FIND);
            h.server.next();
            h.server.say(result(3, "user_41", false));
            assertEquals(LOOKUP_1, h.server.next());
            h.server.say("{\"error\":{\"code\":-32602,\"message\":\"Unknown tool: get_user_details\"},\"id\":\"stretto-1\","
                    + "\"jsonrpc\":\"2.0\"}");
            String reply = h.host.nextLine();
            assertTrue(reply.contains("\\n\\nget_user_details {\\\"user_id\\\":\\\"user_41\\\"} (error):\\nUnknown tool:"
                    + " get_user_details\",\"type\":\"text\"}]"), reply);
        }
        List<String> lines = flowLog();
        assertTrue(lines.get(1).contains("\"reason\":\"no lookups followed here in training\",\"site\":\"get_user_details"
                + " (error)\""), lines.get(1));
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",false,-2.0794415416798357],[\"decide#1\",0,0.0]],"
                + "\"surprise\":2.0794415416798357}}", lines.get(2));
    }

    @Test
    void onceTheSessionsLookupsAreSpentAnswersGoStraightOnAndNothingIsLogged() throws Exception {
        try (ActorHarness h = new ActorHarness(shop(perSession(1)))) {
            h.host.send(FIND);
            h.server.next();
            h.server.say(result(3, "user_41", false));
            assertEquals(LOOKUP_1, h.server.next());
            h.server.say(result("stretto-1", USER_41, false));
            assertTrue(h.host.nextLine().contains("Also looked up automatically"), "one lookup made, then the cap");
            String call4 = callLine(4, "get_user_details", "{\"user_id\":\"user_41\"}");
            h.host.send(call4);
            h.server.next();
            String answer4 = result(4, USER_41, false);
            h.server.say(answer4);
            assertEquals(answer4, h.host.nextLine());
        }
        List<String> lines = flowLog();
        assertEquals(2, lines.size(), "the capped decision is not logged, and no run follows call 4: " + lines);
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",true,-0.13353139262452263]],"
                + "\"surprise\":0.13353139262452263}}", lines.get(1));
    }

    @Test
    void aJsonRpcErrorStartsNoRunAndAnErrorResultRunsAtTheErrorSite() throws Exception {
        try (ActorHarness h = new ActorHarness(shop(FlowOptions.DEFAULTS))) {
            h.host.send(FIND);
            h.server.next();
            String error = "{\"error\":{\"code\":-32602,\"message\":\"bad\"},\"id\":3,\"jsonrpc\":\"2.0\"}";
            h.server.say(error);
            assertEquals(error, h.host.nextLine());
            h.host.send(callLine(4, "find_user_id_by_email", "{\"email\":\"x@example.com\"}"));
            h.server.next();
            String failed = result(4, "Error: User not found", true);
            h.server.say(failed);
            assertEquals(failed, h.host.nextLine(), "handed back at once: the bytes as they came");
        }
        List<String> lines = flowLog();
        assertEquals(2, lines.size(), lines.toString());
        assertTrue(lines.get(0).contains("\"after\":4,") && lines.get(0).contains("\"site\":\"find_user_id_by_email"
                + " (error)\""), lines.get(0));
        assertFalse(lines.get(1).contains("\"after\":3"));
    }
}
