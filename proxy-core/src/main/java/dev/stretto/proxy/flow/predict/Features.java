package dev.stretto.proxy.flow.predict;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;

/**
 * The code feature of a call's output: the values of the fields the flow's {@code map} reads
 * from that tool's output, and the id of that combination (0 when the tool has no fields, the
 * output is not JSON, or the combination was never seen).
 */
final class Features {

    /** The text of a missing value. */
    static final String NONE = "\u2205";

    private Features() {
    }

    static int of(FeatureMap map, String tool, String content) {
        List<FeatureMap.Field> fields = map.fields().get(tool);
        if (fields == null || fields.isEmpty() || content == null) {
            return 0;
        }
        JsonNode output;
        try {
            output = CanonicalJson.parse(content);
        } catch (IllegalArgumentException notJson) {
            return 0;
        }
        List<String> values = new ArrayList<>(fields.size());
        for (FeatureMap.Field f : fields) {
            values.add(value(output, f));
        }
        Integer id = map.ids().get(new FeatureMap.Key(tool, values));
        return id == null ? 0 : id;
    }

    private static String value(JsonNode output, FeatureMap.Field field) {
        return switch (field) {
            case FeatureMap.Scalar s -> {
                JsonNode v = member(output, s.path());
                if (v == null || v.isNull() || v.isContainerNode()) {
                    yield NONE;
                }
                yield v.isTextual() ? v.textValue() : CanonicalJson.write(v);
            }
            case FeatureMap.Len l -> {
                JsonNode v = l.path().isEmpty() ? output : member(output, l.path());
                if (v == null || !v.isArray()) {
                    yield NONE;
                }
                yield v.size() == 0 ? "0" : v.size() == 1 ? "1" : "2+";
            }
        };
    }

    /** The member at {@code key} or {@code key.inner}, or null. */
    private static JsonNode member(JsonNode output, String path) {
        JsonNode node = output;
        for (String part : path.split("\\.", 2)) {
            if (node == null || !node.isObject()) {
                return null;
            }
            node = node.get(part);
        }
        return node;
    }
}
