package dev.stretto.proxy.flow.decide;

import static dev.stretto.proxy.flow.FlowTesting.flow;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.model.Flow;
import org.junit.jupiter.api.Test;

/** The decider a flow is served with (formats 3.1), and the start errors. */
class DeciderChoiceTest {

    private static final Flow SHOP = flow("home/shop.flow.json");
    private static final Flow RETAIL5 = flow("retail-5-sessions.flow.json");
    private static final Flow ARBITER = flow("retail-5-sessions-shipped-arbiter.flow.json");

    @Test
    void withoutAnOptionAFlowWithAnArbiterIsServedByItElseByReachWhenItHasTheCountsElseByHabit()
            throws ProxyStartException {
        assertEquals(DeciderKind.ARBITER, DeciderChoice.choose(ARBITER, null, "a.flow.json"));
        assertEquals(DeciderKind.ARBITER, DeciderChoice.choose(ARBITER, DeciderKind.ARBITER, "a.flow.json"));
        assertEquals(DeciderKind.REACH, DeciderChoice.choose(SHOP, null, "shop.flow.json"));
        assertEquals(DeciderKind.HABIT, DeciderChoice.choose(RETAIL5, null, "r5.flow.json"));
        assertEquals(DeciderKind.HABIT, DeciderChoice.choose(SHOP, DeciderKind.HABIT, "shop.flow.json"));
        assertEquals(DeciderKind.HABIT, DeciderChoice.choose(ARBITER, DeciderKind.HABIT, "a.flow.json"));
    }

    @Test
    void askingForADeciderTheFlowCannotServeSaysWhatToUseInstead() {
        assertEquals("the flow shop.flow.json was learned without a System-One model: serve it with --flow-decider reach",
                assertThrows(ProxyStartException.class, () -> DeciderChoice.choose(SHOP, DeciderKind.ARBITER,
                        "shop.flow.json")).getMessage());
        assertEquals("the flow r5.flow.json was learned without a System-One model: serve it with --flow-decider habit",
                assertThrows(ProxyStartException.class, () -> DeciderChoice.choose(RETAIL5, DeciderKind.ARBITER,
                        "r5.flow.json")).getMessage());
        assertEquals("the flow r5.flow.json has no counts for --flow-decider reach: learn it again, or serve it with"
                        + " --flow-decider habit",
                assertThrows(ProxyStartException.class, () -> DeciderChoice.choose(RETAIL5, DeciderKind.REACH,
                        "r5.flow.json")).getMessage());
    }

    @Test
    void theServingLineNamesTheDomainPathDeciderAndShadow() {
        assertEquals("serving the shop flow from /f/shop.flow.json, deciding with reach",
                DeciderChoice.servingLine(SHOP, "/f/shop.flow.json", DeciderKind.REACH, false));
        assertEquals("serving the retail flow from r5.json, deciding with habit, in shadow",
                DeciderChoice.servingLine(RETAIL5, "r5.json", DeciderKind.HABIT, true));
    }

    @Test
    void deciderNamesParseAndUnknownOnesAreRefused() {
        assertEquals(DeciderKind.REACH, DeciderKind.ofWireName("reach"));
        assertEquals("unknown decider 'fast' (arbiter, habit or reach)",
                assertThrows(IllegalArgumentException.class, () -> DeciderKind.ofWireName("fast")).getMessage());
    }
}
