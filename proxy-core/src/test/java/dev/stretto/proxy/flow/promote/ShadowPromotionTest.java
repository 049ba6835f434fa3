package dev.stretto.proxy.flow.promote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Promotion;
import dev.stretto.proxy.flow.PromotionResult;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Promotion through the API on the six shop sessions recorded in shadow ({@link
 * ShadowRecording}): from their directory and from memory alike, with both scorings, and the
 * Wilson lower bound the bar holds sites to.
 */
class ShadowPromotionTest {

    private static final Path SHOP_FLOW = Fixtures.file("home/shop.flow.json");

    private static Path shadow(Path tmp) throws Exception {
        List<Path> logs;
        try (var files = Files.list(Fixtures.file("home/logs/shop"))) {
            logs = files.sorted().toList();
        }
        Path dir = tmp.resolve("shadow");
        ShadowRecording.write(dev.stretto.proxy.flow.model.Flow.of(FlowFiles.read(SHOP_FLOW)), logs, dir);
        return dir;
    }

    private static Promoted.SiteScore site(long decisions, long lookups, long used, long tasks) {
        double lower = Promoted.lowerBound(used, lookups);
        return new Promoted.SiteScore(decisions, lookups, used, tasks, lower,
                lookups > 0 && (double) used / lookups >= 0.7 && lower >= 0.5 && tasks >= 3);
    }

    @Test
    void theShadowSessionsPromoteTheSitesWhereTheAgentMadeTheLookupsItself(@TempDir Path tmp) throws Exception {
        Path dir = shadow(tmp);
        PromotionResult chained = Promotion.of(FlowFiles.read(SHOP_FLOW)).sessionsIn(dir).promote();
        assertEquals(DeciderKind.REACH, chained.decider());
        assertEquals(6, chained.sessions());
        assertEquals(0, chained.unanswered());
        assertEquals(new Promoted(new Promoted.Bar(0.3, 0.7, 0.5, 3), Map.of(
                "cancel_pending_order", site(4, 0, 0, 0),
                "find_user_id_by_email", site(6, 6, 6, 6),
                "get_order_details", site(39, 18, 15, 6),
                "get_user_details", site(12, 12, 12, 6))), chained.promoted());
        assertTrue(chained.promoted().promotes("get_user_details"));

        List<SessionLog> inMemory = new ArrayList<>();
        for (Path f : SessionLog.logFiles(dir)) {
            inMemory.add(SessionLog.read(f));
        }
        PromotionResult single = Promotion.of(FlowFiles.read(SHOP_FLOW)).sessions(inMemory)
                .scoring(Promotion.Scoring.SINGLE_PASS).promote();
        assertEquals(1, single.passes());
        assertEquals(Map.of(
                "cancel_pending_order", site(4, 0, 0, 0),
                "find_user_id_by_email", site(6, 6, 6, 6),
                "get_order_details", site(12, 6, 6, 6),
                "get_user_details", site(6, 6, 6, 6)), single.promoted().sites());
    }

    @Test
    void theShadowRunsLoggedOneShadowDecisionPerAgentCall(@TempDir Path tmp) throws Exception {
        Path dir = tmp.resolve("c1");
        ShadowRecording.write(dev.stretto.proxy.flow.model.Flow.of(FlowFiles.read(SHOP_FLOW)),
                List.of(Fixtures.file("home/logs/shop/20260928T020400.548Z-14457.jsonl")), dir);
        List<String> lines = Files.readAllLines(dir.resolve("20260928T020400.548Z-14457.flow.jsonl"));
        // c1 makes five calls, each followed by one decision and its run line.
        assertEquals(10, lines.size());
        assertTrue(lines.getFirst().startsWith("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":3,"
                + "\"arguments\":{\"user_id\":\"user_1\"}"), lines.getFirst());
        assertTrue(lines.getFirst().endsWith(",\"shadow\":true,\"site\":\"find_user_id_by_email\","
                + "\"tool\":\"get_user_details\"}"), lines.getFirst());
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",0,0.0]],\"surprise\":-0.0}}", lines.get(1));
    }

    @Test
    void threeLookupsAllUsedHaveTheWilsonLowerBoundOfTheReference() {
        assertEquals(0.5258044340133321, Promoted.lowerBound(3, 3));
        assertEquals(0.0, Promoted.lowerBound(0, 0));
    }
}
