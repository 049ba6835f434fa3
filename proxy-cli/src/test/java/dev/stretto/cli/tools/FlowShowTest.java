package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto flow-show}: flows as people read them. */
class FlowShowTest {

    private static StrettoTest.Run run(String... args) {
        return StrettoTest.run(false, args);
    }

    @Test
    void theShopFlowShowsItsSitesLookupsBindingsAndChances() {
        Path flow = Fixtures.file("home/shop.flow.json");
        StrettoTest.Run r = run("flow-show", flow.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(String.join("\n",
                "The shop flow (" + flow + ", format 1)",
                "  learned by stretto 0.1.0 on 2026-09-28 02:04:01 UTC from 6 successful sessions (sources: quickstart)",
                "",
                "Tools (only read tools are ever looked up)",
                "  cancel_pending_order            write    (order_id:string!, reason:string!)",
                "  find_user_id_by_email           read     (email:string!)",
                "  get_order_details               read     (order_id:string!)",
                "  get_user_details                read     (user_id:string!)",
                "",
                "Sites: after each call, the lookups that followed it in training (the flow offers these, or hands"
                        + " back)",
                "  find_user_id_by_email           get_user_details \u00d76",
                "  get_order_details               get_order_details \u00d76",
                "  get_user_details                get_order_details \u00d76",
                "",
                "Lookups and their arguments",
                "  find_user_id_by_email (6 calls in training)",
                "    email: required, in 6 of 6 calls; found in no earlier result, so the agent supplies it (the flow"
                        + " never looks this up)",
                "  get_order_details (12 calls in training)",
                "    order_id: required, in 12 of 12 calls; from get_user_details $.orders[*] (12 of 12)",
                "    the binding matched the agent 12 of 12 (chance 0.93) when the customer had not named the value,"
                        + " 0 of 0 (chance 0.50) when they had",
                "  get_user_details (6 calls in training)",
                "    user_id: required, in 6 of 6 calls; from find_user_id_by_email $ (6 of 6)",
                "    the binding matched the agent 6 of 6 (chance 0.88) when the customer had not named the value,"
                        + " 0 of 0 (chance 0.50) when they had",
                "",
                "Deciding: with reach unless --flow-decider says otherwise",
                "  threshold: --flow-threshold at every site (0.3 by default)",
                "",
                "Arbiter: none (learned without a System-One model)",
                "",
                "Promotion: none (the flow acts after every call)",
                ""), r.out());
    }

    @Test
    void anArbiterShowsItsModelPredicatesAndTheRatesOfItsIdenticalFolds() {
        StrettoTest.Run r = run("flow-show", Fixtures.file("retail-5-sessions-shipped-arbiter.flow.json").toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("\nDeciding: with arbiter unless --flow-decider says otherwise (no reach counts, so"
                + " not with reach)\n"), r.out());
        assertTrue(r.out().contains("\nArbiter: asks jev-latest; fitted on 4513 held-out decisions\n"
                + "  predicate list_pending, a yes favors the lookup just made, again: Is the agent working through a"
                + " list of records one lookup at a time"), r.out());
        assertTrue(r.out().contains("\n  5 identical folds: agreed with the agent 75%, its choice offered 99%;"
                + " weights [0.272, 0.167, 0.345, 0.231, 0.934, 0.256, 0.303, 0.323]\n"), r.out());
        assertTrue(r.out().contains("\n    get_order_details                       1618 decisions, agreed 71%, offered"
                + " 100%\n"), r.out());
        assertTrue(r.out().contains("\n  get_order_details               get_order_details \u00d76, get_product_details"
                + " \u00d72\n"), r.out());
        assertTrue(r.out().contains("user_id: required, in 3 of 3 calls; from find_user_id_by_email $ (2 of 3),"
                + " get_order_details $.user_id (1 of 3, too few to use)"), r.out());
    }

    @Test
    void aPromotedFlowShowsItsBarAndEachSitesRecord(@TempDir Path tmp) throws Exception {
        // The shop flow with a promotion record, as the file holds one.
        ObjectNode shop = (ObjectNode) CanonicalJson.parse(Files.readString(Fixtures.file("home/shop.flow.json")));
        shop.set("promoted", CanonicalJson.parse("{\"bar\":{\"threshold\":0.3,\"min_used\":0.7,\"min_lower\":0.5,"
                + "\"min_tasks\":3},\"sites\":{\"get_user_details\":{\"decisions\":12,\"lookups\":12,\"used\":12,"
                + "\"tasks\":6,\"lower\":0.816,\"promoted\":true},\"get_order_details\":{\"decisions\":39,\"lookups\":18,"
                + "\"used\":9,\"tasks\":6,\"lower\":0.31,\"promoted\":false}}}"));
        Path file = tmp.resolve("promoted.flow.json");
        FlowFiles.write(FlowFiles.parse(CanonicalJson.write(shop)), file);
        StrettoTest.Run r = run("flow-show", file.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().endsWith("\nPromotion: acts only after calls at promoted sites. The bar: lookups used at"
                + " least 70%, Wilson lower bound at least 0.5, from at least 3 tasks, at threshold 0.3\n"
                + "  get_order_details               not promoted  9 of 18 lookups used, 39 decisions, 6 tasks, lower"
                + " bound 0.31\n"
                + "  get_user_details                promoted  12 of 12 lookups used, 12 decisions, 6 tasks, lower"
                + " bound 0.82\n"), r.out());
    }

    @Test
    void aFileThatIsNotAFlowIsNamedWithTheReason(@TempDir Path tmp) throws Exception {
        Path notFlow = Files.writeString(tmp.resolve("x.json"), "{\"stretto_flow\":4}");
        StrettoTest.Run r = run("flow-show", notFlow.toString());
        assertEquals(1, r.status());
        assertEquals("stretto: " + notFlow + ": flow format 4 is not supported (this build reads 1 to 3)\n", r.err());
        StrettoTest.Run none = run("flow-show");
        assertEquals(2, none.status());
        assertEquals("stretto: flow-show: no FLOW given (see 'stretto flow-show --help')\n", none.err());
        StrettoTest.Run help = run("flow-show", "--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: stretto flow-show FLOW\n"));
    }
}
