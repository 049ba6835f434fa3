package dev.stretto.proxy.flow.run;

import static dev.stretto.proxy.flow.FlowTesting.RETAIL;
import static dev.stretto.proxy.flow.FlowTesting.flow;
import static dev.stretto.proxy.flow.FlowTesting.log;
import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.log.SessionLog;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The format-1 flows retail-5-sessions and retail-10-sessions (no reach counts, so the habit
 * decider serves them) deciding after each call of the retail session, in shadow mode. The
 * probabilities were computed independently from the flows' counts (the habit with its group
 * layer, the habit prior).
 */
class HabitFlowsTest {

    private static final SessionLog SESSION = log(RETAIL);

    private static List<String> shadowLines(Flow flow) throws ProxyStartException {
        List<String> lines = new ArrayList<>();
        FlowOptions shadow = new FlowOptions(0.3, null, 8, 40, 300, null, true, null, null);
        FlowSession session = FlowSession.start(flow, "f", shadow, SESSION.session(), lines::add,
                w -> { throw new AssertionError(w); }, () -> 0L);
        assertEquals(DeciderKind.HABIT, session.decider());
        assertEquals(0, new LogReplay(SESSION, session).run());
        return lines;
    }

    private static String decision(int after, String body) {
        return "{\"action\":" + body.replace("@", "\"address\":\"decide#0\",\"after\":" + after + ",");
    }

    private static String handedBack(int after, boolean failed, String call) {
        return "{\"after\":" + after + ",\"run\":{\"call\":\"" + call + "\",\"failed\":" + failed
                + ",\"max_lookups\":8,\"sites\":[[\"decide#0\",0,0.0]],\"surprise\":-0.0}}";
    }

    @Test
    void retailFiveSessionsLooksUpOrdersButNotTheUserAfterTheEmail() throws ProxyStartException {
        assertEquals(List.of(
                decision(3, "\"hand_back\",@\"binding\":null,\"key\":null,\"ms\":0,\"oracle\":{},\"predicates\":{},"
                        + "\"prob\":null,\"probs\":{},\"reason\":\"no lookups followed here in training\","
                        + "\"shadow\":true,\"site\":\"find_user_id_by_email (error)\"}"),
                handedBack(3, true, "find_user_id_by_email"),
                decision(4, "\"hand_back\",@\"binding\":null,\"key\":null,\"ms\":0,\"oracle\":{},\"predicates\":{},"
                        + "\"prob\":0.25266646721134445,\"probs\":{\"get_user_details\":0.25266646721134445,"
                        + "\"respond\":0.7473335327886556},\"reason\":\"get_user_details at 0.25, below 0.3\","
                        + "\"shadow\":true,\"site\":\"find_user_id_by_email\"}"),
                handedBack(4, false, "find_user_id_by_email"),
                decision(5, "\"lookup\",@\"arguments\":{\"order_id\":\"#W61a\"},\"binding\":0.9,\"key\":null,"
                        + "\"ms\":0,\"oracle\":{},\"predicates\":{},\"prob\":0.560370098226466,"
                        + "\"probs\":{\"get_order_details\":0.560370098226466,\"respond\":0.439629901773534},"
                        + "\"shadow\":true,\"site\":\"get_user_details\",\"tool\":\"get_order_details\"}"),
                handedBack(5, false, "get_user_details"),
                decision(6, "\"lookup\",@\"arguments\":{\"order_id\":\"#W61b\"},\"binding\":0.9,\"key\":null,"
                        + "\"ms\":0,\"oracle\":{},\"predicates\":{},\"prob\":0.6400934855303034,"
                        + "\"probs\":{\"get_order_details\":0.6400934855303034,"
                        + "\"get_product_details\":0.09527122311941329,\"respond\":0.2646352913502833},"
                        + "\"shadow\":true,\"site\":\"get_order_details\",\"tool\":\"get_order_details\"}"),
                handedBack(6, false, "get_order_details"),
                decision(7, "\"hand_back\",@\"binding\":null,\"key\":null,\"ms\":0,\"oracle\":{},\"predicates\":{},"
                        + "\"prob\":null,\"probs\":{},\"reason\":\"no lookups followed here in training\","
                        + "\"shadow\":true,\"site\":\"cancel_pending_order\"}"),
                handedBack(7, false, "cancel_pending_order")),
                shadowLines(flow("retail-5-sessions.flow.json")));
    }

    @Test
    void retailTenSessionsAlsoLooksUpTheUser() throws ProxyStartException {
        List<String> lines = shadowLines(flow("retail-10-sessions.flow.json"));
        assertEquals(10, lines.size());
        assertEquals(decision(4, "\"lookup\",@\"arguments\":{\"user_id\":\"user_61\"},\"binding\":0.9,\"key\":null,"
                + "\"ms\":0,\"oracle\":{},\"predicates\":{},\"prob\":0.4153996537791144,"
                + "\"probs\":{\"get_user_details\":0.4153996537791144,\"respond\":0.5846003462208855},"
                + "\"shadow\":true,\"site\":\"find_user_id_by_email\",\"tool\":\"get_user_details\"}"), lines.get(2));
        assertEquals(decision(5, "\"lookup\",@\"arguments\":{\"order_id\":\"#W61a\"},\"binding\":0.9655172413793104,"
                + "\"key\":null,\"ms\":0,\"oracle\":{},\"predicates\":{},\"prob\":0.8348391095510218,"
                + "\"probs\":{\"get_order_details\":0.8348391095510218,\"respond\":0.1651608904489782},"
                + "\"shadow\":true,\"site\":\"get_user_details\",\"tool\":\"get_order_details\"}"), lines.get(4));
        assertEquals(decision(6, "\"lookup\",@\"arguments\":{\"order_id\":\"#W61b\"},\"binding\":0.9655172413793104,"
                + "\"key\":null,\"ms\":0,\"oracle\":{},\"predicates\":{},\"prob\":0.9090328906353874,"
                + "\"probs\":{\"get_order_details\":0.9090328906353874,\"get_product_details\":0.024135538934617992,"
                + "\"respond\":0.06683157042999466},\"shadow\":true,\"site\":\"get_order_details\","
                + "\"tool\":\"get_order_details\"}"), lines.get(6));
        assertEquals(handedBack(6, false, "get_order_details"), lines.get(7));
        assertEquals(true, lines.get(0).contains("\"reason\":\"no lookups followed here in training\""));
        assertEquals(true, lines.get(8).contains("\"site\":\"cancel_pending_order\""));
    }
}
