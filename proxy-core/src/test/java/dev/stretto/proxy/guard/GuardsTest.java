package dev.stretto.proxy.guard;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.TimelineBuilder;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The registry, the verdicts' JSON, and facts kept as a session goes. */
class GuardsTest {

    @Test
    void theDomainsAreRetailAndAirlineAndUnknownNamesHaveNoGuards() {
        assertEquals("retail or airline", Guards.domainNames());
        assertEquals("retail", Guards.forDomain("retail").orElseThrow().domain().name());
        assertEquals("airline", Guards.forDomain("airline").orElseThrow().domain().name());
        assertTrue(Guards.forDomain("shop").isEmpty());
    }

    @Test
    void verdictsPrintAsTheReferencesVerdictObjects() {
        assertEquals("{\"verdict\":\"pass\"}", Verdict.pass().toJson());
        assertEquals("{\"verdict\":\"fail\",\"reason\":\"'x' is \\\"odd\\\"\"}", Verdict.fail("'x' is \"odd\"").toJson());
        assertEquals("{\"verdict\":\"unknown\",\"reason\":\"the order was not looked up\"}",
                Verdict.unknown("the order was not looked up").toJson());
    }

    @Test
    void aRuleThatThrowsGivesAnUnknownNotARefusal() {
        Rule broken = Rule.enforced("test.broken", Set.of("t"), (call, facts) -> {
            throw new IllegalStateException("bug");
        });
        Verdict v = broken.verdict(SessionSoFar.call("t", "{}"), new Facts());
        assertTrue(v instanceof Verdict.Unknown u && u.reason().contains("bug"), v.toString());
    }

    @Test
    void factsKeptEntryByEntryEqualFactsOfTheWholeSession() throws Exception {
        SessionLog log = SessionLog.read(Fixtures.file("home/logs/retail/20260928T020401.312Z-14780.jsonl"));
        TimelineBuilder timeline = new TimelineBuilder(log.header());
        Facts live = new Facts();
        for (LogEntry e : log.entries()) {
            timeline.add(e);
            live.update(timeline.events());
        }
        Facts whole = Facts.of(timeline.events());
        assertEquals(Set.of("user_61"), live.authenticatedUsers());
        assertEquals(whole.orders(), live.orders());
        assertEquals(whole.users(), live.users());
        assertEquals(whole.customerTexts(), live.customerTexts());
        assertEquals(whole.pastWrites(), live.pastWrites());
        assertEquals("cancelled", live.orders().get("#W61a").get("status").textValue(), "the write's result is the order as last seen");
        assertEquals(List.of("cancel_pending_order"), live.pastWrites().stream().map(Facts.Write::tool).toList());
        assertEquals("yes, cancel it.", live.lastCustomerText().orElseThrow());
    }

    @Test
    void callsThatJoinTheNewestTurnLaterStillGiveTheirArgumentsToTheirResults() {
        dev.stretto.trace.testing.LogBuilder lb = new dev.stretto.trace.testing.LogBuilder()
                .call(0, 1, "get_flight_status", "{\"flight_number\":\"HAT1\",\"date\":\"2024-05-20\"}")
                .call(1, 2, "get_flight_status", "{\"flight_number\":\"HAT2\",\"date\":\"2024-05-20\"}")
                .result(2, 2, "delayed")
                .result(3, 1, "cancelled");
        SessionLog log = lb.build();
        TimelineBuilder timeline = new TimelineBuilder(log.header());
        Facts live = new Facts();
        timeline.add(log.entries().get(0));
        live.update(timeline.events());
        for (LogEntry e : log.entries().subList(1, 4)) {
            timeline.add(e);
        }
        live.update(timeline.events());
        assertEquals("delayed", live.flightStatus("HAT2", "2024-05-20").orElseThrow());
        assertEquals("cancelled", live.flightStatus("HAT1", "2024-05-20").orElseThrow());
        List<Event> events = timeline.events();
        assertEquals(3, events.size());
    }
}
