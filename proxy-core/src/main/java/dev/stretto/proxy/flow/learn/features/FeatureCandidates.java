package dev.stretto.proxy.flow.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Features;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * The fields worth trying as code features (the reference's {@code discover}, at most 8
 * values): every field the training outputs have, kept when it takes 2 to 8 distinct values
 * over the tool's outputs and no value covers more than 98% of them.
 */
public final class FeatureCandidates {

    static final int MAX_VALUES = 8;
    private static final double MAX_SHARE = 0.98;

    private FeatureCandidates() {
    }

    /** The candidates, ordered by tool, then scalar before length, then path. */
    public static List<ToolField> discover(List<List<AgentStep>> steps, List<List<JsonNode>> outputs) {
        Map<String, List<JsonNode>> byTool = new LinkedHashMap<>();
        for (int e = 0; e < steps.size(); e++) {
            for (int t = 0; t < steps.get(e).size(); t++) {
                JsonNode out = outputs.get(e).get(t);
                if (out != null) {
                    byTool.computeIfAbsent(steps.get(e).get(t).tool(), k -> new ArrayList<>()).add(out);
                }
            }
        }
        TreeSet<ToolField> kept = new TreeSet<>(ToolField.ORDER);
        for (Map.Entry<String, List<JsonNode>> tool : byTool.entrySet()) {
            List<JsonNode> outs = tool.getValue();
            for (FeatureMap.Field f : fieldsOf(outs)) {
                Map<String, Integer> counts = new HashMap<>();
                for (JsonNode o : outs) {
                    counts.merge(Features.valueIn(f, o), 1, Integer::sum);
                }
                int most = counts.values().stream().mapToInt(Integer::intValue).max().orElse(0);
                if (counts.size() >= 2 && counts.size() <= MAX_VALUES && (double) most / outs.size() <= MAX_SHARE) {
                    kept.add(new ToolField(tool.getKey(), f));
                }
            }
        }
        return List.copyOf(kept);
    }

    private static Set<FeatureMap.Field> fieldsOf(List<JsonNode> outputs) {
        Set<FeatureMap.Field> fields = new LinkedHashSet<>();
        for (JsonNode o : outputs) {
            if (o.isArray()) {
                fields.add(new FeatureMap.Len(""));
            } else if (o.isObject()) {
                for (Iterator<Map.Entry<String, JsonNode>> it = o.fields(); it.hasNext(); ) {
                    Map.Entry<String, JsonNode> member = it.next();
                    JsonNode v = member.getValue();
                    if (v.isArray()) {
                        fields.add(new FeatureMap.Len(member.getKey()));
                    } else if (v.isObject()) {
                        for (Iterator<Map.Entry<String, JsonNode>> inner = v.fields(); inner.hasNext(); ) {
                            Map.Entry<String, JsonNode> m = inner.next();
                            if (!m.getValue().isArray() && !m.getValue().isObject()) {
                                fields.add(new FeatureMap.Scalar(member.getKey() + "." + m.getKey()));
                            }
                        }
                    } else {
                        fields.add(new FeatureMap.Scalar(member.getKey()));
                    }
                }
            }
        }
        return fields;
    }
}
