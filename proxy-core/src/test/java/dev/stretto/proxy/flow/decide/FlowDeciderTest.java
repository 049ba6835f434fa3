package dev.stretto.proxy.flow.decide;

import static dev.stretto.proxy.flow.FlowTesting.RETAIL;
import static dev.stretto.proxy.flow.FlowTesting.SERVED;
import static dev.stretto.proxy.flow.FlowTesting.cutAt;
import static dev.stretto.proxy.flow.FlowTesting.flow;
import static dev.stretto.proxy.flow.FlowTesting.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.FlowTesting;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.json.RustText;
import dev.stretto.trace.log.SessionLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Every rule of formats 3.4 and its hand-back reason, on the example flows and sessions. */
class FlowDeciderTest {

    private static final SessionLog SERVED_LOG = log(SERVED);
    private static final SessionLog RETAIL_LOG = log(RETAIL);
    private static final Flow SHOP = flow("home/shop.flow.json");
    private static final Flow RETAIL5 = flow("retail-5-sessions.flow.json");

    private static Decision decide(Flow flow, Scorer scorer, double threshold, EpisodeCut cut) {
        DecisionStep step = new FlowDecider(flow, scorer, threshold, null, "task").decide(cut, t -> null);
        return ((DecisionStep.Decided) step).decision();
    }

    private static Decision reach(Flow flow, double threshold, EpisodeCut cut) {
        return decide(flow, Scorer.reach(flow), threshold, cut);
    }

    private static Decision habit(Flow flow, double threshold, EpisodeCut cut) {
        return decide(flow, Scorer.habit(flow), threshold, cut);
    }

    /** A scorer of {@code kind} that gives the lookups the probabilities given, handing back 0. */
    private static Scorer fixed(DeciderKind kind, Map<String, Double> probs) {
        return new Scorer() {
            @Override
            public DeciderKind kind() {
                return kind;
            }

            @Override
            public Scoring score(SiteQuestion q) {
                Map<String, Double> all = new LinkedHashMap<>(probs);
                all.put("respond", 0.0);
                return new Scoring.Scored(all);
            }
        };
    }

    private static EpisodeCut withPending(EpisodeCut cut, String... toolAndArgs) {
        List<ToolCall> pending = new ArrayList<>(cut.pending());
        for (int i = 0; i < toolAndArgs.length; i += 2) {
            pending.add(new ToolCall("p" + i, toolAndArgs[i], CanonicalJson.parse(toolAndArgs[i + 1])));
        }
        return new EpisodeCut(cut.episode(), pending);
    }

    private static String args(Decision d) {
        return CanonicalJson.write(d.arguments());
    }

    @Test
    void aDecisionWhoseLastStepIsNotACallHandsBackWithoutASite() {
        Episode said = new Episode("s", "", 0, "shop", "a", 0.0, List.of(new Event.User("hi"),
                new Event.Assistant("How can I help?", List.of(), null)));
        Decision d = reach(SHOP, 0.3, new EpisodeCut(said, List.of()));
        assertEquals("the last step is not a tool call", d.reason());
        assertNull(d.site());
        assertEquals(Map.of(), d.probs());
        assertNull(d.prob());
    }

    @Test
    void aFailedCallsSiteIsNamedWithErrorAndASiteWithoutLookupsHandsBack() {
        Decision d = habit(RETAIL5, 0.3, cutAt(RETAIL_LOG, "3"));
        assertEquals("find_user_id_by_email (error)", d.site());
        assertEquals("no lookups followed here in training", d.reason());
        assertEquals(Map.of(), d.probs());
    }

