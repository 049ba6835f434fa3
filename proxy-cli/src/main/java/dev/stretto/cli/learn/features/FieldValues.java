package dev.stretto.cli.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.learn.ByteOrder;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Comparator;

/**
 * What a code feature's field reads in a tool's JSON output (stretto-learn 3.5): a scalar as
 * text (a string as it is, a number or boolean as JSON), an array's length as {@code 0},
 * {@code 1} or {@code 2+}, and {@link #NONE} when the output has nothing there.
 */
public final class FieldValues {

    /** What a field reads when the output has nothing there. */
    public static final String NONE = "\u2205";

    /** Scalar fields before length fields, then by path. */
    public static final Comparator<FeatureMap.Field> ORDER =
            Comparator.comparing((FeatureMap.Field f) -> f instanceof FeatureMap.Len)
                    .thenComparing(FeatureMap.Field::path, ByteOrder.STRINGS);

    private FieldValues() {
    }

    /** The field's value in {@code output} as text. */
    public static String valueIn(FeatureMap.Field field, JsonNode output) {
        JsonNode v = output;
        if (!field.path().isEmpty()) {
            // A path is a member or member.inner: a dot after the first belongs to the inner key.
            for (String key : field.path().split("\\.", 2)) {
                v = v == null || !v.isObject() ? null : v.get(key);
            }
        }
        return switch (field) {
            case FeatureMap.Len len -> v == null || !v.isArray() ? NONE
                    : v.size() == 0 ? "0" : v.size() == 1 ? "1" : "2+";
            case FeatureMap.Scalar scalar -> v == null ? NONE
                    : v.isTextual() ? v.textValue()
                    : v.isBoolean() || v.isNumber() ? CanonicalJson.write(v) : NONE;
        };
    }
}
