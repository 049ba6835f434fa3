package dev.stretto.proxy.flow.learn.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.flow.FlowException;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class TaskSplitTest {

    private static final List<String> SHOP = List.of("20260928T020400.548Z-14457", "20260928T020400.587Z-14486",
            "20260928T020400.618Z-14511", "20260928T020400.650Z-14540", "20260928T020400.679Z-14565",
            "20260928T020400.710Z-14594");

    @Test
    void theShopSessionsHoldOutTheTwoTheReferenceHoldsOut() throws FlowException {
        TaskSplit split = TaskSplit.of(SHOP, 6);
        // stretto-learn 4.1: round(0.3 * 6) = 2, the tasks of the smallest mix(fnv1a64("learn-split/" + task)).
        assertEquals(List.of("20260928T020400.587Z-14486", "20260928T020400.679Z-14565"), split.heldOut());
        assertEquals(List.of("20260928T020400.548Z-14457", "20260928T020400.618Z-14511",
                "20260928T020400.650Z-14540", "20260928T020400.710Z-14594"), split.training());
    }

    @Test
    void theHeldOutAreThoseOfTheSmallestUnsignedRankInTheirOriginalOrder() throws FlowException {
        List<String> tasks = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            tasks.add("task-" + i);
        }
        TaskSplit split = TaskSplit.of(tasks, 10);
        assertEquals(3, split.heldOut().size());
        List<String> byRank = new ArrayList<>(tasks);
        byRank.sort((a, b) -> Long.compareUnsigned(TaskSplit.rank(a), TaskSplit.rank(b)));
        assertEquals(byRank.subList(0, 3).stream().sorted((a, b) -> tasks.indexOf(a) - tasks.indexOf(b)).toList(),
                split.heldOut());
        assertEquals(7, split.training().size());
    }

    @Test
    void twoTasksHoldOneOutAndOneTaskCannotBeSplit() throws FlowException {
        assertEquals(1, TaskSplit.of(List.of("a", "b"), 2).heldOut().size());
        assertEquals("3 episodes of 1 tasks are too few to split into training and held-out tasks",
                assertThrows(FlowException.class, () -> TaskSplit.of(List.of("a"), 3)).getMessage());
    }
}
