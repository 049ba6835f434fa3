package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.DoubleNode;
import dev.stretto.cli.console.TestLog;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowView;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto learn --habit-only --lookup-cost C --per-lookup}: thresholds of single lookups
 * by what the customer said. In the generated shop every agent finds the customer, reads the
 * details and the first order. A customer who named the desk lamp finds it in that order,
 * and the agent cancels it; the others said nothing of it, and the agent reads the second
 * order too. Replayed with every call the agent made, the flow's lookup of the second order
 * is used half the time after an order; where it is wasted the order just read showed what
 * the customer named (the case {@code after_mention}), but the agent reading the details
 * again then has the flow look the second order up all the same, at the details, where it is
 * used in the other sessions: no threshold of a single lookup saves more than the sites', so
 * the flow is the one {@code --lookup-cost} learns. Which cases the replays tell apart, and
 * how the served flow decides by them, is tested in proxy-core.
 */
class LearnPerLookupTest {

    /**
     * The shop's sessions; {@code clean}: each starts at the details (the customer gave the
     * user id), so no call of the agent reads again what the flow looked up before the orders.
     */
    private static Path shop(Path dir, boolean clean) throws IOException {
        Path logs = Files.createDirectories(dir.resolve(clean ? "clean" : "logs"));
        for (int i = 0; i < 20; i++) {
            String session = String.format("20261201T11%02d00.000Z-%d", i, 700 + i);
            boolean named = i % 2 == 0;
            String says = "I am c" + i + "@example.com" + (named ? " and I want to cancel the desk lamp I ordered"
                    : " and I want to cancel an order");
            TestLog log = TestLog.of(session, 1796122800000L + i * 60_000L, "shop").shopOpening()
                    .said(90, "user", says);
            String user = "user_" + i;
            String a = "#W" + i + "a";
            String b = "#W" + i + "b";
            // Each call 600 ms after the one before: a turn of its own.
            long t = 100;
            int id = 3;
            if (!clean) {
                log.turn(t, id++, "find_user_id_by_email", "{\"email\":\"c" + i + "@example.com\"}", user);
                t += 600;
            }
            log.turn(t, id++, "get_user_details", "{\"user_id\":\"" + user + "\"}", "{\"email\":\"c" + i
                    + "@example.com\",\"orders\":[\"" + a + "\",\"" + b + "\"],\"user_id\":\"" + user + "\"}");
            log.turn(t += 600, id++, "get_order_details", "{\"order_id\":\"" + a + "\"}", order(a, user,
                    named ? "Desk lamp" : "Office chair"));
            if (!named) {
                log.turn(t += 600, id++, "get_order_details", "{\"order_id\":\"" + b + "\"}", order(b, user, "Bookshelf"));
            }
            String cancelled = named ? a : b;
            log.turn(t += 600, id, "cancel_pending_order", "{\"order_id\":\"" + cancelled
                    + "\",\"reason\":\"no longer needed\"}", "{\"order_id\":\"" + cancelled
                    + "\",\"status\":\"cancelled\"}");
            log.writeTo(logs.resolve(session + ".jsonl"));
        }
        return logs;
    }

    private static String order(String id, String user, String item) {
        return "{\"items\":[{\"item_id\":\"1\",\"name\":\"" + item + "\",\"product_id\":\"p1\"}],\"order_id\":\"" + id
                + "\",\"status\":\"pending\",\"user_id\":\"" + user + "\"}";
    }

