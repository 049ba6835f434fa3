package dev.stretto.cli.learn.bindings;

import dev.stretto.cli.learn.ByteOrder;
import java.util.Collections;
import java.util.SortedMap;

/**
 * How a lookup was called in training.
 *
 * @param calls  how many calls
 * @param passed per argument, how many calls passed it
 */
public record ArgCounts(long calls, SortedMap<String, Long> passed) {

    public ArgCounts {
        passed = Collections.unmodifiableSortedMap(ByteOrder.copy(passed));
    }

    /** Whether an argument was passed often enough (90% of calls) for the flow to pass it. */
    public boolean required(String arg) {
        Long n = passed.get(arg);
        return n != null && n >= 0.9 * calls;
    }
}
