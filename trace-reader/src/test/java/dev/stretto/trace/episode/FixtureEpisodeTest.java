package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/**
 * The reference's recorded sessions: every one reads, and its episode holds the calls,
 * results and messages the file shows (counted by hand from the files).
 */
class FixtureEpisodeTest {

    private static Episode episode(String relative) throws IOException {
        return Episode.of(SessionLog.read(Fixtures.file(relative)));
    }

    private static long count(Episode ep, Class<? extends Event> kind) {
        return ep.events().stream().filter(kind::isInstance).count();
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource({
            // file, calls, results, failed, user, assistant text, turns, agent
            "home/logs/shop/20260928T020400.548Z-14457.jsonl, 5, 5, 0, 2, 2, 4, quickstart",
            "home/logs/shop/20260928T020400.587Z-14486.jsonl, 4, 4, 0, 1, 1, 3, quickstart",
            "home/logs/shop/20260928T020400.618Z-14511.jsonl, 5, 5, 0, 2, 2, 4, quickstart",
            "home/logs/shop/20260928T020400.650Z-14540.jsonl, 4, 4, 0, 1, 1, 4, quickstart",
            "home/logs/shop/20260928T020400.679Z-14565.jsonl, 5, 5, 0, 2, 2, 5, quickstart",
            "home/logs/shop/20260928T020400.710Z-14594.jsonl, 5, 5, 0, 2, 2, 5, quickstart",
            "home/served/shop/20260928T020401.117Z-14662.jsonl, 5, 5, 0, 2, 2, 5, quickstart",
            "home/logs/retail/20260928T020401.312Z-14780.jsonl, 5, 5, 1, 2, 2, 5, fixtures",
    })
    void everyFixtureLogHasTheCallsResultsAndMessagesItShows(String file, int calls, int results, int failed,
                                                              int users, int said, int turns, String agent)
            throws IOException {
        SessionLog log = SessionLog.read(Fixtures.file(file));
        Timeline tl = Timeline.of(log);
        Episode ep = tl.episode();
        assertEquals(calls, ep.calls().size(), "calls");
        assertEquals(results, count(ep, Event.ToolResult.class), "results");
        assertEquals(failed, ep.events().stream()
                .filter(e -> e instanceof Event.ToolResult r && r.error()).count(), "failed results");
        assertEquals(users, count(ep, Event.User.class), "user messages");
        assertEquals(said, ep.events().stream()
                .filter(e -> e instanceof Event.Assistant a && a.text() != null).count(), "assistant messages");
        assertEquals(turns, tl.turns().size(), "turns");
        assertEquals(agent, ep.agentModel());
        assertEquals(log.session(), ep.id());
        // Cross-check against the raw file: one call per logged tools/call request.
        long requests = Files.readAllLines(Fixtures.file(file)).stream()
                .filter(l -> l.contains("\"method\":\"tools/call\"")).count();
        assertEquals(requests, calls);
    }

    @Test
    void everyLogUnderHomeReads() throws IOException {
        for (Path p : Fixtures.homeLogs()) {
            SessionLog log = SessionLog.read(p);
            assertEquals(p.getFileName().toString(), log.session() + ".jsonl");
            assertFalse(Episode.of(log).events().isEmpty(), p.toString());
        }
    }

    @Test
    void theFirstShopSessionReadsAsTheFileShowsIt() throws IOException {
        Episode ep = episode("home/logs/shop/20260928T020400.548Z-14457.jsonl");
        assertEquals("shop", ep.domain());
        List<Event> ev = ep.events();
        assertEquals(new Event.User("Hi, I'm c1@example.com. I want to cancel an order I no longer need."), ev.get(0));
        Event.Assistant first = (Event.Assistant) ev.get(1);
        assertEquals("3", first.calls().getFirst().id());
        assertEquals("find_user_id_by_email", first.calls().getFirst().name());
        assertEquals("{\"email\":\"c1@example.com\"}", first.calls().getFirst().arguments().toString());
        assertEquals(new Event.ToolResult("3", "find_user_id_by_email", false, "user_1"), ev.get(2));
        // The two order look-ups were sent 5 ms apart and #W1b was not in #W1a's details: one turn.
        Event.Assistant orders = (Event.Assistant) ev.get(5);
        assertEquals(List.of("5", "6"), orders.calls().stream().map(ToolCall::id).toList());
        Event.ToolResult cancel = (Event.ToolResult) ev.get(11);
        assertEquals("{\"order_id\":\"#W1a\",\"status\":\"cancelled\"}", cancel.content());
    }

    @Test
    void theServedSessionHasTheProxysLookupsAndKeepsTheServersResult() throws IOException {
        Timeline tl = Timeline.of(SessionLog.read(Fixtures.file("home/served/shop/20260928T020401.117Z-14662.jsonl")));
        List<Timeline.Call> calls = tl.calls();
        assertEquals(List.of("3", "stretto-1", "stretto-2", "stretto-3", "4"),
                calls.stream().map(Timeline.Call::id).toList());
        assertEquals(List.of(false, true, true, true, false), calls.stream().map(Timeline.Call::isLookup).toList());
        // The proxy's copy of result 3 with the appended look-ups is a later response: ignored.
        assertEquals("user_41", calls.getFirst().result().content());
        assertEquals(9, calls.getFirst().result().tMs());
        assertEquals("{\"order_id\":\"#W41b\"}", calls.get(3).arguments().toString());
        assertEquals(1, calls.get(1).durationMs());
    }

    @Test
    void theRetailSessionsFirstCallFailed() throws IOException {
        Episode ep = episode("home/logs/retail/20260928T020401.312Z-14780.jsonl");
        assertEquals("retail", ep.domain());
        assertEquals(new Event.ToolResult("3", "find_user_id_by_email", true, "Error: User not found"),
                ep.events().get(2));
        assertEquals("{\"email\":\"c61@example.com\"}", ep.calls().get(1).arguments().toString());
        assertTrue(ep.events().getLast() instanceof Event.Assistant a && "Order #W61a is cancelled.".equals(a.text()));
    }
}
