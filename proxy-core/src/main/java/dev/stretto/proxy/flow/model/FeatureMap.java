package dev.stretto.proxy.flow.model;

import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Code features read from tool outputs (the flow's {@code map}): for some tools, a few
 * fields of the JSON output whose values split the next action, and an id for each
 * combination of values seen in training. A step's symbol carries its output's feature id
 * (0 when there is none). Usually empty.
 *
 * @param fields the fields read from each tool's output, in the order they were selected
 * @param ids    the id (1 to 63) of each (tool, field values) combination, sorted by key
 */
public record FeatureMap(Map<String, List<Field>> fields, Map<Key, Integer> ids) {

    /** The empty map: no features. */
    public static final FeatureMap EMPTY = new FeatureMap(Map.of(), Map.of());

    /** A field of a tool's output. */
    public sealed interface Field {
        /** The field's path: a member, or {@code member.inner} one level down. */
        String path();
    }

    /**
     * A scalar's value as text.
     *
     * @param path the member's path ({@code status}, {@code payment.method})
     */
    public record Scalar(String path) implements Field {
        /** Requires a path. */
        public Scalar {
            Objects.requireNonNull(path, "path");
        }
    }

    /**
     * An array's length as {@code 0}, {@code 1} or {@code 2+}.
     *
     * @param path the member's path; empty for the output itself
     */
    public record Len(String path) implements Field {
        /** Requires a path. */
        public Len {
            Objects.requireNonNull(path, "path");
        }
    }

    /**
     * A combination of field values.
     *
     * @param tool   the tool
     * @param values the text of each of its fields' values, in field order
     */
    public record Key(String tool, List<String> values) {
        /** Copies the values. */
        public Key {
            Objects.requireNonNull(tool, "tool");
            values = List.copyOf(values);
        }
    }

    static final Comparator<Key> ORDER =
            Comparator.comparing(Key::tool, Sorted.NAMES).thenComparing(Key::values, Sorted.STRINGS);

    /** Copies the maps sorted by key. */
    public FeatureMap {
        Map<String, List<Field>> copy = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, List<Field>> e : Objects.requireNonNull(fields, "fields").entrySet()) {
            copy.put(e.getKey(), List.copyOf(e.getValue()));
        }
        fields = Sorted.byName(copy, "fields");
        ids = Sorted.by(ids, ORDER, "ids");
    }
}
