package dev.stretto.proxy.flow.predict;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;

/**
 * Code features: what the fields of the flow's {@code map} read in a call's output, and the id
 * of that combination (0 when the tool has no fields, the output is not JSON, or the
 * combination has no id). A field reads a scalar as text (a string as it is, a number or
 * boolean as JSON), an array's length as {@code 0}, {@code 1} or {@code 2+}, and
 * {@link #NONE} when the output has nothing there. Learning fits the map with the same
 * reading.
 */
public final class Features {

    /** What a field reads when the output has nothing there. */
    public static final String NONE = "\u2205";

    private Features() {
    }

    /** The feature id of a call of {@code tool} whose result text is {@code content} (null when none). */
    static int of(FeatureMap map, String tool, String content) {
        List<FeatureMap.Field> fields = map.fields().get(tool);
        if (fields == null || fields.isEmpty() || content == null) {
            return 0;
        }
        try {
            return of(map, tool, CanonicalJson.parse(content));
        } catch (IllegalArgumentException notJson) {
            return 0;
        }
    }

    /** The feature id of a call of {@code tool} whose output parsed as {@code output} (null when not JSON). */
    public static int of(FeatureMap map, String tool, JsonNode output) {
        List<FeatureMap.Field> fields = map.fields().get(tool);
        if (fields == null || fields.isEmpty() || output == null) {
            return 0;
        }
        List<String> values = new ArrayList<>(fields.size());
        for (FeatureMap.Field f : fields) {
            values.add(valueIn(f, output));
        }
        Integer id = map.ids().get(new FeatureMap.Key(tool, values));
        return id == null ? 0 : id;
    }

    /** What {@code field} reads in {@code output}. */
    public static String valueIn(FeatureMap.Field field, JsonNode output) {
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

    /** The member at {@code key} or {@code key.inner} (a dot after the first belongs to the inner key), or null. */
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
