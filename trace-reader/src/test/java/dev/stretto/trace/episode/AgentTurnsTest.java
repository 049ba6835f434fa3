package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import dev.stretto.trace.testing.LogBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The two turn rules: a flow's lookups, made while the proxy holds the agent's answer back, join
 * that call's turn by {@link Timeline.TurnRule#AGENT} and start turns of their own by {@link
 * Timeline.TurnRule#FLOW}, the reading flows decide and learn on.
 */
class AgentTurnsTest {

    private static final String SERVED = "home/served/shop/20260928T020401.117Z-14662.jsonl";

    /** The call ids of each turn, in order. */
    private static List<List<String>> turns(SessionLog log, Timeline.TurnRule rule) {
        return Timeline.of(log, rule).turns().stream()
                .map(t -> t.calls().stream().map(Timeline.Call::id).toList())
                .toList();
    }

    @Test
    void theServedSessionsLookupsAreInTheTurnOfTheCallTheyFollowedAsTheAgentTookIt() throws IOException {
        SessionLog log = SessionLog.read(Fixtures.file(SERVED));
        assertEquals(List.of(List.of("3", "stretto-1", "stretto-2", "stretto-3"), List.of("4")),
                turns(log, Timeline.TurnRule.AGENT));
        assertEquals(List.of(List.of("3"), List.of("stretto-1"), List.of("stretto-2"), List.of("stretto-3"),
                List.of("4")), turns(log, Timeline.TurnRule.FLOW));
        // The server answered call 3 at 9 ms; the proxy handed the agent its copy at 14 ms.
        for (Timeline.TurnRule rule : Timeline.TurnRule.values()) {
            Timeline.Call three = Timeline.of(log, rule).calls().getFirst();
            assertEquals(9, three.result().tMs(), rule.name());
            assertEquals("user_41", three.result().content(), rule.name());
            assertEquals(14L, three.deliveredMs(), rule.name());
            assertNull(Timeline.of(log, rule).calls().getLast().deliveredMs(), rule.name());
        }
        // The agent's episode: one assistant event with the four calls, then their results in order.
        List<Event> events = Timeline.of(log, Timeline.TurnRule.AGENT).episode().events();
        assertEquals(List.of("user", "assistant", "tool_result", "tool_result", "tool_result", "tool_result",
                "assistant", "user", "assistant", "tool_result", "assistant"), events.stream().map(AgentTurnsTest::kind)
                .toList());
        assertEquals(List.of("3", "stretto-1", "stretto-2", "stretto-3"),
                events.subList(2, 6).stream().map(e -> ((Event.ToolResult) e).callId()).toList());
        // Episode.of keeps the flow's reading, which the reference's flow logs were decided on.
        assertEquals(Timeline.of(log).episode(), Episode.of(log));
        assertEquals(5, Timeline.of(log).turns().size());
    }

    private static String kind(Event e) {
        return switch (e) {
            case Event.User u -> "user";
            case Event.Assistant a -> "assistant";
            case Event.ToolResult r -> "tool_result";
        };
    }

    @Test
    void aSessionWithoutLookupsReadsTheSameByEitherRule() throws IOException {
        for (Path p : Fixtures.homeLogs()) {
            SessionLog log = SessionLog.read(p);
            if (!p.toString().contains("served")) {
                assertEquals(Timeline.of(log, Timeline.TurnRule.FLOW), Timeline.of(log, Timeline.TurnRule.AGENT),
                        p.toString());
            }
        }
    }

    @Test
    void the500msOfTheNextCallCountFromTheProxysCopy() {
        // The server answered call 1 at 1 ms; the lookup took until 290 ms; the agent got its
        // answer at 300 ms. Call 2 comes 480 ms after that (779 ms after the server's answer).
        assertEquals(List.of(List.of("1", "stretto-1", "2")),
                turns(heldFor290ms().call(780, 2, "list", "{}").build(), Timeline.TurnRule.AGENT));
        assertEquals(List.of(List.of("1", "stretto-1"), List.of("2")),
                turns(heldFor290ms().call(801, 2, "list", "{}").build(), Timeline.TurnRule.AGENT));
        // By the flow's rule the lookup is a turn of its own, which a call within 500 ms of its answer joins.
        assertEquals(List.of(List.of("1"), List.of("stretto-1", "2")),
                turns(heldFor290ms().call(780, 2, "list", "{}").build(), Timeline.TurnRule.FLOW));
    }

    @Test
    void aCallPassingAValueOnlyALookupReturnedStartsANewTurn() {
        // o1 was in no result but the lookup's, which the agent read with call 1's answer.
        SessionLog log = new LogBuilder()
                .call(0, 1, "find", "{}")
                .result(1, 1, "u1")
                .lookup(2, 1, "details", "{\"user_id\":\"u1\"}")
                .result(3, "\"stretto-1\"", "{\"orders\":[\"o1\"]}")
                .handOver(4, 1, "u1")
                .call(100, 2, "order", "{\"order_id\":\"o1\"}")
                .build();
        assertEquals(List.of(List.of("1", "stretto-1"), List.of("2")), turns(log, Timeline.TurnRule.AGENT));
    }

    @Test
    void lookupsWhoseRunNeverHandedItsAnswerOverAreReadAsTheFlowReadsThem() {
        // The proxy ended (killed) before it handed call 1's answer over: the agent never got it
        // from the proxy, and nothing says it waited for the lookups.
        SessionLog log = new LogBuilder()
                .call(0, 1, "find", "{}")
                .result(1, 1, "u1")
                .lookup(2, 1, "details", "{\"user_id\":\"u1\"}")
                .result(3, "\"stretto-1\"", "{}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("stretto-1")), turns(log, Timeline.TurnRule.AGENT));
        assertNull(Timeline.of(log, Timeline.TurnRule.AGENT).calls().getFirst().deliveredMs());
    }

    @Test
    void aCallOfTheAgentsSentWhileItsAnswerIsHeldJoinsTheTurnToo() {
        // Call 2 was sent while call 1 still awaited the agent's answer: parallel calls of one turn.
        SessionLog log = new LogBuilder()
                .call(0, 1, "find", "{}")
                .result(1, 1, "u1")
                .lookup(2, 1, "details", "{\"user_id\":\"u1\"}")
                .call(3, 2, "other", "{}")
                .result(4, "\"stretto-1\"", "{}")
                .result(5, 2, "r2")
                .handOver(6, 1, "u1")
                .build();
        assertEquals(List.of(List.of("1", "stretto-1", "2")), turns(log, Timeline.TurnRule.AGENT));
        assertEquals(List.of(List.of("1"), List.of("stretto-1", "2")), turns(log, Timeline.TurnRule.FLOW));
    }

    /** Call 1, answered by the server at 1 ms, held for a lookup until 290 ms, handed over at 300 ms. */
    private static LogBuilder heldFor290ms() {
        return new LogBuilder()
                .call(0, 1, "find", "{}")
                .result(1, 1, "u1")
                .lookup(2, 1, "details", "{\"user_id\":\"u1\"}")
                .result(290, "\"stretto-1\"", "{\"orders\":[\"o1\"]}")
                .handOver(300, 1, "u1");
    }
}
