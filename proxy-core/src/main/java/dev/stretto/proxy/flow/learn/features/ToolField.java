package dev.stretto.proxy.flow.learn.features;

import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.proxy.flow.model.FeatureMap;
import java.util.Comparator;

/**
 * A candidate feature: one field of one tool's outputs.
 *
 * @param tool  the tool
 * @param field the field of its outputs
 */
public record ToolField(String tool, FeatureMap.Field field) {

    /** Scalar fields before length fields, then by path. */
    public static final Comparator<FeatureMap.Field> FIELD_ORDER =
            Comparator.comparing((FeatureMap.Field f) -> f instanceof FeatureMap.Len)
                    .thenComparing(FeatureMap.Field::path, ByteOrder.STRINGS);

    /** By tool, then scalar fields before length fields, then by path. */
    public static final Comparator<ToolField> ORDER = Comparator.comparing(ToolField::tool, ByteOrder.STRINGS)
            .thenComparing(ToolField::field, FIELD_ORDER);
}
