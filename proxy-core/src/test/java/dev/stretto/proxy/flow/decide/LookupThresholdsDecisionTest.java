package dev.stretto.proxy.flow.decide;

import static dev.stretto.proxy.flow.FlowTesting.RETAIL;
import static dev.stretto.proxy.flow.FlowTesting.cutAt;
import static dev.stretto.proxy.flow.FlowTesting.flow;
import static dev.stretto.proxy.flow.FlowTesting.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.bind.Mention;
import dev.stretto.proxy.flow.bind.Pick;
import dev.stretto.proxy.flow.bind.WriteVerbs;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.model.LookupThresholds.Case;
import dev.stretto.proxy.flow.model.LookupThresholds.When;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * Thresholds of single lookups by case (format 3, {@code lookup_thresholds}): a lookup with
 * thresholds of its own at the site is held to the one of its case, the others to the site's.
 */
class LookupThresholdsDecisionTest {

    private static final SessionLog RETAIL_LOG = log(RETAIL);
    private static final Flow RETAIL5 = flow("retail-5-sessions.flow.json");
    /** After call 6 the order lookup scores 0.5 × 0.9, the product's 0.6 × 0.5 (with the probabilities below). */
    private static final Map<String, Double> PROBS = Map.of("get_order_details", 0.5, "get_product_details", 0.6);

    private static Scorer fixed(Map<String, Double> probs) {
        return new Scorer() {
            @Override
            public DeciderKind kind() {
                return DeciderKind.REACH;
            }

            @Override
            public Scoring score(SiteQuestion q) {
                Map<String, Double> all = new LinkedHashMap<>(probs);
                all.put("respond", 0.0);
                return new Scoring.Scored(all);
            }
        };
    }

    private static Decision decide(Flow flow) {
        EpisodeCut cut = cutAt(RETAIL_LOG, "6");
        DecisionStep step = new FlowDecider(flow, fixed(PROBS), 0.3, null, "task").decide(cut, t -> null);
        return ((DecisionStep.Decided) step).decision();
    }

    private static Flow with(String tool, Case when, double threshold) {
        String site = decide(RETAIL5).site();
        return RETAIL5.withLookupThresholds(new LookupThresholds(Map.of(site, Map.of(tool, Map.of(When.of(when), threshold)))));
    }

    @Test
    void withoutThemTheBestScoreAtTheSitesThresholdWins() {
        Decision d = decide(RETAIL5);
        assertEquals("get_order_details", d.tool());
        assertEquals("get_order_details", decide(with("get_product_details", Case.MENTIONED, 2.0)).tool());
    }

    @Test
    void aLookupSwitchedOffInItsCaseLeavesTheOtherAtTheSitesThreshold() {
        Flow f = with("get_order_details", Case.UNMENTIONED, 2.0);
        assertEquals(3, f.format());
        Decision d = decide(f);
        assertEquals("get_product_details", d.tool());
        assertEquals("{\"product_id\":\"p1\"}", CanonicalJson.write(d.arguments()));
    }

    @Test
    void aLookupsOwnThresholdIsHeldToByItsScoreToo() {
        // 0.5 × 0.9 = 0.45 does not reach 0.5: the product, at 0.3 for the site, is made instead.
        assertEquals("get_product_details", decide(with("get_order_details", Case.UNMENTIONED, 0.5)).tool());
        // A lower one of its own lets the order through where the site's would too.
        assertEquals("get_order_details", decide(with("get_order_details", Case.UNMENTIONED, 0.05)).tool());
    }

    @Test
    void whenNoLookupReachesItsThresholdTheReasonNamesTheLikeliestWithItsOwn() {
        String site = decide(RETAIL5).site();
        Flow f = RETAIL5.withLookupThresholds(new LookupThresholds(Map.of(site, Map.of(
                "get_order_details", Map.of(When.of(Case.UNMENTIONED), 2.0),
                "get_product_details", Map.of(When.of(Case.UNMENTIONED), 0.8)))));
        assertEquals("get_product_details at 0.60, below 0.8", decide(f).reason());
        Flow off = RETAIL5.withLookupThresholds(new LookupThresholds(Map.of(site, Map.of(
                "get_order_details", Map.of(When.of(Case.UNMENTIONED), 2.0),
                "get_product_details", Map.of(When.of(Case.UNMENTIONED), 2.0)))));
        assertEquals("get_product_details at 0.60, switched off here in this case", decide(off).reason());
    }

