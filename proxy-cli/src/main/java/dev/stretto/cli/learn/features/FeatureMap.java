package dev.stretto.cli.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.learn.ByteOrder;
import dev.stretto.cli.learn.Step;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * The flow's {@code map}: which fields of which tools' outputs make a step's feature id, and
 * the id of each combination of values seen in training (numbered per tool from 1, in
 * sorted order; past {@link #MAX_ID} a combination has none). A step without an id has
 * feature 0.
 */
public final class FeatureMap {

    /** The largest feature id. */
    public static final int MAX_ID = 63;

    /** A combination of values of one tool's fields. */
    public record Key(String tool, List<String> values) {
        public Key {
            values = List.copyOf(values);
        }
    }

    private static final Comparator<List<String>> VALUES = (a, b) -> {
        for (int i = 0; i < Math.min(a.size(), b.size()); i++) {
            int c = ByteOrder.STRINGS.compare(a.get(i), b.get(i));
            if (c != 0) {
                return c;
            }
        }
        return Integer.compare(a.size(), b.size());
    };

    /** Keys in the order the flow lists them: by tool, then by values. */
    public static final Comparator<Key> KEY_ORDER = Comparator.comparing(Key::tool, ByteOrder.STRINGS)
            .thenComparing(Key::values, VALUES);

    private final SortedMap<String, List<Field>> fields;
    private final Map<Key, Integer> ids;

    private FeatureMap(SortedMap<String, List<Field>> fields, Map<Key, Integer> ids) {
        this.fields = fields;
        this.ids = ids;
    }

    /** The map with no fields: every feature is 0. */
    public static FeatureMap empty() {
        return new FeatureMap(Collections.unmodifiableSortedMap(ByteOrder.map()), Map.of());
    }

    /**
     * Fits the map of the chosen fields (in the order chosen) on the training episodes' steps
     * and outputs.
     */
    public static FeatureMap fit(List<ToolField> chosen, List<List<Step>> steps, List<List<JsonNode>> outputs) {
        SortedMap<String, List<Field>> fields = ByteOrder.map();
        for (ToolField f : chosen) {
            fields.computeIfAbsent(f.tool(), t -> new ArrayList<>()).add(f.field());
        }
        fields.replaceAll((t, fs) -> List.copyOf(fs));
        TreeSet<Key> seen = new TreeSet<>(KEY_ORDER);
        for (int e = 0; e < steps.size(); e++) {
            for (int t = 0; t < steps.get(e).size(); t++) {
                Key k = keyOf(fields, steps.get(e).get(t), outputs.get(e).get(t));
                if (k != null) {
                    seen.add(k);
                }
            }
        }
        Map<Key, Integer> ids = new LinkedHashMap<>();
        Map<String, Integer> perTool = new HashMap<>();
        for (Key k : seen) {
            int id = perTool.merge(k.tool(), 1, Integer::sum);
            if (id <= MAX_ID) {
                ids.put(k, id);
            }
        }
        return new FeatureMap(Collections.unmodifiableSortedMap(fields), Collections.unmodifiableMap(ids));
    }

    private static Key keyOf(Map<String, List<Field>> fields, Step step, JsonNode output) {
        List<Field> fs = step.isRespond() ? null : fields.get(step.tool());
        if (fs == null || output == null) {
            return null;
        }
        List<String> values = new ArrayList<>(fs.size());
        for (Field f : fs) {
            values.add(f.valueIn(output));
        }
        return new Key(step.tool(), values);
    }

    /** The feature id of a step with its parsed output (null when it has none). */
    public int featureOf(Step step, JsonNode output) {
        Key k = keyOf(fields, step, output);
        Integer id = k == null ? null : ids.get(k);
        return id == null ? 0 : id;
    }

    /** Whether no field is used. */
    public boolean isEmpty() {
        return fields.isEmpty();
    }

    /** The fields of each tool, tools in byte order, fields in the order chosen. */
    public SortedMap<String, List<Field>> fields() {
        return fields;
    }

    /** Every numbered combination with its id, in the flow's order. */
    public Map<Key, Integer> ids() {
        return ids;
    }
}