    @Test
    void withNoSingleLookupToGainTheFlowIsTheOneOfTheSitesThresholds(@TempDir Path tmp)
            throws Exception {
        Path logs = shop(tmp, false);
        Path out = tmp.resolve("shop.flow.json");
        LearnCommandTest.Run r = LearnCommandTest.run("learn", "--sessions", logs.toString(), "--domain", "shop",
                "--out", out.toString(), "--habit-only", "--lookup-cost", "1", "--per-lookup");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: thresholds of 3 sites and 0 of single lookups, a wasted lookup costing 1"
                + " turns saved, from the flows of 5 folds served on the others: 50 lookups the agent made and 10 it did"
                + " not (at the default threshold 50 and 10)\n"), r.err());
        String written = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(written.startsWith("{\"stretto_flow\":2,"), written);
        assertFalse(written.contains("lookup_thresholds"));
        FlowView view = FlowView.of(FlowFiles.read(out));
        assertEquals(2, view.format());
        assertEquals(List.of(), view.deciding().lookups());

        Path sites = tmp.resolve("sites.flow.json");
        LearnCommandTest.Run plain = LearnCommandTest.run("learn", "--sessions", logs.toString(), "--domain", "shop",
                "--out", sites.toString(), "--habit-only", "--lookup-cost", "1");
        assertEquals(0, plain.status(), plain.err());
        String siteOnly = Files.readString(sites, StandardCharsets.UTF_8);
        assertTrue(siteOnly.startsWith("{\"stretto_flow\":2,"), siteOnly);
        assertFalse(siteOnly.contains("lookup_thresholds"));
        assertEquals(siteOnly.replaceFirst("\"compiled_unix_ms\":\\d+", ""),
                written.replaceFirst("\"compiled_unix_ms\":\\d+", ""));
    }

    @Test
    void theNextOrderGetsAThresholdOfItsOwnAfterAnOrderThatShowedWhatTheCustomerNamed(@TempDir Path tmp)
            throws Exception {
        Path logs = shop(tmp, true);
        Path out = tmp.resolve("shop.flow.json");
        LearnCommandTest.Run r = LearnCommandTest.run("learn", "--sessions", logs.toString(), "--domain", "shop",
                "--out", out.toString(), "--habit-only", "--lookup-cost", "1", "--per-lookup");
        assertEquals(0, r.status(), r.err());
        // At the default threshold the second order is looked up in all 20 sessions, wasted in the 10 that
        // named the lamp; by case, only where it is used.
        assertTrue(r.err().contains("stretto: thresholds of 2 sites and 1 of single lookups, a wasted lookup costing 1"
                + " turns saved, from the flows of 5 folds served on the others: 30 lookups the agent made and 0 it did"
                + " not (at the default threshold 30 and 10)\n"), r.err());
        String written = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(written.startsWith("{\"stretto_flow\":3,"), written);
        FlowView view = FlowView.of(FlowFiles.read(out));
        assertEquals(3, view.format());
        assertEquals(1, view.deciding().lookups().size());
        FlowView.LookupThreshold own = view.deciding().lookups().getFirst();
        // The customer asked to cancel the lamp: the mention just found is said with the verb of cancel_pending_order.
        assertEquals(List.of("get_order_details", "get_order_details", "after_mention:cancel"),
                List.of(own.site(), own.tool(), own.when()));
        assertTrue(own.threshold() > 0.3, own.toString());
        assertTrue(written.endsWith(",\"lookup_thresholds\":{\"get_order_details\":{\"get_order_details\":"
                + "{\"after_mention:cancel\":" + DoubleNode.valueOf(own.threshold())
                + "}}}}"), written);
        // The site's threshold, tuned first, stays: the lookup is worth it as often as not.
        assertEquals(0.3, view.deciding().thresholds().get("get_order_details"));
        LearnCommandTest.Run show = LearnCommandTest.run("flow-show", out.toString());
        assertTrue(show.out().contains("  get_order_details → get_order_details, after_mention:cancel"), show.out());
    }

    @Test
    void perLookupNeedsTheLookupCost(@TempDir Path tmp) {
        String[] base = {"learn", "--sessions", Fixtures.file("home/logs/shop").toString(), "--domain", "shop", "--out",
                tmp.resolve("f.json").toString()};
        LearnCommandTest.assertUsage("--per-lookup tunes thresholds by the cost of a wasted lookup: give --lookup-cost"
                + " C", LearnCommandTest.with(base, "--habit-only", "--per-lookup"));
        assertTrue(Files.notExists(tmp.resolve("f.json")));
        assertTrue(LearnCommandTest.run("learn", "--help").out().contains("--per-lookup"));
    }
}
