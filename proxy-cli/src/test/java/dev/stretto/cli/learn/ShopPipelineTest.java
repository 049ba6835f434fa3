package dev.stretto.cli.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.learn.bindings.SourceRef;
import dev.stretto.cli.learn.bindings.ToolArg;
import dev.stretto.cli.learn.habit.History;
import dev.stretto.trace.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The pipeline's pieces on the reference's six shop sessions, against its shop.flow.json. */
class ShopPipelineTest {

    private static LearnedFlow flow;
    private static String said;

    @BeforeAll
    static void learnOnce() throws Exception {
        Path dir = Fixtures.file("home/logs/shop");
        LearnOptions options = new LearnOptions(dir, "shop", Path.of("unused"), null, null, false, null);
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        flow = new FlowLearner(options, new Progress(new PrintStream(err, true, StandardCharsets.UTF_8), false)).learn();
        said = err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void noCodeFeatureGainsEnoughOnSoFewSessions() {
        // stretto-learn 3.5: four candidates, the best gains -5.36 nats.
        assertTrue(said.contains("stretto: code features: 4 candidates, none chosen (the best gains -5.36 nats, less than 5)"),
                said);
    }

    @Test
    void alphaIsTheReferencesToTheLastBit() {
        assertEquals(0.6973960072663901, flow.alpha());
    }

    @Test
    void vocabListsRespondThenTheToolsSorted() {
        assertEquals(List.of("cancel_pending_order", "find_user_id_by_email", "get_order_details", "get_user_details"),
                flow.vocab().tools());
        assertEquals(6, flow.vocab().modelSize());
    }

    @Test
    void sixSessionsOfQuickstartTrainTheHabit() {
        assertEquals(List.of("quickstart"), flow.sources());
        assertEquals(6, flow.habitEpisodes());
    }

    @Test
    void theMapIsEmpty() {
        assertTrue(flow.map().isEmpty());
    }

    @Test
    void reachCountsWhatFollowsBeforeTheNextWrite() {
        var top = flow.reach().at(History.of());
        assertEquals(Map.of(0, 34.0, 2, 6.0, 3, 24.0, 4, 12.0), top.byAction());
        assertEquals(38.0, top.total());
        assertEquals(Map.of(), flow.reach().at(History.of(8192)).byAction());
    }

    @Test
    void sitesOfferTheLookupsThatFollowed() {
        assertEquals(List.of("find_user_id_by_email", "get_order_details", "get_user_details"), flow.sites().reads());
        assertEquals(Map.of(new Sites.Site("find_user_id_by_email", false), Map.of("get_user_details", 6L),
                        new Sites.Site("get_order_details", false), Map.of("get_order_details", 6L),
                        new Sites.Site("get_user_details", false), Map.of("get_order_details", 6L)),
                flow.sites().next());
    }

    @Test
    void bindingsTraceOrderIdsToTheUsersOrders() {
        var b = flow.bindings();
        assertEquals(12, b.args().get("get_order_details").calls());
        assertEquals(Map.of("order_id", 12L), b.args().get("get_order_details").passed());
        assertEquals(Map.of(new SourceRef("get_user_details", "$.orders[*]"), 12L),
                b.sources().get(new ToolArg("get_order_details", "order_id")).found());
        assertEquals(Map.of(new SourceRef("find_user_id_by_email", "$"), 6L),
                b.sources().get(new ToolArg("get_user_details", "user_id")).found());
        assertEquals(Map.of(), b.sources().get(new ToolArg("find_user_id_by_email", "email")).found());
        assertTrue(b.siteSources().isEmpty() && b.lists().isEmpty() && b.bare().isEmpty() && b.constants().isEmpty());
    }

    @Test
    void contractsAndDocsComeFromTheToolLists() {
        assertEquals("order_id:string!, reason:string!", flow.contracts().get("cancel_pending_order"));
        assertEquals("Get the status and details of an order.",
                flow.manifest().docs().get("get_order_details").summary());
    }
}
