package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.Fixtures;
import dev.stretto.trace.testing.LogBuilder;
import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The builder fed one entry at a time gives, after every entry, the episode {@code
 * Episode.of} gives for the log cut there: the proxy decides on exactly what {@code stretto
 * episode} shows offline.
 */
class TimelineBuilderTest {

    private static void assertEveryPrefixMatches(SessionLog log) {
        TimelineBuilder builder = new TimelineBuilder(log.header());
        List<LogEntry> entries = log.entries();
        for (int k = 0; k < entries.size(); k++) {
            builder.add(entries.get(k));
            SessionLog prefix = new SessionLog(log.header(), entries.subList(0, k + 1));
            Episode offline = Episode.of(prefix);
            assertEquals(offline, builder.episode(), "after entry " + (k + 1) + " of " + log.session());
            assertEquals(offline.events(), builder.events(), "events after entry " + (k + 1));
            assertEquals(offline.toJson(), builder.episode().toJson());
        }
        assertEquals(Timeline.of(log), builder.timeline());
    }

    @Test
    void everyPrefixOfEveryFixtureLogGivesTheOfflineEpisode() throws IOException {
        for (Path p : Fixtures.homeLogs()) {
            assertEveryPrefixMatches(SessionLog.read(p));
        }
    }

    @Test
    void parallelCallsIdReuseCancellationsAndBatchesMatchOfflineAfterEveryEntry() {
        SessionLog log = new LogBuilder().domain("retail")
                .line(0, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
                        + "{\"clientInfo\":{\"name\":\"host\"}}}")
                .user(1, "cancel #W1a please")
                .call(2, 1, "get_order_details", "{\"order_id\":\"#W1a\"}")
                .call(3, 2, "get_user_details", "{\"user_id\":\"user_1\"}")
                .lookup(4, 1, "get_user_details", "{\"user_id\":\"user_1\"}")
                .result(5, "\"stretto-1\"", "{\"user_id\":\"user_1\"}")
                .result(6, 2, "{\"user_id\":\"user_1\"}")
                .call(7, 2, "get_user_details", "{\"user_id\":\"user_2\"}")
                .cancel(8, 1)
                .raw(9, Source.SERVER, "not json")
                .result(10, 1, "late")
                .line(11, Source.SERVER, "[{\"id\":2,\"jsonrpc\":\"2.0\",\"error\":{\"code\":-1,\"message\":\"no\"}}]")
                .assistant(12, "Done.")
                .call(900, 3, "cancel_pending_order", "{\"order_id\":\"#W1a\",\"reason\":\"ordered by mistake\"}")
                .line(901, Source.PROXY, "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused\","
                        + "\"type\":\"text\"}],\"isError\":true}}")
                .build();
        assertEveryPrefixMatches(log);
    }

    @Test
    void aParsedMessageCountsTheSameAsItsEntry() {
        SessionLog log = new LogBuilder()
                .call(1, 7, "lookup", "{\"text\":\"hi\"}")
                .result(2, 7, "hi")
                .build();
        TimelineBuilder fromEntries = new TimelineBuilder(log.header());
        TimelineBuilder fromTrees = new TimelineBuilder(log.header());
        for (LogEntry e : log.entries()) {
            fromEntries.add(e);
            fromTrees.add(e.tMs(), e.from(), CanonicalJson.parse(((Payload.Message) e.payload()).json()));
        }
        assertEquals(fromEntries.episode(), fromTrees.episode());
        assertEquals(2, fromTrees.episode().events().size());
    }

    @Test
    void theEpisodeIsKeptUntilTheNextEntryAndTheEventsViewIsReadOnly() {
        SessionLog log = new LogBuilder().call(1, 1, "lookup", "{}").build();
        TimelineBuilder b = new TimelineBuilder(log.header());
        b.add(log.entries().getFirst());
        Episode first = b.episode();
        assertSame(first, b.episode(), "no new episode without a new entry");
        assertThrows(UnsupportedOperationException.class, () -> b.events().clear());
        b.add(new LogEntry(2, Source.SERVER, new Payload.Raw("noise")));
        assertEquals(first, b.episode());
    }

    @Test
    void tenThousandParallelCallsInOneTurnStayCheapToFollow() {
        LogBuilder lb = new LogBuilder();
        for (int i = 0; i < 10_000; i++) {
            lb.call(i, i, "lookup", "{\"text\":\"call " + i + "\"}");
        }
        SessionLog log = lb.build();
        TimelineBuilder b = new TimelineBuilder(log.header());
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (LogEntry e : log.entries()) {
                b.add(e);
                b.events();
            }
        }, "following 10,000 calls of one turn entry by entry");
        Event.Assistant turn = (Event.Assistant) b.events().getFirst();
        assertEquals(10_000, turn.calls().size());
        assertEquals("call 9999", turn.calls().getLast().arguments().get("text").textValue());
        assertTrue(b.timeline().turns().size() == 1);
    }

    @Test
    void aCommitAnsweredWithAnErrorIsNotMarkedRefusedButAPlainCallIs() {
        SessionLog log = new LogBuilder()
                .call(1, 1, Timeline.COMMIT_TOOL, "{\"calls\":[]}")
                .line(2, Source.PROXY, "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"x\","
                        + "\"type\":\"text\"}],\"isError\":true}}")
                .call(3, 2, "cancel_pending_order", "{}")
                .line(4, Source.PROXY, "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused\","
                        + "\"type\":\"text\"}],\"isError\":true}}")
                .build();
        List<Timeline.Call> calls = Timeline.of(log).calls();
        assertTrue(calls.get(0).isCommit());
        assertEquals(false, calls.get(0).isRefused());
        assertEquals(false, calls.get(1).isCommit());
        assertTrue(calls.get(1).isRefused());
    }
}
