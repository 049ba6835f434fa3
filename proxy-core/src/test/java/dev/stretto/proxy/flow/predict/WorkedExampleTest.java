package dev.stretto.proxy.flow.predict;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.flow.bind.Binder;
import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.bind.Pick;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.wire.RunRecord;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** Formats 2.9: the served shop session's numbers, to the last digit. */
class WorkedExampleTest {

    static Flow shop;
    static Episode served;

    @BeforeAll
    static void read() throws IOException {
        shop = FlowFile.read(ReferenceData.file("home/shop.flow.json"));
        served = Episode.of(SessionLog.read(ReferenceData.file("home/served/shop/20260928T020401.117Z-14662.jsonl")));
    }

    private static List<Long> historyAfter(String callId) {
        return Steps.history(Steps.of(shop, EpisodeCut.afterCall(served, callId).orElseThrow().episode()));
    }

    @Test
    void theHistoriesAfterTheCallAndEachLookupAreTheLoggedOnes() {
        assertEquals(List.of(32768L), historyAfter("3"));
        assertEquals(List.of(32768L, 65536L), historyAfter("stretto-1"));
        assertEquals(List.of(32768L, 65536L, 49152L), historyAfter("stretto-2"));
        assertEquals(List.of(32768L, 65536L, 49152L, 49152L), historyAfter("stretto-3"));
    }

    @Test
    void theFourReachProbabilitiesAreTheLoggedOnes() {
        Predictions p = new Predictions(shop);
        assertEquals(Map.of("get_user_details", 0.9925520080633771, "respond", 0.0),
                p.reach(List.of(32768L), List.of("get_user_details")));
        assertEquals(0.9959143854769734, p.reach(List.of(32768L, 65536L), List.of("get_order_details"))
                .get("get_order_details"));
        assertEquals(0.9486398991730227, p.reach(List.of(32768L, 65536L, 49152L), List.of("get_order_details"))
                .get("get_order_details"));
        assertEquals(0.052769325969608226, p.reach(List.of(32768L, 65536L, 49152L, 49152L),
                List.of("get_order_details")).get("get_order_details"));
    }

    @Test
    void theTwoBindingChancesAreTheLoggedOnes() {
        Binder binder = new Binder(shop);
        Pick user = binder.pick(BindingView.of(EpisodeCut.afterCall(served, "3").orElseThrow()), "get_user_details", null);
        assertEquals(0.875, ((Pick.Bound) user).chance());
        Pick order = binder.pick(BindingView.of(EpisodeCut.afterCall(served, "stretto-1").orElseThrow()),
                "get_order_details", null);
        assertEquals(0.9285714285714286, ((Pick.Bound) order).chance());
    }

    @Test
    void theOutcomeLogProbabilitiesAreLnOfSevenEighthsAndThirteenFourteenths() {
        ProgramDistributions d = new ProgramDistributions(shop);
        assertEquals(0.875, d.okProbability("get_user_details"));
        assertEquals(-0.13353139262452263, d.outcomeLogp("get_user_details", true));
        assertEquals(-0.07410797215372185, d.outcomeLogp("get_order_details", true));
        RunRecord run = new RunRecord("find_user_id_by_email", false, 8, List.of(
                new RunRecord.Decide(0, 3), new RunRecord.Outcome(0, true, d.outcomeLogp("get_user_details", true)),
                new RunRecord.Decide(1, 2), new RunRecord.Outcome(1, true, d.outcomeLogp("get_order_details", true)),
                new RunRecord.Decide(2, 2), new RunRecord.Outcome(2, true, d.outcomeLogp("get_order_details", true)),
                new RunRecord.Decide(3, 0)));
        assertEquals(0.2817473369319663, run.surprise());
        assertEquals(Math.log(1.0 / 8.0), d.outcomeLogp("get_user_details", false), 1e-15);
    }

    @Test
    void toolNumbersAreHandBackThenTheReadsThenTheOtherTools() {
        ToolNumbers n = new ToolNumbers(shop);
        assertEquals(1, n.number("find_user_id_by_email"));
        assertEquals(2, n.number("get_order_details"));
        assertEquals(3, n.number("get_user_details"));
        assertEquals(4, n.number("cancel_pending_order"));
        assertEquals(5, n.number("something_new"));
        assertEquals(5, n.number("something_new"));
        assertEquals("get_user_details", n.tool(3));
        assertEquals(true, n.offered("get_user_details"));
        assertEquals(false, n.offered("cancel_pending_order"));
    }

    @Test
    void decideIsAFlatDirichletOverHandingBackAndTheOfferedLookups() {
        ProgramDistributions d = new ProgramDistributions(shop);
        ToolNumbers n = new ToolNumbers(shop);
        assertArrayEquals(new double[] {1.0 / 8, 0, 0, 7.0 / 8}, d.decide("find_user_id_by_email", false, n));
        // After get_order_details: 12 steps followed, 6 of them get_order_details.
        assertArrayEquals(new double[] {7.0 / 14, 0, 7.0 / 14, 0}, d.decide("get_order_details", false, n));
        // A site training never saw: only handing back is left.
        assertArrayEquals(new double[] {1.0, 0, 0, 0}, d.decide("cancel_pending_order", false, n));
    }

    @Test
    void respondStepsAreEndedUntilTheUserAnswers() {
        List<Step> steps = Steps.of(shop, served);
        // find_user, 3 lookups, "You have two ..." (answered), cancel, "Order ... cancelled." (ended)
        assertEquals(List.of(32768L, 65536L, 49152L, 49152L, 8192L, 16384L, 12288L), Steps.history(steps));
    }
}
