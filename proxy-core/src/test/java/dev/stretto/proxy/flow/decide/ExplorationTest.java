package dev.stretto.proxy.flow.decide;

import static dev.stretto.proxy.flow.FlowTesting.RETAIL;
import static dev.stretto.proxy.flow.FlowTesting.cutAt;
import static dev.stretto.proxy.flow.FlowTesting.flow;
import static dev.stretto.proxy.flow.FlowTesting.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Exploration draws with fixed seeds, on the retail session after call 6 with retail-5 and the
 * habit decider at threshold 0.7: the rule hands back ({@code get_order_details} at 0.64), and
 * both lookups bind, so both are alternatives. The expected draws were computed independently
 * (splitmix64 seeded with {@code seed ^ fnv1a64(task_id + "/" + content_key)}).
 */
class ExplorationTest {

    private static final Flow RETAIL5 = flow("retail-5-sessions.flow.json");
    private static final EpisodeCut CUT = cutAt(log(RETAIL), "6");
    private static final String TASK = "20260928T020401.312Z-14780";
    private static final double ORDER = 0.6400934855303034;
    private static final double PRODUCT = 0.09527122311941329;

    private static Decision decide(double threshold, double epsilon, long seed) {
        FlowDecider decider = new FlowDecider(RETAIL5, Scorer.habit(RETAIL5), threshold, new Exploration(epsilon, seed), TASK);
        return ((DecisionStep.Decided) decider.decide(CUT, t -> null)).decision();
    }

    @Test
    void seedZeroExploresTheLessLikelyLookupWithItsPropensity() {
        Decision d = decide(0.7, 0.4, 0);
        assertEquals(true, d.lookup());
        assertEquals("get_product_details", d.tool());
        assertEquals("{\"product_id\":\"p1\"}", CanonicalJson.write(d.arguments()));
        assertEquals(PRODUCT, d.prob());
        assertEquals(0.5, d.binding());
        Policy p = d.policy();
        assertEquals(true, p.explored());
        assertNull(p.greedy());
        assertEquals(0.05182257021517998, p.propensity());
        assertEquals("habit", p.decider());
        assertEquals(0.7, p.threshold());
        assertEquals(0.4, p.epsilon());
        assertEquals(TASK, p.taskId());
        assertEquals(9, p.events());
        assertEquals(List.of(
                new Policy.Option("get_order_details", ORDER, ORDER, 0.9, (com.fasterxml.jackson.databind.node.ObjectNode)
                        CanonicalJson.parse("{\"order_id\":\"#W61b\"}"), null),
                new Policy.Option("get_product_details", PRODUCT, PRODUCT, 0.5, (com.fasterxml.jackson.databind.node.ObjectNode)
                        CanonicalJson.parse("{\"product_id\":\"p1\"}"), null)), p.options());
    }

    @Test
    void seedOneExploresTheLikelierLookup() {
        Decision d = decide(0.7, 0.4, 1);
        assertEquals("get_order_details", d.tool());
        assertEquals(0.3481774297848201, d.policy().propensity());
        assertEquals(true, d.policy().explored());
    }

    @Test
    void seedTwoKeepsTheRulesHandBackWithOneMinusEpsilon() {
        Decision d = decide(0.7, 0.4, 2);
        assertEquals("get_order_details at 0.64, below 0.7", d.reason());
        assertEquals(false, d.policy().explored());
        assertEquals(0.6, d.policy().propensity());
    }

    @Test
    void theRulesPickIsNoAlternative() {
        // At 0.3 the rule looks up get_order_details; the only alternative left is the product.
        Decision explored = decide(0.3, 0.4, 0);
        assertEquals("get_product_details", explored.tool());
        assertEquals("get_order_details", explored.policy().greedy());
        assertEquals(0.4, explored.policy().propensity());
    }

    @Test
    void epsilonZeroChangesNothingAndLogsPropensityOne() {
        Decision d = decide(0.3, 0.0, 0);
        assertEquals("get_order_details", d.tool());
        assertEquals(false, d.policy().explored());
        assertEquals(1.0, d.policy().propensity());
    }

    @Test
    void withoutAlternativesThePropensityIsOne() {
        Flow retail5 = RETAIL5;
        FlowDecider decider = new FlowDecider(retail5, Scorer.habit(retail5), 0.3, new Exploration(0.9, 0), TASK);
        Decision d = ((DecisionStep.Decided) decider.decide(cutAt(log(RETAIL), "5"), t -> null)).decision();
        assertEquals("get_order_details", d.tool());
        assertEquals(1.0, d.policy().propensity());
    }

    @Test
    void anEpsilonOutsideZeroToOneIsRefused() {
        assertEquals("--flow-explore takes a number from 0 to 1, not 1.5",
                assertThrows(IllegalArgumentException.class, () -> new Exploration(1.5, 0)).getMessage());
    }
}