    @Test
    void aPromotedFlowHandsBackAtAnUnpromotedSiteAndActsAtAPromotedOne() {
        Flow promoted = FlowTesting.withPromoted(SHOP, FlowTesting.promoting("get_user_details"));
        Decision first = reach(promoted, 0.3, cutAt(SERVED_LOG, "3"));
        assertEquals("the site is not promoted", first.reason());
        assertEquals("find_user_id_by_email", first.site());
        Decision second = reach(promoted, 0.3, cutAt(SERVED_LOG, "stretto-1"));
        assertEquals("get_order_details", second.tool());
        Decision third = reach(promoted, 0.3, cutAt(SERVED_LOG, "stretto-2"));
        assertEquals("the site is not promoted", third.reason(), "a site never scored is not promoted");
    }

    @Test
    void aSiteThresholdAboveOneSwitchesTheSiteOff() {
        Flow off = FlowTesting.withThresholds(SHOP, Map.of("find_user_id_by_email", 1.5));
        Decision d = reach(off, 0.3, cutAt(SERVED_LOG, "3"));
        assertEquals("the site is switched off", d.reason());
        assertEquals(Map.of(), d.probs());
        assertEquals("get_order_details", reach(off, 0.3, cutAt(SERVED_LOG, "stretto-1")).tool());
    }

    @Test
    void aSiteThresholdOfAtMostOneReplacesTheServedOne() {
        Flow one = FlowTesting.withThresholds(SHOP, Map.of("find_user_id_by_email", 1.0));
        assertEquals("get_user_details at 0.99, below 1", reach(one, 0.3, cutAt(SERVED_LOG, "3")).reason());
        Flow high = FlowTesting.withThresholds(SHOP, Map.of("find_user_id_by_email", 0.9));
        assertEquals("get_user_details at 0.99, times 0.88 for its arguments, below 0.9",
                reach(high, 0.3, cutAt(SERVED_LOG, "3")).reason());
        Flow low = FlowTesting.withThresholds(SHOP, Map.of("get_order_details", 0.01));
        Decision d = reach(low, 0.3, cutAt(SERVED_LOG, "stretto-3"));
        assertEquals("get_order_details: nothing left to pass as `order_id`", d.reason());
        assertEquals(0.052769325969608226, d.prob());
        assertNull(d.binding());
    }

    @Test
    void habitHandsBackBelowTheThresholdWithTheProbabilityToTwoDecimals() {
        Decision d = habit(RETAIL5, 0.3, cutAt(RETAIL_LOG, "4"));
        assertEquals("get_user_details at 0.25, below 0.3", d.reason());
        assertEquals(0.25266646721134445, d.prob());
        assertEquals(Map.of("get_user_details", 0.25266646721134445, "respond", 0.7473335327886556), d.probs());
        assertNull(d.binding());
    }

    @Test
    void habitLooksUpTheLikeliestLookupWhenItAndItsBindingClearTheThreshold() {
        Decision d = habit(RETAIL5, 0.3, cutAt(RETAIL_LOG, "6"));
        assertEquals(true, d.lookup());
        assertEquals("get_order_details", d.tool());
        assertEquals("{\"order_id\":\"#W61b\"}", args(d));
        assertEquals(0.6400934855303034, d.prob());
        assertEquals(0.9, d.binding());
        assertEquals(Map.of("get_order_details", 0.6400934855303034, "get_product_details", 0.09527122311941329,
                "respond", 0.2646352913502833), d.probs());
    }

    @Test
    void habitHandsBackWhenTheBindingsChanceTakesItBelowTheThreshold() {
        Decision d = habit(RETAIL5, 0.55, cutAt(RETAIL_LOG, "5"));
        assertEquals("get_order_details at 0.56, times 0.90 for its arguments, below 0.55", d.reason());
        assertEquals(0.560370098226466, d.prob());
        assertEquals(0.9, d.binding());
    }

    @Test
    void habitHandsBackWhenTheLikeliestLookupDoesNotBindEvenIfAnotherWould() {
        EpisodeCut cut = withPending(cutAt(RETAIL_LOG, "6"), "get_order_details", "{\"order_id\":\"#W61b\"}");
        assertEquals("get_order_details: nothing left to pass as `order_id`", habit(RETAIL5, 0.3, cut).reason());
    }

