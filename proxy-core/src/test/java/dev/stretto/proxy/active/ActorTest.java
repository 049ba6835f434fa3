package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.LiveHost.callLine;
import static dev.stretto.proxy.active.LiveHost.request;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.judge.ConfirmQuestions;
import dev.stretto.proxy.judge.Reply;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ServiceSettings;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The actor's properties, on a whole session whose server the test steps by hand and whose
 * clock it moves: timeouts on the tick, no side stopping the other, order kept, the server's
 * own requests passed on, a server that dies mid-run, and the extension points for slow
 * checks and held answers.
 */
class ActorTest {

    private static final ActiveMode COMMIT = ActiveMode.builder().commit(true).build();

    private static String result(Object id, String text) {
        String idJson = id instanceof String s ? "\"" + s + "\"" : String.valueOf(id);
        return "{\"id\":" + idJson + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"" + text
                + "\",\"type\":\"text\"}],\"isError\":false}}";
    }

    private static String commitOf(String... argumentsOfUpdates) {
        List<String> calls = new ArrayList<>();
        for (String a : argumentsOfUpdates) {
            calls.add("{\"name\":\"update\",\"arguments\":" + a + "}");
        }
        return "{\"calls\":[" + String.join(",", calls) + "]}";
    }

    @Test
    void theProxysOwnRequestTimesOutOnTheClockAndItsLateAnswerNeverReachesTheHost() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(callLine(1, "stretto_commit", commitOf("{\"x\":1}", "{\"x\":2}")));
            assertEquals("{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                    + "{\"x\":1},\"name\":\"update\"}}", h.server.next());
            h.advance(Duration.ofSeconds(59));
            assertTrue(h.episode().events().stream().noneMatch(e -> e instanceof Event.ToolResult),
                    "59 s on, the commit still waits");
            h.advance(Duration.ofSeconds(1));
            JsonNode answer = h.host.response(1);
            assertEquals("update {\"x\":1} got no answer from the server\n\nupdate {\"x\":2} was not run", LiveHost.text(answer));
            assertTrue(answer.path("result").path("isError").asBoolean());

            h.server.say(result("stretto-1", "too late"));
            h.host.send(request(9, "ping", null));
            assertEquals(request(9, "ping", null), h.server.next());
            h.server.say("{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{}}");
            assertEquals("{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{}}", h.host.nextLine(), "the late answer was dropped");
            assertTrue(h.log.snapshot().entries().stream().anyMatch(e -> e.from() == Source.SERVER
                    && e.payload() instanceof Payload.Message m && m.json().contains("too late")), "but logged");
        }
    }

    @Test
    void aServerThatStopsReadingStopsNeitherItsOwnLinesNorTheTimeouts() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.server.stopReading();
            h.host.send(callLine(1, "stretto_commit", commitOf("{\"x\":1}")));
            h.log.awaitMessage(Source.PROXY, "{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\","
                    + "\"params\":{\"arguments\":{\"x\":1},\"name\":\"update\"}}");
            for (int i = 0; i < 300; i++) {
                h.host.send(request(100 + i, "ping", null));
            }
            String note = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"level\":\"info\",\"data\":\"hi\"}}";
            h.server.say(note);
            assertEquals(note, h.host.nextLine());
            h.advance(Duration.ofSeconds(60));
            assertEquals("update {\"x\":1} got no answer from the server", LiveHost.text(h.host.response(1)));

            h.server.readAgain();
            assertTrue(h.server.next().contains("\"id\":\"stretto-1\""));
            for (int i = 0; i < 300; i++) {
                assertEquals(request(100 + i, "ping", null), h.server.next(), "ping " + i + " in order");
            }
        }
    }

    @Test
    void aHostThatStopsReadingDoesNotStopItsLinesReachingTheServer() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.stopReading();
            Thread talker = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 300; i++) {
                    h.server.say("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":" + i + "}}");
                }
            });
            for (int i = 0; i < 50; i++) {
                h.host.send(request(i, "ping", null));
                assertEquals(request(i, "ping", null), h.server.next());
            }
            h.host.readAgain();
            for (int i = 0; i < 300; i++) {
                assertTrue(h.host.nextLine().endsWith("{\"progress\":" + i + "}}"), "notification " + i + " in order");
            }
            talker.join(TimeUnit.SECONDS.toMillis(LiveHost.WAIT_S));
        }
    }

    @Test
    void answersOutOfOrderAndTheServersOwnRequestsAndNotificationsAllReachTheHostInOrder() throws Exception {
        ActiveMode guards = ActiveMode.builder().guards(dev.stretto.proxy.guard.Guards.forDomain("retail").orElseThrow()).build();
        try (ActorHarness h = new ActorHarness(guards)) {
            for (int id = 1; id <= 3; id++) {
                h.host.send(callLine(id, "get_order_details", "{\"order_id\":\"#W" + id + "a\"}"));
                h.server.next();
            }
            List<String> said = List.of(
                    result(3, "three"),
                    "{\"id\":\"srv-1\",\"jsonrpc\":\"2.0\",\"method\":\"roots/list\"}",
                    "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progress\":1}}",
                    result(1, "one"),
                    "{\"id\":\"srv-2\",\"jsonrpc\":\"2.0\",\"method\":\"elicitation/create\",\"params\":{}}",
                    result(2, "two"));
            said.forEach(h.server::say);
            for (String line : said) {
                assertEquals(line, h.host.nextLine());
            }
            String roots = "{\"jsonrpc\":\"2.0\",\"id\":\"srv-1\",\"result\":{\"roots\":[]}}";
            h.host.send(roots);
            assertEquals(roots, h.server.next());

            Episode live = h.episode();
            assertEquals(Episode.of(h.log.snapshot()), live, "the actor's episode is the log's");
            assertEquals(List.of("3", "1", "2"), live.events().stream()
                    .filter(e -> e instanceof Event.ToolResult).map(e -> ((Event.ToolResult) e).callId()).toList());
        }
    }

    @Test
    void aMinusZeroInACallAndItsAnswerIsReadAsTheLogsReadersReadIt() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(callLine(1, "update", "{\"x\":-0,\"y\":[-0,0.5]}"));
            h.server.next();
            h.server.say("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[],\"structuredContent\":{\"z\":-0},"
                    + "\"isError\":false}}");
            h.host.nextLine();
            Episode live = h.episode();
            assertEquals(Episode.of(h.log.snapshot()), live, "the actor's episode is the log's");
            assertTrue(live.toJson().contains("\"x\":-0.0"), live.toJson());
        }
    }

    @Test
    void aServerThatDiesMidCommitEndsTheCommitWithWhatItHasAndTheSessionWithItsStatus() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(callLine(1, "update", "{\"x\":0}"));
            h.server.next();
            h.host.send(callLine(2, "stretto_commit", commitOf("{\"x\":\"a\"}", "{\"x\":\"b\"}", "{\"x\":\"c\"}")));
            assertTrue(h.server.next().contains("stretto-1"));
            h.server.say(result("stretto-1", "done a"));
            assertTrue(h.server.next().contains("stretto-2"));
            h.server.exit(3);
            JsonNode answer = h.host.response(2);
            assertEquals("update {\"x\":\"a\"}:\ndone a\n\nupdate {\"x\":\"b\"} got no answer from the server\n\n"
                    + "update {\"x\":\"c\"} was not run", LiveHost.text(answer));
            assertTrue(answer.path("result").path("isError").asBoolean());
            assertEquals(3, h.host.exitStatus(), "the session ends with the server, the host's input still open");
        }
    }

    @Test
    void theServersInputClosesOnlyOnceTheProxysOwnWorkIsDone() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send(callLine(1, "stretto_commit", commitOf("{\"x\":1}", "{\"x\":2}")));
            h.host.closeInput();
            assertTrue(h.server.next().contains("stretto-1"));
            assertFalse(h.server.inputEnded.isDone(), "the commit still needs the server");
            h.server.say(result("stretto-1", "one"));
            assertTrue(h.server.next().contains("stretto-2"));
            h.server.say(result("stretto-2", "two"));
            assertEquals("update {\"x\":1}:\none\n\nupdate {\"x\":2}:\ntwo", LiveHost.text(h.host.response(1)));
            h.server.inputEnded.get(LiveHost.WAIT_S, TimeUnit.SECONDS);
            h.server.exit(0);
            assertEquals(0, h.host.exitStatus());
        }
    }

    @Test
    void aSlowCheckHoldsItsCallWhileItsQuestionIsAskedInAForkAndOtherTrafficFlows(@TempDir Path tmp) throws Exception {
        try (SlowSystemOne model = new SlowSystemOne();
             Oracle jev = Oracle.of(OracleMode.JEV, new OracleCache(tmp.resolve("cache")),
                     new ServiceSettings(ApiKey.of("sk-test-slow"), model.baseUrl(), ServiceSettings.DEFAULT_MODEL, null))) {
            CallCheck slow = (call, ctx, then) -> {
                if (!call.name().equals("update")) {
                    then.accept(new CallCheck.Allowed());
                    return;
                }
                int callsBefore = ctx.episode().calls().size();
                Request question = Request.of(ServiceSettings.DEFAULT_MODEL, LiveHost.JSON.createObjectNode(),
                        ConfirmQuestions.CONFIRMED_ID, ConfirmQuestions.CONFIRMED);
                ctx.ask(jev, question, reply -> then.accept(reply instanceof Reply.Answered && callsBefore == 1
                        ? new CallCheck.Allowed() : new CallCheck.Refused("not asked for", "Refused: not asked for")));
            };
            try (ActorHarness h = new ActorHarness(COMMIT, List.of(slow), AnswerHook.NONE)) {
                h.host.send(callLine(1, "lookup", "{}"));
                assertEquals(callLine(1, "lookup", "{}"), h.server.next());
                h.host.send(callLine(2, "update", "{}"));
                model.awaitQuestion();
                h.host.send(callLine(3, "lookup", "{}"));
                assertEquals(callLine(3, "lookup", "{}"), h.server.next(), "call 3 goes by while call 2 waits for its check");
                model.release();
                assertEquals(callLine(2, "update", "{}"), h.server.next());

                h.host.send(callLine(4, "update", "{}"));
                assertEquals("Refused: not asked for", LiveHost.text(h.host.response(4)));
                assertEquals(1, model.answered.get(), "the second question is the first's: the cache answers it");
            }
        }
    }

    @Test
    void anAnswerHookHoldsAnAnswerLooksSomethingUpAndReplacesTheAnswer() throws Exception {
        AnswerHook hook = (held, run) -> {
            if (!held.call().name().equals("get_order_details")) {
                return false;
            }
            run.request("get_user_details", LiveHost.JSON.createObjectNode().put("user_id", "user_1"), outcome -> {
                ObjectNode replaced = held.response().deepCopy();
                String text = ((OwnRequests.Answered) outcome).answer().text();
                ((com.fasterxml.jackson.databind.node.ArrayNode) replaced.get("result").get("content")).addObject()
                        .put("text", "also looked up: " + text).put("type", "text");
                held.replace(replaced);
            });
            return true;
        };
        try (ActorHarness h = new ActorHarness(COMMIT, List.of(), hook)) {
            h.host.send(callLine(5, "get_order_details", "{\"order_id\":\"#W1a\"}"));
            h.server.next();
            h.server.say(result(5, "order"));
            assertEquals("{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                    + "{\"user_id\":\"user_1\"},\"name\":\"get_user_details\"}}", h.server.next());
            h.server.say(result("stretto-1", "user"));
            assertEquals("{\"id\":5,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"order\",\"type\":\"text\"},"
                    + "{\"text\":\"also looked up: user\",\"type\":\"text\"}],\"isError\":false}}", h.host.nextLine());

            List<LogEntry> entries = h.log.snapshot().entries();
            assertEquals(List.of(Source.CLIENT, Source.SERVER, Source.PROXY, Source.SERVER, Source.PROXY),
                    entries.stream().map(LogEntry::from).toList(), "the server's answer, then the lookup, then the proxy's answer");
            Episode live = h.episode();
            assertEquals(Episode.of(h.log.snapshot()), live);
            assertEquals("order", ((Event.ToolResult) live.events().get(1)).content(), "the server's answer is the call's result");
        }
    }

    @Test
    void aNonJsonLineAndABlankLineFromTheHostPassUnchanged() throws Exception {
        try (ActorHarness h = new ActorHarness(COMMIT)) {
            h.host.send("not json");
            assertEquals("not json", h.server.next());
            h.host.send("");
            assertEquals("", h.server.next());
            assertNull(h.episode().events().stream().findFirst().orElse(null));
        }
    }

    @Test
    void theServersToolsListAnswerReachesTheAnswerHookAsTheServerWroteIt() throws Exception {
        AtomicReference<JsonNode> seen = new AtomicReference<>();
        AnswerHook hook = new AnswerHook() {
            @Override
            public boolean hold(Held answer, RunContext context) {
                return false;
            }

            @Override
            public void listed(JsonNode response) {
                seen.set(response);
            }
        };
        String answer = "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":[{\"name\":\"read\",\"annotations\":"
                + "{\"readOnlyHint\":true},\"inputSchema\":{\"type\":\"object\"}},{\"name\":\"write\",\"annotations\":"
                + "{\"readOnlyHint\":false}},{\"name\":\"unsure\"}]}}";
        try (ActorHarness h = new ActorHarness(COMMIT, null, hook)) {
            h.host.send(request(2, "tools/list", null));
            h.server.next();
            h.server.say(answer);
            JsonNode listed = LiveHost.JSON.readTree(h.host.nextLine());
            assertEquals(4, listed.at("/result/tools").size(), "stretto_commit appended");
            assertEquals(LiveHost.JSON.readTree(answer), seen.get(), "the hook sees the server's own listing");
        }
    }
}
