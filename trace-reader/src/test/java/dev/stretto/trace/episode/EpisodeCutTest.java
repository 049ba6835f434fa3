package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@link EpisodeCut#afterCall}: the episode a flow decides on after one call's result. */
class EpisodeCutTest {

    private static ToolCall call(String id, String name) {
        return new ToolCall(id, name, CanonicalJson.parse("{}"));
    }

    private static Event.ToolResult result(String id, String name) {
        return new Event.ToolResult(id, name, false, "r" + id);
    }

    private static Episode episode(Event... events) {
        return new Episode("s", "", 0, "shop", "agent", 0.0, List.of(events));
    }

    private static List<String> ids(List<ToolCall> calls) {
        return calls.stream().map(ToolCall::id).toList();
    }

    @Test
    void theCallMovesLastInItsTurnAndUnansweredCallsAreSetApart() {
        Episode ep = episode(new Event.User("hi"),
                new Event.Assistant(null, List.of(call("1", "a"), call("2", "x"), call("3", "b")), null),
                result("1", "a"), result("2", "x"));
        EpisodeCut cut = EpisodeCut.afterCall(ep, "2").orElseThrow();
        assertEquals(List.of("3"), ids(cut.pending()));
        Event.Assistant turn = (Event.Assistant) cut.episode().events().get(1);
        assertEquals(List.of("1", "2"), ids(turn.calls()));
        assertEquals(List.of(new Event.User("hi"), turn, result("1", "a"), result("2", "x")), cut.episode().events());
    }

    @Test
    void aCallAnsweredBeforeItStaysBeforeIt() {
        Episode ep = episode(new Event.Assistant(null, List.of(call("2", "x"), call("1", "a")), null),
                result("1", "a"), result("2", "x"));
        EpisodeCut cut = EpisodeCut.afterCall(ep, "2").orElseThrow();
        assertEquals(List.of("1", "2"), ids(((Event.Assistant) cut.episode().events().get(0)).calls()));
        assertTrue(cut.pending().isEmpty());
    }

    @Test
    void laterTurnsAndMessagesOfTheAgentAreLeftOutButTheUsersWordsStay() {
        Episode ep = episode(new Event.Assistant(null, List.of(call("1", "x")), null), result("1", "x"),
                new Event.Assistant("one moment", List.of(), null),
                new Event.User("also this"),
                new Event.Assistant(null, List.of(call("2", "y")), null), result("2", "y"));
        EpisodeCut cut = EpisodeCut.afterCall(ep, "1").orElseThrow();
        assertEquals(List.of(ep.events().get(0), result("1", "x"), new Event.User("also this")),
                cut.episode().events());
        assertEquals("s", cut.episode().id());
    }

    @Test
    void anUnknownCallHasNoCut() {
        assertTrue(EpisodeCut.afterCall(episode(new Event.User("hi")), "9").isEmpty());
    }

    @Test
    void theServedSessionCutAtTheProxysSecondLookupKeepsEarlierCallsAndTheUsersLaterWords() throws IOException {
        Episode ep = Episode.of(SessionLog.read(Fixtures.file("home/served/shop/20260928T020401.117Z-14662.jsonl")));
        EpisodeCut cut = EpisodeCut.afterCall(ep, "stretto-2").orElseThrow();
        assertEquals(List.of("3", "stretto-1", "stretto-2"), ids(cut.episode().calls()));
        List<String> kinds = cut.episode().events().stream().map(e -> switch (e) {
            case Event.User u -> "user";
            case Event.Assistant a -> a.calls().isEmpty() ? "says" : "calls " + ids(a.calls());
            case Event.ToolResult r -> "result " + r.callId();
        }).toList();
        assertEquals(List.of("user", "calls [3]", "result 3", "calls [stretto-1]", "result stretto-1",
                "calls [stretto-2]", "result stretto-2", "user"), kinds);
    }

    @Test
    void aCallMadeAfterTheCutJoinsItsTurnAnsweredAndIsTheNewLastStepWithThePendingCallsKept() {
        Episode ep = episode(new Event.User("hi"),
                new Event.Assistant(null, List.of(call("1", "a"), call("2", "x")), null), result("1", "a"));
        EpisodeCut cut = EpisodeCut.afterCall(ep, "1").orElseThrow();
        EpisodeCut after = cut.withAnswered(call("stretto-1", "b"), true, "no such thing");
        assertEquals(List.of("2"), ids(after.pending()));
        assertEquals(List.of(new Event.User("hi"), new Event.Assistant(null, List.of(call("1", "a"),
                        call("stretto-1", "b")), null), result("1", "a"),
                new Event.ToolResult("stretto-1", "b", true, "no such thing")), after.episode().events());
    }

    @Test
    void theTurnOfACallIsTheLatestAssistantEventBeforeThePlaceThatHoldsIt() {
        List<Event> events = List.of(new Event.Assistant(null, List.of(call("1", "a")), null), result("1", "a"),
                new Event.Assistant(null, List.of(call("1", "a")), null), result("1", "a"));
        assertEquals(0, EpisodeCut.turnOf(events, 1, "1"));
        assertEquals(2, EpisodeCut.turnOf(events, 3, "1"));
        assertEquals(-1, EpisodeCut.turnOf(events, 3, "9"));
        assertEquals(-1, EpisodeCut.turnOf(events, 0, "1"));
    }
}
