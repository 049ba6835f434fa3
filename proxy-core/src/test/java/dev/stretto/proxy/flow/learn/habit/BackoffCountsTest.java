package dev.stretto.proxy.flow.learn.habit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.proxy.flow.model.Backoff;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The back-off counts on the shop sessions: the habit levels of the reference's shop flow. */
class BackoffCountsTest {

    private static final long PAD = Backoff.PAD;

    private static Backoff shop() {
        return BackoffCounts.of(ShopHabit.EPISODES).toBackoff(0.5, ShopHabit.VOCAB_SIZE);
    }

    @Test
    void levelZeroCountsEveryStep() {
        var all = shop().levels().get(0).get(List.of());
        assertEquals(Map.of(0, 10.0, 1, 4.0, 2, 6.0, 3, 12.0, 4, 6.0), all.byAction());
        assertEquals(38.0, all.total());
    }

    @Test
    void contextsArePaddedOnTheLeftAndSortedAsRustSortsVectors() {
        Backoff counts = shop();
        assertEquals(List.of(List.of(8192L, 16384L), List.of(32768L, 65536L), List.of(49152L, 8192L),
                        List.of(49152L, 49152L), List.of(65536L, 49152L), List.of(PAD, 32768L), List.of(PAD, PAD)),
                List.copyOf(counts.levels().get(2).keySet()));
        assertEquals(Map.of(0, 6.0, 3, 6.0), counts.levels().get(1).get(List.of(49152L)).byAction());
    }

    @Test
    void theLastStepNeverBecomesAContext() {
        assertNull(shop().levels().get(1).get(List.of(12288L)));
    }

    @Test
    void reachCountsAddEachActionReachedAndTheTotalOnce() {
        // get_user then get_order, cancel (a write), reply: from step 0 the agent reaches 4 and 3.
        EncodedEpisode e = new EncodedEpisode(new long[] {65536, 49152, 16384, 12288}, new int[] {4, 3, 1, 0}, 1.0);
        Backoff reach = Reach.count(List.of(e), a -> a == 1).toBackoff(0.5, 6);
        var start = reach.levels().get(1).get(List.of(PAD));
        assertEquals(Map.of(3, 1.0, 4, 1.0), start.byAction());
        assertEquals(1.0, start.total());
        var beforeWrite = reach.levels().get(2).get(List.of(65536L, 49152L));
        assertEquals(Map.of(), beforeWrite.byAction());
        assertEquals(1.0, beforeWrite.total());
        assertEquals(Map.of(0, 1.0, 3, 2.0, 4, 1.0), reach.levels().get(0).get(List.of()).byAction());
        assertEquals(4.0, reach.levels().get(0).get(List.of()).total());
    }

    @Test
    void aWeightOfZeroStillListsTheAction() {
        EncodedEpisode old = new EncodedEpisode(new long[] {32768}, new int[] {2}, 0.0);
        var c = BackoffCounts.of(List.of(old)).toBackoff(1.0, 6).levels().get(0).get(List.of());
        assertEquals(Map.of(2, 0.0), c.byAction());
    }
}
