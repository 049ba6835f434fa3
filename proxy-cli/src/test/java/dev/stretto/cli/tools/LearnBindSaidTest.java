package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.console.TestLog;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowView;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto learn --bind-said}: in the generated shop most customers give their order id
 * (in either case) and the agent reads it right after finding the user; the flow learns the
 * shape of those ids ({@code bindings.said}, format 3), {@code flow-show} lists it, and the
 * option works with {@code --lookup-cost}, {@code --per-lookup} and the arbiter paths. How the
 * served flow binds the ids is tested in proxy-core.
 */
class LearnBindSaidTest {

    private static final String SAID = ",\"said\":[[[\"get_order_details\",\"order_id\"],{\"values\":16,\"shapes\":"
            + "[[\"#W9999999\",16]]}]]},\"model\":";

    private static Path shop(Path dir) throws IOException {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        for (int i = 0; i < 20; i++) {
            String session = String.format("20261201T11%02d00.000Z-%d", i, 700 + i);
            String user = "user_" + i;
            String order = String.format("#W%07d", 2_378_100 + i);
            boolean gives = i < 16;
            String says = (gives ? "Cancel my order " + (i % 2 == 0 ? order : order.toLowerCase()) + " please."
                    : "Cancel an order please.") + " My email is on file.";
            TestLog log = TestLog.of(session, 1796122800000L + i * 60_000L, "shop").shopOpening()
                    .said(90, "user", says);
            // Call k at 100 + 600 k ms: each a turn of its own.
            int id = 3;
            log.turn(100 + id * 600L, id++, "find_user_id_by_email", "{\"email\":\"c@example.com\"}", user);
            if (!gives) {
                log.turn(100 + id * 600L, id++, "get_user_details", "{\"user_id\":\"" + user + "\"}", "{\"orders\":[\""
                        + order + "\"],\"user_id\":\"" + user + "\"}");
            }
            log.turn(100 + id * 600L, id++, "get_order_details", "{\"order_id\":\"" + order + "\"}", "{\"order_id\":\""
                    + order + "\",\"status\":\"pending\"}");
            log.turn(100 + id * 600L, id, "cancel_pending_order", "{\"order_id\":\"" + order
                    + "\",\"reason\":\"no longer needed\"}", "{\"status\":\"cancelled\"}");
            log.writeTo(logs.resolve(session + ".jsonl"));
        }
        return logs;
    }

    private static LearnCommandTest.Run learn(Path logs, Path out, String... more) {
        List<String> all = new ArrayList<>(List.of("learn", "--sessions", logs.toString(), "--domain", "shop", "--out",
                out.toString()));
        all.addAll(List.of(more));
        return LearnCommandTest.run(all.toArray(String[]::new));
    }

    @Test
    void theShapeOfTheOrderIdsTheCustomersGaveIsLearnedAndShown(@TempDir Path tmp) throws Exception {
        Path logs = shop(tmp);
        Path out = tmp.resolve("said.flow.json");
        LearnCommandTest.Run r = learn(logs, out, "--habit-only", "--bind-said");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: habit from 20 sessions; 2 sites; bindings of 3 lookups; values the"
                + " customer said for 1 argument\n"), r.err());
        String written = Files.readString(out, StandardCharsets.UTF_8);
        assertTrue(written.startsWith("{\"stretto_flow\":3,"), written);
        assertTrue(written.contains(SAID), written);
        FlowView.Traced order = (FlowView.Traced) FlowView.of(FlowFiles.read(out)).lookups().stream()
                .filter(l -> l.tool().equals("get_order_details")).findFirst().orElseThrow().arguments().getFirst()
                .source();
        assertEquals(List.of(new FlowView.Said("#W9999999", 16, true)), order.said());
        LearnCommandTest.Run show = LearnCommandTest.run("flow-show", out.toString());
        assertTrue(show.out().contains("    order_id: required, in 20 of 20 calls; from get_user_details $.orders[*]"
                + " (4 of 20), the customer's words, shaped #W9999999 (16 of 20)\n"), show.out());

        // Without the option: the same sessions make the flow of today, format 1, no said values.
        Path plain = tmp.resolve("plain.flow.json");
        assertEquals(0, learn(logs, plain, "--habit-only").status());
        String without = Files.readString(plain, StandardCharsets.UTF_8);
        assertTrue(without.startsWith("{\"stretto_flow\":1,") && !without.contains("\"said\""), without);
    }

    @Test
    void itWorksWithTheLookupCostThresholdsPerLookupAndTheArbiterPaths(@TempDir Path tmp) throws Exception {
        Path logs = shop(tmp);
        Path tuned = tmp.resolve("tuned.flow.json");
        LearnCommandTest.Run r = learn(logs, tuned, "--habit-only", "--bind-said", "--lookup-cost", "1", "--per-lookup");
        assertEquals(0, r.status(), r.err());
        String t = Files.readString(tuned, StandardCharsets.UTF_8);
        assertTrue(t.startsWith("{\"stretto_flow\":3,") && t.contains(SAID) && t.contains("\"thresholds\":"), t);

        Path arbiter = tmp.resolve("arbiter.flow.json");
        StrettoTest.Run fit = StrettoTest.run(Map.of("HOME", tmp.toString()), "learn", "--sessions", logs.toString(),
                "--domain", "shop", "--out", arbiter.toString(), "--bind-said", "--oracle", "mock", "--oracle-cache",
                tmp.resolve("cache").toString());
        assertEquals(0, fit.status(), fit.err());
        assertTrue(FlowFiles.read(arbiter).hasArbiter());
        assertEquals(3, FlowView.of(FlowFiles.read(arbiter)).format());

        Path from = tmp.resolve("from.flow.json");
        LearnCommandTest.Run imported = learn(logs, from, "--bind-said", "--arbiter-from", arbiter.toString());
        assertEquals(0, imported.status(), imported.err());
        String f = Files.readString(from, StandardCharsets.UTF_8);
        assertTrue(f.startsWith("{\"stretto_flow\":3,") && f.contains("\"said\":[[[\"get_order_details\""), f);
        assertTrue(FlowFiles.read(from).hasArbiter());
    }

    @Test
    void theHelpNamesTheOption() {
        String help = LearnCommandTest.run("learn", "--help").out();
        assertTrue(help.contains("  --bind-said         also bind lookups to values the customer said"), help);
    }
}