    @Test
    void theCaseIsMentionedForAPickTheCustomerGaveElseWhetherTheLastResultShowsANewMention() {
        ToolCall find = new ToolCall("1", "find_user_id_by_email", CanonicalJson.parse("{\"email\":\"c1@example.com\"}")
                .deepCopy());
        ToolCall user = new ToolCall("2", "get_user_details", CanonicalJson.parse("{\"user_id\":\"user_1\"}").deepCopy());
        ToolCall order = new ToolCall("3", "get_order_details", CanonicalJson.parse("{\"order_id\":\"#W1a\"}")
                .deepCopy());
        List<Event> events = List.of(
                new Event.User("I am c1@example.com and my desk lamp broke"),
                new Event.Assistant(null, List.of(find), null),
                new Event.ToolResult("1", find.name(), false, "user_1"),
                new Event.Assistant(null, List.of(user), null),
                new Event.ToolResult("2", user.name(), false,
                        "{\"email\":\"c1@example.com\",\"orders\":[\"#W1a\",\"#W1b\"]}"),
                new Event.Assistant(null, List.of(order), null),
                new Event.ToolResult("3", order.name(), false,
                        "{\"items\":[{\"name\":\"Desk Lamp\",\"product_id\":\"p1\"}],\"order_id\":\"#W1a\"}"));
        // The order shows the desk lamp, which nothing before held: what the customer described was found.
        BindingView afterOrder = BindingView.of(events, List.of());
        assertTrue(afterOrder.showsNewMention());
        Pick.Bound unmentioned = new Pick.Bound((ObjectNode) CanonicalJson.parse("{\"order_id\":\"#W1b\"}"),
                Mention.NONE, 0.9);
        assertEquals(When.of(Case.AFTER_MENTION), FlowDecider.caseOf(unmentioned, afterOrder, WriteVerbs.NONE));
        Pick.Bound mentioned = new Pick.Bound((ObjectNode) CanonicalJson.parse("{\"product_id\":\"p1\"}"),
                Mention.PICKED, 0.5);
        assertEquals(When.of(Case.MENTIONED), FlowDecider.caseOf(mentioned, afterOrder, WriteVerbs.NONE));
        // The details show the email, which the agent had passed: nothing new.
        BindingView afterUser = BindingView.of(events.subList(0, 5), List.of());
        assertFalse(afterUser.showsNewMention());
        assertEquals(When.of(Case.UNMENTIONED), FlowDecider.caseOf(unmentioned, afterUser, WriteVerbs.NONE));
        // A failed last call shows nothing.
        List<Event> failed = new ArrayList<>(events.subList(0, 6));
        failed.add(new Event.ToolResult("3", order.name(), true, "Error: order not found"));
        assertFalse(BindingView.of(failed, List.of()).showsNewMention());
    }

    @Test
    void aMentionSaidWithAWritesVerbIsItsOwnCaseAndFallsBackToTheMentionsThreshold() {
        ToolCall find = new ToolCall("1", "find_user_id_by_email", CanonicalJson.parse("{\"email\":\"c1@example.com\"}")
                .deepCopy());
        List<Event> events = List.of(
                new Event.User("I am c1@example.com. I want to exchange my Desk Lamp and return the kettle"),
                new Event.Assistant(null, List.of(find), null),
                new Event.ToolResult("1", find.name(), false, "user_1"));
        BindingView view = BindingView.of(events, List.of());
        WriteVerbs verbs = new WriteVerbs(java.util.Set.of("exchange", "return"));
        Pick.Bound lamp = new Pick.Bound((ObjectNode) CanonicalJson.parse("{\"product_id\":\"p1\"}"),
                Mention.PICKED, 0.5, "Desk Lamp");
        Pick.Bound kettle = new Pick.Bound((ObjectNode) CanonicalJson.parse("{\"product_id\":\"p2\"}"),
                Mention.PICKED, 0.5, "Electric Kettle");
        When exchange = new When(Case.MENTIONED, "exchange");
        assertEquals(exchange, FlowDecider.caseOf(lamp, view, verbs));
        // Words the customer never wrote say nothing of a verb; the flow without verbs neither.
        assertEquals(When.of(Case.MENTIONED), FlowDecider.caseOf(kettle, view, verbs));
        assertEquals(When.of(Case.MENTIONED), FlowDecider.caseOf(lamp, view, WriteVerbs.NONE));
        // An order that shows the lamp for the first time: the next lookup is after a mention said with exchange.
        ToolCall order = new ToolCall("2", "get_order_details", CanonicalJson.parse("{\"order_id\":\"#W1a\"}")
                .deepCopy());
        List<Event> found = new ArrayList<>(events);
        found.add(new Event.Assistant(null, List.of(order), null));
        found.add(new Event.ToolResult("2", order.name(), false,
                "{\"items\":[{\"name\":\"Desk Lamp\",\"product_id\":\"p1\"}],\"order_id\":\"#W1a\"}"));
        Pick.Bound next = new Pick.Bound((ObjectNode) CanonicalJson.parse("{\"order_id\":\"#W1b\"}"), Mention.NONE,
                0.9);
        assertEquals(new When(Case.AFTER_MENTION, "exchange"), FlowDecider.caseOf(next, BindingView.of(found, List.of()),
                verbs));

        Map<When, Double> cases = new LinkedHashMap<>();
        cases.put(new When(Case.MENTIONED, "return"), 2.0);
        cases.put(When.of(Case.UNMENTIONED), 0.4);
        cases.put(When.of(Case.MENTIONED), 0.05);
        LookupThresholds own = new LookupThresholds(Map.of("s", Map.of("t", cases)));
        assertEquals(2.0, own.get("s", "t", new When(Case.MENTIONED, "return")));
        assertEquals(0.05, own.get("s", "t", exchange));
        assertEquals(0.4, own.get("s", "t", Case.UNMENTIONED));
        // Sorted in the file's order: the kinds, a kind without a verb before its verbs.
        assertEquals(List.of("mentioned", "mentioned:return", "unmentioned"),
                own.values().get("s").get("t").keySet().stream().map(When::wireName).toList());
    }
}
