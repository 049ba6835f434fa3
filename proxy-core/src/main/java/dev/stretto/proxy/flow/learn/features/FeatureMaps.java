package dev.stretto.proxy.flow.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Features;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeSet;

/**
 * Fits the flow's {@code map}: the chosen fields grouped by tool (in the order chosen), and an
 * id for every combination of their values seen in the training outputs, numbered per tool
 * from 1 in sorted order; past {@link #MAX_ID} a combination has none. Steps read their ids
 * from it as the proxy does ({@link Features#of}).
 */
public final class FeatureMaps {

    /** The largest feature id. */
    public static final int MAX_ID = 63;

    private FeatureMaps() {
    }

    /** Fits the map of the chosen fields on the training episodes' steps and outputs. */
    public static FeatureMap fit(List<ToolField> chosen, List<List<AgentStep>> steps, List<List<JsonNode>> outputs) {
        SortedMap<String, List<FeatureMap.Field>> fields = ByteOrder.map();
        for (ToolField f : chosen) {
            fields.computeIfAbsent(f.tool(), t -> new ArrayList<>()).add(f.field());
        }
        TreeSet<FeatureMap.Key> seen = new TreeSet<>(KEY_ORDER);
        for (int e = 0; e < steps.size(); e++) {
            for (int t = 0; t < steps.get(e).size(); t++) {
                FeatureMap.Key k = keyOf(fields, steps.get(e).get(t), outputs.get(e).get(t));
                if (k != null) {
                    seen.add(k);
                }
            }
        }
        Map<FeatureMap.Key, Integer> ids = new LinkedHashMap<>();
        Map<String, Integer> perTool = new HashMap<>();
        for (FeatureMap.Key k : seen) {
            int id = perTool.merge(k.tool(), 1, Integer::sum);
            if (id <= MAX_ID) {
                ids.put(k, id);
            }
        }
        return new FeatureMap(fields, ids);
    }

    private static final java.util.Comparator<FeatureMap.Key> KEY_ORDER = (a, b) -> {
        int c = ByteOrder.STRINGS.compare(a.tool(), b.tool());
        for (int i = 0; c == 0 && i < Math.min(a.values().size(), b.values().size()); i++) {
            c = ByteOrder.STRINGS.compare(a.values().get(i), b.values().get(i));
        }
        return c != 0 ? c : Integer.compare(a.values().size(), b.values().size());
    };

    private static FeatureMap.Key keyOf(Map<String, List<FeatureMap.Field>> fields, AgentStep step, JsonNode output) {
        List<FeatureMap.Field> fs = step.isRespond() ? null : fields.get(step.tool());
        if (fs == null || output == null) {
            return null;
        }
        List<String> values = new ArrayList<>(fs.size());
        for (FeatureMap.Field f : fs) {
            values.add(Features.valueIn(f, output));
        }
        return new FeatureMap.Key(step.tool(), values);
    }

}
