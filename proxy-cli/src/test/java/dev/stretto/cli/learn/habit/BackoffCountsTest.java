package dev.stretto.cli.learn.habit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

/** The back-off counts on the shop sessions: the habit levels of the reference's shop flow. */
class BackoffCountsTest {

    private static BackoffCounts shop() {
        return BackoffCounts.of(ShopHabit.EPISODES);
    }

    @Test
    void levelZeroCountsEveryStep() {
        Counts all = shop().at(History.of());
        assertEquals(Map.of(0, 10.0, 1, 4.0, 2, 6.0, 3, 12.0, 4, 6.0), all.byAction());
        assertEquals(38.0, all.total());
    }

    @Test
    void contextsArePaddedOnTheLeftAndSortedAsRustSortsVectors() {
        BackoffCounts counts = shop();
        assertEquals(List.of(History.of(8192, 16384), History.of(32768, 65536), History.of(49152, 8192),
                        History.of(49152, 49152), History.of(65536, 49152), History.of(BackoffCounts.PAD, 32768),
                        History.of(BackoffCounts.PAD, BackoffCounts.PAD)),
                List.copyOf(counts.level(2).keySet()));
        assertEquals(new TreeMap<>(Map.of(0, 6.0, 3, 6.0)), counts.at(History.of(49152)).byAction());
    }

    @Test
    void theLastStepNeverBecomesAContext() {
        assertNull(shop().at(History.of(12288)));
    }

    @Test
    void predictionBlendsTheLevelsFromUniformUp() {
        BackoffCounts counts = shop();
        long[] history = {32768};
        double alpha = 0.5;
        double p = 1.0 / 6;
        p = (6.0 + alpha * p) / (38.0 + alpha);
        p = (6.0 + alpha * p) / (6.0 + alpha);
        p = (6.0 + alpha * p) / (6.0 + alpha);
        assertEquals(p, counts.prob(history, 1, 4, alpha, 6));
    }

    @Test
    void reachCountsAddEachActionAndTheTotalOnce() {
        BackoffCounts reach = new BackoffCounts();
        reach.addEach(new long[] {32768}, 0, List.of(0, 3, 4), 1.0);
        reach.addEach(new long[] {32768}, 0, List.of(), 1.0);
        Counts c = reach.at(History.of(BackoffCounts.PAD));
        assertEquals(Map.of(0, 1.0, 3, 1.0, 4, 1.0), c.byAction());
        assertEquals(2.0, c.total());
    }
}