    @Test
    void withNoLookupScoredThereIsNoLookupToMake() {
        assertEquals("no lookup to make",
                decide(RETAIL5, fixed(DeciderKind.HABIT, Map.of()), 0.3, cutAt(RETAIL_LOG, "6")).reason());
        assertEquals("no lookup to make",
                decide(RETAIL5, fixed(DeciderKind.REACH, Map.of()), 0.3, cutAt(RETAIL_LOG, "6")).reason());
    }

    @Test
    void reachTakesTheBestProbabilityTimesChanceAmongLookupsThatBind() {
        EpisodeCut cut = cutAt(RETAIL_LOG, "6");
        Decision d = decide(RETAIL5, fixed(DeciderKind.REACH, Map.of("get_order_details", 0.5,
                "get_product_details", 0.6)), 0.3, cut);
        assertEquals("get_order_details", d.tool());
        assertEquals(0.5, d.prob());
        assertEquals(0.9, d.binding());
        Decision product = decide(RETAIL5, fixed(DeciderKind.REACH, Map.of("get_order_details", 0.2,
                "get_product_details", 0.6)), 0.3, cut);
        assertEquals("get_product_details", product.tool());
        assertEquals("{\"product_id\":\"p1\"}", args(product));
        assertEquals(0.5, product.binding());
    }

    @Test
    void reachKeepsTheFirstOfEqualScores() {
        Decision d = decide(RETAIL5, fixed(DeciderKind.REACH, Map.of("get_order_details", 0.5,
                "get_product_details", 0.9)), 0.3, cutAt(RETAIL_LOG, "6"));
        assertEquals("get_order_details", d.tool());
    }

    @Test
    void reachExplainsTheBestScoreBelowTheThreshold() {
        Decision d = decide(RETAIL5, fixed(DeciderKind.REACH, Map.of("get_order_details", 0.2,
                "get_product_details", 0.5)), 0.3, cutAt(RETAIL_LOG, "6"));
        assertEquals("get_product_details at 0.50, times 0.50 for its arguments, below 0.3", d.reason());
        assertEquals(0.5, d.binding());
    }

    @Test
    void reachWithoutALookupAtTheThresholdNamesTheLikeliestBelowIt() {
        Decision d = decide(RETAIL5, fixed(DeciderKind.REACH, Map.of("get_order_details", 0.1,
                "get_product_details", 0.2)), 0.3, cutAt(RETAIL_LOG, "6"));
        assertEquals("get_product_details at 0.20, below 0.3", d.reason());
        assertEquals(0.2, d.prob());
    }

    @Test
    void reachReportsTheLastBindingFailureWhenNoLookupBinds() {
        EpisodeCut cut = withPending(cutAt(RETAIL_LOG, "6"), "get_order_details", "{\"order_id\":\"#W61b\"}",
                "get_product_details", "{\"product_id\":\"p1\"}");
        Decision d = decide(RETAIL5, fixed(DeciderKind.REACH, Map.of("get_order_details", 0.5,
                "get_product_details", 0.6)), 0.3, cut);
        assertEquals("get_product_details: nothing left to pass as `product_id`", d.reason());
        assertEquals(0.6, d.prob());
    }

    @Test
    void theServedThresholdIsWrittenAsRustDoes() {
        assertEquals("0.3", RustText.display(0.3));
        assertEquals("1", RustText.display(1.0));
        assertEquals("0.0000001", RustText.display(1e-7));
        assertEquals("100", RustText.display(100.0));
        assertEquals("-0", RustText.display(-0.0));
        assertEquals("0.05", RustText.twoDecimals(0.052769325969608226));
        assertEquals("0.88", RustText.twoDecimals(0.875));
        assertEquals("0.12", RustText.twoDecimals(0.125));
        assertEquals("0.14", RustText.twoDecimals(0.135));
        assertEquals("1.00", RustText.twoDecimals(0.9999));
    }
}
