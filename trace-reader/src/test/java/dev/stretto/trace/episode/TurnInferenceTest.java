package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.LogBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** One test per turn rule of the specification, each on a log built for that case. */
class TurnInferenceTest {

    /** The call ids of each turn, in order. */
    private static List<List<String>> turns(SessionLog log) {
        return Timeline.of(log).turns().stream()
                .map(t -> t.calls().stream().map(Timeline.Call::id).toList())
                .toList();
    }

    @Test
    void aCallJoinsTheTurnWhileACallOfItIsOpen() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "slow", "{}")
                .call(2000, 2, "other", "{}")
                .result(2100, 1, "one")
                .result(2200, 2, "two")
                .build();
        assertEquals(List.of(List.of("1", "2")), turns(log));
    }

    @Test
    void parallelCallsFormOneTurnAndEachGetsItsOwnResult() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{\"k\":\"x1\"}")
                .call(1, 2, "b", "{\"k\":\"x2\"}")
                .call(2, 3, "c", "{\"k\":\"x3\"}")
                .result(40, 3, "r3")
                .result(50, 1, "r1")
                .result(60, 2, "r2")
                .build();
        assertEquals(List.of(List.of("1", "2", "3")), turns(log));
        List<Event> events = Episode.of(log).events();
        assertEquals(4, events.size());
        assertEquals(new Event.ToolResult("3", "c", false, "r3"), events.get(1));
        assertEquals(new Event.ToolResult("1", "a", false, "r1"), events.get(2));
        assertEquals(new Event.ToolResult("2", "b", false, "r2"), events.get(3));
    }

    @Test
    void aClientCallWithin500msOfTheLastAnswerWithOnlyResultsSinceJoinsTheTurn() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .result(10, 1, "done")
                .call(510, 2, "b", "{}")
                .build();
        assertEquals(List.of(List.of("1", "2")), turns(log));
    }

    @Test
    void aClientCallMoreThan500msAfterTheLastAnswerStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .result(10, 1, "done")
                .call(511, 2, "b", "{}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void the500msCountFromTheAnswerThatClosedTheTurnsLastOpenCall() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .call(1, 2, "b", "{}")
                .result(10, 1, "first")
                .result(300, 2, "second")
                .call(750, 3, "c", "{}")
                .build();
        assertEquals(List.of(List.of("1", "2", "3")), turns(log));
    }

    @Test
    void aUserMessageSinceTheTurnBeganStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .result(10, 1, "done")
                .user(20, "and also")
                .call(30, 2, "b", "{}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void anAssistantMessageSinceTheTurnBeganStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .result(10, 1, "done")
                .assistant(20, "Let me check one more thing.")
                .call(30, 2, "b", "{}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void anArgumentValueFirstSeenInTheTurnsResultsStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .user(0, "I am a@example.com")
                .call(1, 1, "find_user", "{\"email\":\"a@example.com\"}")
                .result(2, 1, "user_9")
                .call(3, 2, "get_user", "{\"user_id\":\"user_9\"}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void aNumberArgumentFirstSeenInTheTurnsResultsStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .call(1, 1, "list", "{}")
                .result(2, 1, "order 4711 is open")
                .call(3, 2, "get", "{\"order\":4711}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void aNestedArgumentValueFirstSeenInTheTurnsResultsStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .call(1, 1, "list", "{}")
                .result(2, 1, "ids: user_9")
                .call(3, 2, "get", "{\"filter\":{\"ids\":[\"user_9\"]}}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void anArgumentValueTheUserSaidBeforeTheTurnDoesNotStartANewTurn() {
        SessionLog log = new LogBuilder()
                .user(0, "I am user_9")
                .call(1, 1, "find_user", "{\"name\":\"me\"}")
                .result(2, 1, "user_9")
                .call(3, 2, "get_user", "{\"user_id\":\"user_9\"}")
                .build();
        assertEquals(List.of(List.of("1", "2")), turns(log));
    }

    @Test
    void anArgumentValueOfAnEarlierCallDoesNotStartANewTurn() {
        SessionLog log = new LogBuilder()
                .call(1, 1, "get_user", "{\"user_id\":\"user_9\"}")
                .result(2, 1, "{\"user_id\":\"user_9\",\"orders\":[]}")
                .call(3, 2, "get_orders", "{\"user_id\":\"user_9\"}")
                .build();
        assertEquals(List.of(List.of("1", "2")), turns(log));
    }

    @Test
    void anArgumentValueFromAnEarlierTurnsResultsDoesNotStartANewTurn() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "find", "{}")
                .result(1, 1, "user_9")
                .call(2000, 2, "other", "{}")
                .result(2001, 2, "user_9 again")
                .call(2002, 3, "get", "{\"user_id\":\"user_9\"}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2", "3")), turns(log));
    }

    @Test
    void argumentValuesShorterThanTwoCharactersAreNotCheckedAsFirstSeen() {
        SessionLog log = new LogBuilder()
                .call(1, 1, "count", "{}")
                .result(2, 1, "7 x")
                .call(3, 2, "get", "{\"n\":7,\"s\":\"x\"}")
                .build();
        assertEquals(List.of(List.of("1", "2")), turns(log));
    }

    @Test
    void aProxyLookupJoinsATurnWhileACallOfItIsOpen() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "find", "{}")
                .lookup(1, 1, "get", "{}")
                .result(5, "\"stretto-1\"", "looked up")
                .result(6, 1, "found")
                .build();
        assertEquals(List.of(List.of("1", "stretto-1")), turns(log));
    }

    @Test
    void aProxyLookupAfterTheTurnsCallsAreAnsweredStartsANewTurn() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "find", "{}")
                .result(1, 1, "found")
                .lookup(2, 1, "get", "{}")
                .result(3, "\"stretto-1\"", "looked up")
                .build();
        assertEquals(List.of(List.of("1"), List.of("stretto-1")), turns(log));
        assertTrue(Timeline.of(log).turns().get(1).calls().getFirst().isLookup());
    }

    @Test
    void anUnansweredUncancelledCallKeepsItsTurnOpen() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "hangs", "{}")
                .user(100, "hello?")
                .call(5000, 2, "b", "{}")
                .result(5001, 2, "ok")
                .call(9000, 3, "c", "{}")
                .build();
        assertEquals(List.of(List.of("1", "2", "3")), turns(log));
    }

    @Test
    void aCancelledCallNoLongerKeepsItsTurnOpen() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "hangs", "{}")
                .cancel(100, 1)
                .call(5000, 2, "b", "{}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
        assertEquals(100L, Timeline.of(log).calls().getFirst().cancelledMs());
    }

    @Test
    void the500msCountFromTheTurnsLastAnswerNotFromACancellation() {
        // The window is "within half a second of the turn's last response": a cancellation
        // releases the call but is no answer, so it does not restart the window.
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .result(10, 1, "done")
                .call(100, 2, "b", "{}")
                .cancel(1000, 2)
                .call(1100, 3, "c", "{}")
                .build();
        assertEquals(List.of(List.of("1", "2"), List.of("3")), turns(log));
    }

    @Test
    void aTurnWhoseCallsWereAllCancelledIsNotJoinedByTiming() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "a", "{}")
                .cancel(100, 1)
                .call(150, 2, "b", "{}")
                .build();
        assertEquals(List.of(List.of("1"), List.of("2")), turns(log));
    }

    @Test
    void aCallThatIsNeverAnsweredHasNoResult() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "hangs", "{\"q\":\"x\"}")
                .build();
        Timeline.Call call = Timeline.of(log).calls().getFirst();
        assertNull(call.result());
        assertEquals(-1, call.durationMs());
        Episode ep = Episode.of(log);
        assertEquals(1, ep.events().size());
        assertEquals(1, ep.calls().size());
    }

    @Test
    void aReusedIdReplacesThePendingCall() {
        SessionLog log = new LogBuilder()
                .call(0, 1, "first", "{}")
                .call(10, 1, "second", "{}")
                .result(20, 1, "answer")
                .build();
        Timeline tl = Timeline.of(log);
        assertEquals(List.of(List.of("1", "1")), turns(log));
        assertTrue(tl.calls().get(0).replaced());
        assertNull(tl.calls().get(0).result());
        assertEquals("second", ((Event.ToolResult) Episode.of(log).events().get(1)).name());
    }
}
