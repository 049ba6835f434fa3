package dev.stretto.cli.learn.bindings;

import dev.stretto.cli.learn.ByteOrder;
import java.util.Comparator;

/**
 * One argument of one lookup.
 *
 * @param tool the lookup
 * @param arg  the argument's name
 */
public record ToolArg(String tool, String arg) {

    /** By tool, then argument, in byte order. */
    public static final Comparator<ToolArg> ORDER = Comparator.comparing(ToolArg::tool, ByteOrder.STRINGS)
            .thenComparing(ToolArg::arg, ByteOrder.STRINGS);
}
