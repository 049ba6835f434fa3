package dev.stretto.cli.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.cli.learn.ByteOrder;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Comparator;

/**
 * A code feature read from a tool's JSON output (stretto-learn 3.5): a scalar at a path
 * ({@code {"Scalar": "status"}}, {@code {"Scalar": "payment.method"}}) or how long an array
 * is ({@code {"Len": "orders"}}, {@code {"Len": ""}} for the output itself), as text.
 *
 * @param length whether it is a {@code Len} field (else {@code Scalar})
 * @param path   the keys to walk, joined with dots; {@code ""} is the output itself
 */
public record Field(boolean length, String path) {

    /** What a field reads when the output has nothing there. */
    public static final String NONE = "\u2205";

    /** Scalar fields before length fields, then by path. */
    public static final Comparator<Field> ORDER = Comparator.comparing(Field::length)
            .thenComparing(Field::path, ByteOrder.STRINGS);

    /** A {@code Scalar} field. */
    public static Field scalar(String path) {
        return new Field(false, path);
    }

    /** A {@code Len} field. */
    public static Field len(String path) {
        return new Field(true, path);
    }

    /** The field's value in {@code output} as text: {@link #NONE} when it has none there. */
    public String valueIn(JsonNode output) {
        JsonNode v = output;
        if (!path.isEmpty()) {
            for (String key : path.split("\\.", -1)) {
                v = v == null || !v.isObject() ? null : v.get(key);
            }
        }
        if (length) {
            if (v == null || !v.isArray()) {
                return NONE;
            }
            return v.size() == 0 ? "0" : v.size() == 1 ? "1" : "2+";
        }
        if (v == null) {
            return NONE;
        }
        if (v.isTextual()) {
            return v.textValue();
        }
        if (v.isBoolean() || v.isNumber()) {
            return CanonicalJson.write(v);
        }
        return NONE;
    }
}
