package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.console.TestLog;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowView;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto learn --habit-only --lookup-cost C}: each site's threshold learned from flows
 * served again on held-out sessions. In the generated shop every agent finds the customer, and
 * half of them go on to read the customer's details and first order, the others cancel at
 * once: after finding the customer, the flow's lookup of the details is used half the time,
 * worth it when a wasted lookup costs less than a turn saved.
 */
class LearnLookupCostTest {

    /** Twenty sessions: the agent finds customer i, reads their details and first order when i is even, and cancels it. */
    private static Path shop(Path dir) throws IOException {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        for (int i = 0; i < 20; i++) {
            String session = String.format("20261201T10%02d00.000Z-%d", i, 500 + i);
            TestLog log = TestLog.of(session, 1796119200000L + i * 60_000L, "shop").shopOpening();
            String user = "user_" + i;
            String a = "#W" + i + "a";
            String b = "#W" + i + "b";
            // Each call 600 ms after the one before: a turn of its own.
            long t = 100;
            int id = 3;
            log.turn(t, id++, "find_user_id_by_email", "{\"email\":\"c" + i + "@example.com\"}", user);
            if (i % 2 == 0) {
                log.turn(t += 600, id++, "get_user_details", "{\"user_id\":\"" + user + "\"}", "{\"email\":\"c" + i
                        + "@example.com\",\"orders\":[\"" + a + "\",\"" + b + "\"],\"user_id\":\"" + user + "\"}");
                log.turn(t += 600, id++, "get_order_details", "{\"order_id\":\"" + a + "\"}", order(a, user));
            }
            log.turn(t += 600, id, "cancel_pending_order", "{\"order_id\":\"" + a + "\",\"reason\":\"no longer needed\"}",
                    "{\"order_id\":\"" + a + "\",\"status\":\"cancelled\"}");
            log.writeTo(logs.resolve(session + ".jsonl"));
        }
        return logs;
    }

    private static String order(String id, String user) {
        return "{\"items\":[{\"item_id\":\"1\",\"name\":\"Desk lamp\",\"product_id\":\"p1\"}],\"order_id\":\"" + id
                + "\",\"status\":\"pending\",\"user_id\":\"" + user + "\"}";
    }

    private static FlowView learn(Path logs, Path out, String cost, int sites) throws Exception {
        LearnCommandTest.Run r = LearnCommandTest.run("learn", "--sessions", logs.toString(), "--domain", "shop",
                "--out", out.toString(), "--habit-only", "--lookup-cost", cost);
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: thresholds of " + sites + " sites, a wasted lookup costing " + cost
                + " turns saved, from the flows of 5 folds served on the others: "), r.err());
        return FlowView.of(FlowFiles.read(out));
    }

    @Test
    void aSiteWhoseLookupIsUsedHalfTheTimeKeepsItWhenAWasteCostsLessThanATurnAndIsSwitchedOffWhenMore(
            @TempDir Path tmp) throws Exception {
        Path logs = shop(tmp);
        FlowView cheap = learn(logs, tmp.resolve("cheap.flow.json"), "0.5", 2);
        FlowView dear = learn(logs, tmp.resolve("dear.flow.json"), "2", 2);
        assertEquals(2, cheap.format());
        assertEquals(2, dear.format());
        assertEquals(0.3, cheap.deciding().thresholds().get("find_user_id_by_email"));
        // Switched off: any threshold above 1.
        assertEquals(2.0, dear.deciding().thresholds().get("find_user_id_by_email"));
        // After the details, the first order: always used, so the default stays (lower ones make the same lookups).
        assertEquals(0.3, cheap.deciding().thresholds().get("get_user_details"));
        FlowView plain = learnPlain(logs, tmp.resolve("plain.flow.json"));
        assertEquals(Map.of(), plain.deciding().thresholds());
        assertEquals(1, plain.format());
    }

    private static FlowView learnPlain(Path logs, Path out) throws Exception {
        LearnCommandTest.Run r = LearnCommandTest.run("learn", "--sessions", logs.toString(), "--domain", "shop",
                "--out", out.toString(), "--habit-only");
        assertEquals(0, r.status(), r.err());
        return FlowView.of(FlowFiles.read(out));
    }

    @Test
    void theSixShopSessionsGetThresholdsAndTheRestOfTheReferencesFlow(@TempDir Path tmp) throws Exception {
        Path out = tmp.resolve("shop.flow.json");
        LearnCommandTest.Run r = LearnCommandTest.run("learn", "--sessions", Fixtures.file("home/logs/shop").toString(),
                "--domain", "shop", "--out", out.toString(), "--habit-only", "--lookup-cost", "1");
        assertEquals(0, r.status(), r.err());
        // Every lookup of the six sessions' flows is used in the others: nothing to change.
        assertTrue(r.err().contains("stretto: thresholds of 3 sites, a wasted lookup costing 1 turns saved, from the"
                + " flows of 5 folds served on the others: 18 lookups the agent made and 0 it did not (at the default"
                + " threshold 18 and 0)\n"), r.err());
        FlowView tuned = FlowView.of(FlowFiles.read(out));
        FlowView reference = FlowView.of(FlowFiles.read(Fixtures.file("home/shop.flow.json")));
        assertEquals(reference.tools(), tuned.tools());
        assertEquals(reference.sites(), tuned.sites());
        assertEquals(reference.lookups(), tuned.lookups());
        assertEquals(Map.of("find_user_id_by_email", 0.3, "get_order_details", 0.3, "get_user_details", 0.3),
                tuned.deciding().thresholds());
        // The rest of the file is the reference's: what was written without the thresholds is its text.
        String written = Files.readString(out, StandardCharsets.UTF_8);
        String expected = Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8);
        String withoutThresholds = written.replaceFirst(",\"thresholds\":\\{[^}]*\\}", "")
                .replaceFirst("\"stretto_flow\":2", "\"stretto_flow\":1")
                .replaceFirst("\"compiled_unix_ms\":\\d+", "\"compiled_unix_ms\":0");
        assertEquals(expected.replaceFirst("\"compiled_unix_ms\":\\d+", "\"compiled_unix_ms\":0"), withoutThresholds);
    }

    @Test
    void theCostIsANumberAboveZeroAndOnlyForHabitOnlyFlows(@TempDir Path tmp) {
        String dir = Fixtures.file("home/logs/shop").toString();
        String out = tmp.resolve("f.json").toString();
        String[] base = {"learn", "--sessions", dir, "--domain", "shop", "--out", out};
        LearnCommandTest.assertUsage("--lookup-cost must be a number above 0", LearnCommandTest.with(base, "--habit-only", "--lookup-cost", "0"));
        LearnCommandTest.assertUsage("--lookup-cost takes a number of turns, not 'much'", LearnCommandTest.with(base, "--habit-only", "--lookup-cost",
                "much"));
        LearnCommandTest.assertUsage("--lookup-cost learns the thresholds of the reach decider, which serves flows without an"
                + " arbiter: use it with --habit-only", LearnCommandTest.with(base, "--lookup-cost", "1"));
        LearnCommandTest.assertUsage("--lookup-cost learns the thresholds of the reach decider, which serves flows without an"
                + " arbiter: use it with --habit-only", LearnCommandTest.with(base, "--arbiter-from", "a.json", "--lookup-cost", "1"));
        assertTrue(Files.notExists(tmp.resolve("f.json")));
        assertTrue(LearnCommandTest.run("learn", "--help").out().contains("--lookup-cost C"));
    }
}
