package dev.stretto.cli.learn.bindings;

import java.util.Collections;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * How often an argument's values were found in earlier outputs.
 *
 * @param values how many values the argument took
 * @param found  how many of them each source held
 */
public record Traced(long values, SortedMap<SourceRef, Long> found) {

    public Traced {
        TreeMap<SourceRef, Long> copy = new TreeMap<>(SourceRef.ORDER);
        copy.putAll(found);
        found = Collections.unmodifiableSortedMap(copy);
    }

    /**
     * Whether a source is trusted: it held at least 2 values and at least a tenth of them.
     */
    public boolean usable(SourceRef source) {
        Long n = found.get(source);
        return n != null && n >= 2 && n >= 0.1 * values;
    }
}
