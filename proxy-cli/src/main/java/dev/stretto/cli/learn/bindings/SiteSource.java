package dev.stretto.cli.learn.bindings;

import dev.stretto.cli.learn.ByteOrder;
import java.util.Comparator;

/**
 * How often an argument's value came from a source when the lookup followed a given site.
 *
 * @param tool   the lookup
 * @param arg    its argument
 * @param site   the tool of the call the lookup followed
 * @param source where the value was found
 * @param values how many values
 */
public record SiteSource(String tool, String arg, String site, SourceRef source, long values) {

    /** By tool, argument, site, then source. */
    public static final Comparator<SiteSource> ORDER = Comparator.comparing(SiteSource::tool, ByteOrder.STRINGS)
            .thenComparing(SiteSource::arg, ByteOrder.STRINGS)
            .thenComparing(SiteSource::site, ByteOrder.STRINGS)
            .thenComparing(SiteSource::source, SourceRef.ORDER);
}
