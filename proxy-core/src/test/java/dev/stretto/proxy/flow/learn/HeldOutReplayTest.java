package dev.stretto.proxy.flow.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.proxy.flow.Progress;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.proxy.flow.learn.sessions.Contracts;
import dev.stretto.proxy.flow.learn.sessions.SessionReader;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.model.LookupThresholds.Case;
import dev.stretto.proxy.flow.model.LookupThresholds.When;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.manifest.Manifest;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The offline replay that tunes thresholds, told apart by case. Twenty shop sessions start at
 * the customer's details (two orders) and read the first order; the ten customers who named the
 * desk lamp find it there, the others go on to the second order. Served again, the flow looks
 * the second order up after the first in every session: used where the first showed nothing the
 * customer named, wasted where it showed the lamp.
 */
class HeldOutReplayTest {

    private static Sessions sessions(Path dir) throws IOException, dev.stretto.proxy.flow.FlowException {
        List<String> opening = Files.readAllLines(ReferenceData.file("home/logs/shop/20260928T020400.548Z-14457.jsonl"),
                StandardCharsets.UTF_8).subList(1, 6);
        for (int i = 0; i < 20; i++) {
            String session = String.format("20261201T12%02d00.000Z-%d", i, 900 + i);
            List<String> lines = new ArrayList<>();
            lines.add("{\"stretto_mcp_log\":2,\"session\":\"" + session + "\",\"started_unix_ms\":" + (1796126400000L
                    + i * 60_000L) + ",\"server_command\":[\"demo\"],\"domain\":\"shop\",\"agent_model\":null}");
            lines.addAll(opening);
            boolean named = i % 2 == 0;
            lines.add("{\"t_ms\":90,\"from\":\"context\",\"message\":{\"role\":\"user\",\"content\":"
                    + TextNode.valueOf("I am user_" + i + (named ? ", cancel the desk lamp I ordered" : ", cancel an order"))
                    + "}}");
            String a = "#W" + i + "a";
            String b = "#W" + i + "b";
            int[] at = {100, 3};
            call(lines, at, "get_user_details", "{\"user_id\":\"user_" + i + "\"}", "{\"orders\":[\"" + a + "\",\"" + b
                    + "\"],\"user_id\":\"user_" + i + "\"}");
            call(lines, at, "get_order_details", "{\"order_id\":\"" + a + "\"}", order(a, named ? "Desk lamp" : "Chair"));
            if (!named) {
                call(lines, at, "get_order_details", "{\"order_id\":\"" + b + "\"}", order(b, "Bookshelf"));
            }
            call(lines, at, "cancel_pending_order", "{\"order_id\":\"" + (named ? a : b) + "\",\"reason\":\"no longer"
                    + " needed\"}", "{\"status\":\"cancelled\"}");
            Files.write(dir.resolve(session + ".jsonl"), lines, StandardCharsets.UTF_8);
        }
        List<SessionLog> logs = SessionReader.read(dir, Progress.NONE);
        return new Sessions(SessionReader.episodes(logs, "shop", Map.of()), FlowManifest.of(Manifest.of(logs, "shop")),
                Contracts.ofLogs(logs));
    }

    private static String order(String id, String item) {
        return "{\"items\":[{\"name\":\"" + item + "\",\"product_id\":\"p1\"}],\"order_id\":\"" + id + "\"}";
    }

    private static void call(List<String> lines, int[] at, String tool, String args, String answer) {
        lines.add("{\"t_ms\":" + at[0] + ",\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":" + at[1]
                + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + args + "}}}");
        lines.add("{\"t_ms\":" + (at[0] + 1) + ",\"from\":\"server\",\"message\":{\"id\":" + at[1] + ",\"jsonrpc\":"
                + "\"2.0\",\"result\":{\"content\":[{\"text\":" + TextNode.valueOf(answer)
                + ",\"type\":\"text\"}],\"isError\":false}}}");
        at[0] += 600;
        at[1]++;
    }

    private static HeldOutReplay replay(Path tmp) throws Exception {
        Sessions s = sessions(tmp);
        Flow flow = new HabitLearner(new LearnOptions(null, "shop", null, Map.of(), false, null,
                new LearnOptions.HabitOnly(), null, false), Progress.NONE, InstantSource.system())
                .learn(s, new HashSet<>(s.tasks()));
        Set<String> writes = Set.of("cancel_pending_order");
        return new HeldOutReplay(flow, s.episodes(), writes);
    }

    private static HeldOutReplay.Tally at(Map<HeldOutReplay.Where, HeldOutReplay.Tally> tallies, String site, String tool,
                                          Case when) {
        return at(tallies, site, tool, When.of(when));
    }

    private static HeldOutReplay.Tally at(Map<HeldOutReplay.Where, HeldOutReplay.Tally> tallies, String site, String tool,
                                          When when) {
        return tallies.get(new HeldOutReplay.Where(site, tool, when));
    }

    /** The customer named the lamp they want cancelled: the order that shows it is a mention said with cancel. */
    private static final When AFTER_CANCEL = new When(Case.AFTER_MENTION, "cancel");

    @Test
    void theSecondOrderIsUsedUnmentionedAndWastedAfterTheOrderThatShowedTheLamp(@TempDir Path tmp) throws Exception {
        Map<HeldOutReplay.Where, HeldOutReplay.Tally> t = replay(tmp).run(Map.of(), 0.3);
        HeldOutReplay.Tally first = at(t, "get_user_details", "get_order_details", Case.UNMENTIONED);
        assertEquals(List.of(20L, 0L), List.of(first.used, first.wasted));
        HeldOutReplay.Tally used = at(t, "get_order_details", "get_order_details", Case.UNMENTIONED);
        assertEquals(List.of(10L, 0L), List.of(used.used, used.wasted));
        assertNull(at(t, "get_order_details", "get_order_details", Case.AFTER_MENTION));
        HeldOutReplay.Tally wasted = at(t, "get_order_details", "get_order_details", AFTER_CANCEL);
        assertEquals(List.of(0L, 10L), List.of(wasted.used, wasted.wasted));
    }

    @Test
    void aLookupSwitchedOffInOneCaseIsStillMadeInTheOthers(@TempDir Path tmp) throws Exception {
        HeldOutReplay r = replay(tmp);
        LookupThresholds off = new LookupThresholds(Map.of("get_order_details", Map.of("get_order_details",
                Map.of(When.of(Case.AFTER_MENTION), 2.0))));
        Map<HeldOutReplay.Where, HeldOutReplay.Tally> t = r.run(Map.of(), 0.3, off);
        // The case said with cancel has no threshold of its own: it takes the case's without the verb.
        assertNull(at(t, "get_order_details", "get_order_details", AFTER_CANCEL));
        HeldOutReplay.Tally used = at(t, "get_order_details", "get_order_details", Case.UNMENTIONED);
        assertEquals(List.of(10L, 0L), List.of(used.used, used.wasted));
        // The same replay without them again: the decisions kept for other thresholds change nothing.
        assertEquals(10L, at(r.run(Map.of(), 0.3), "get_order_details", "get_order_details", AFTER_CANCEL).wasted);
    }
}
