package dev.stretto.cli.learn.bindings;

import dev.stretto.cli.learn.ByteOrder;
import java.util.Comparator;

/**
 * Where a value came from: a path in an earlier output of a tool.
 *
 * @param tool the tool whose output held it
 * @param path its path there ({@code $.orders[*]})
 */
public record SourceRef(String tool, String path) {

    /** By tool, then path, in byte order. */
    public static final Comparator<SourceRef> ORDER = Comparator.comparing(SourceRef::tool, ByteOrder.STRINGS)
            .thenComparing(SourceRef::path, ByteOrder.STRINGS);
}
