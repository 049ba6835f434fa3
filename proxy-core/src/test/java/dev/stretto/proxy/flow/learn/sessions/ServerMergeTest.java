package dev.stretto.proxy.flow.learn.sessions;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Merging the logs one agent session left with several servers (stretto-learn 2.2). */
class ServerMergeTest {

    private static final long T0 = 1_790_000_000_000L;

    private static SessionLog orders(String session, long start, String host) {
        return Logs.of(session, start, host, "orders", Logs.listing(0, "get_order")
                .user(5, "Where is #A1?")
                .call(1000, 2, "get_order", "{\"q\":\"#A1\"}")
                .result(1002, 2, "shipped"));
    }

    private static SessionLog users(String session, long start, String host) {
        return Logs.of(session, start, host, "users", Logs.listing(0, "get_user")
                .user(3, "Where is #A1?")
                .call(4, 2, "get_user", "{\"q\":\"me\"}")
                .result(6, 2, "u1"));
    }

    private static List<String> eventsOf(SessionLog log) {
        Episode e = Timeline.of(log).episode();
        return e.events().stream().map(ev -> switch (ev) {
            case Event.User u -> "user " + u.text();
            case Event.Assistant a -> "calls " + a.calls().stream().map(c -> c.id() + " " + c.name()).toList();
            case Event.ToolResult r -> "result " + r.callId() + " " + r.content();
        }).toList();
    }

    @Test
    void overlappingLogsOfOneHostSessionBecomeOneSessionWithQualifiedNames() {
        SessionLog a = orders("20260101T000000.000Z-1", T0, "host-7");
        SessionLog b = users("20260101T000000.001Z-2", T0 + 1, "host-7");
        ServerMerge.Result r = ServerMerge.merge(List.of(a, b));
        assertEquals(2, r.mergedLogs());
        assertEquals(1, r.mergedSessions());
        assertEquals(1, r.logs().size());
        SessionLog merged = r.logs().getFirst();
        assertEquals("host-7", merged.session());
        assertEquals(T0, merged.header().startedUnixMs());
        assertEquals(List.of(), merged.header().serverCommand());
        // users' lines move 1 ms later; the conversation, logged by both proxies, is kept once.
        assertEquals(List.of("user Where is #A1?", "calls [users::2 users::get_user]", "result users::2 u1",
                        "calls [orders::2 orders::get_order]", "result orders::2 shipped"),
                eventsOf(merged));
        assertEquals(List.of("orders::get_order", "users::get_user"),
                List.copyOf(FlowManifest.of(Manifest.of(r.logs(), "d")).tools().keySet()));
    }

    @Test
    void aCallLeftUnansweredIsCancelledAtTheEndOfItsPartSoTheOtherServersCallsStartTheirOwnTurn() {
        SessionLog a = Logs.of("20260101T000000.000Z-1", T0, "h", "orders", Logs.listing(0, "get_order")
                .call(1, 2, "get_order", "{\"q\":\"#A1\"}"));
        SessionLog b = Logs.of("20260101T000000.000Z-2", T0, "h", "users", Logs.listing(0, "get_user")
                .call(50, 2, "get_user", "{\"q\":\"me\"}")
                .result(52, 2, "u1"));
        SessionLog merged = ServerMerge.merge(List.of(a, b)).logs().getFirst();
        assertEquals(List.of("calls [orders::2 orders::get_order]", "calls [users::2 users::get_user]",
                "result users::2 u1"), eventsOf(merged));
        // The cancellation comes from the proxy at the orders log's last moment, before users' call.
        var cancel = merged.entries().get(5);
        assertEquals(1, cancel.tMs());
        assertEquals(dev.stretto.trace.log.Source.PROXY, cancel.from());
        assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/cancelled\",\"params\":{\"requestId\":\"orders::2\"}}",
                ((dev.stretto.trace.log.Payload.Message) cancel.payload()).json());
    }

    @Test
    void runsApartInTimeAreSeparateSessionsNumberedFromZero() {
        SessionLog a1 = orders("20260101T000000.000Z-1", T0, "h");
        SessionLog b1 = users("20260101T000000.000Z-2", T0, "h");
        SessionLog a2 = orders("20260101T010000.000Z-3", T0 + 3_600_000, "h");
        SessionLog b2 = users("20260101T010000.000Z-4", T0 + 3_600_000, "h");
        ServerMerge.Result r = ServerMerge.merge(List.of(a1, b1, a2, b2));
        assertEquals(List.of("h#0", "h#1"), r.logs().stream().map(SessionLog::session).toList());
        assertEquals(4, r.mergedLogs());
        assertEquals(2, r.mergedSessions());
    }

    @Test
    void twoServersOfTheSameNameAtOnceAreKeptApartAndReported() {
        SessionLog a = orders("20260101T000000.000Z-1", T0, "h");
        SessionLog b = orders("20260101T000000.000Z-2", T0 + 2, "h");
        ServerMerge.Result r = ServerMerge.merge(List.of(a, b));
        assertEquals(List.of("h"), r.keptApart());
        assertEquals(0, r.mergedSessions());
        assertSame(a, r.logs().get(0));
        assertSame(b, r.logs().get(1));
    }

    @Test
    void onceSomethingMergedEveryOtherNamedLogIsQualifiedToo() {
        SessionLog a = orders("20260101T000000.000Z-1", T0, "h");
        SessionLog b = users("20260101T000000.000Z-2", T0, "h");
        SessionLog alone = orders("20260102T000000.000Z-3", T0 + 86_400_000, "other-host");
        ServerMerge.Result r = ServerMerge.merge(List.of(a, b, alone));
        assertEquals(List.of("h", "20260102T000000.000Z-3"), r.logs().stream().map(SessionLog::session).toList());
        assertEquals(List.of("user Where is #A1?", "calls [orders::2 orders::get_order]", "result orders::2 shipped"),
                eventsOf(r.logs().get(1)));
    }

    @Test
    void logsWithoutAHostSessionAreLeftAsTheyAre() {
        SessionLog a = orders("20260101T000000.000Z-1", T0, null);
        SessionLog b = users("20260101T000000.000Z-2", T0, null);
        ServerMerge.Result r = ServerMerge.merge(List.of(a, b));
        assertSame(a, r.logs().get(0));
        assertSame(b, r.logs().get(1));
        assertEquals(0, r.mergedSessions());
    }

    @Test
    void serverNamesKeepOnlyPortableCharacters() {
        SessionLog log = Logs.of("s", T0, "h", "my server/v2 ü", Logs.listing(0));
        assertEquals("my_server_v2__", ServerMerge.serverName(log));
    }
}
