package dev.stretto.proxy.flow.model;

import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * Where the flow may make lookups. A site is what the last step was: a call of a tool that
 * succeeded, or one that failed (named {@code "<tool> (error)"}). The lookups the agent made
 * next at a site in training, plus handing back, are the options there; a site with no entry
 * offers nothing.
 *
 * @param reads     every read-only tool of the manifest, sorted (tool numbers 1, 2, ... of the
 *                  flow's program)
 * @param next      for each site, the read-only tools the agent called next in training and
 *                  how often, sorted by site
 * @param feeds     for each lookup, which write arguments its results supplied and in how many
 *                  episodes (used only to describe lookups to the System-One model)
 * @param everyRead every read tool is offered at every site
 */
public record Sites(List<String> reads, Map<Site, Map<String, Long>> next, Map<String, Map<Feed, Long>> feeds,
                    boolean everyRead) {

    /**
     * A site: a call of {@code tool} that succeeded or failed.
     *
     * @param tool   the tool called
     * @param failed whether the call failed
     */
    public record Site(String tool, boolean failed) {
        /** Requires a tool. */
        public Site {
            Objects.requireNonNull(tool, "tool");
        }

        /** The site's name in logs, thresholds and promotion records: {@code tool}, or {@code tool (error)}. */
        public String name() {
            return failed ? tool + " (error)" : tool;
        }
    }

    /**
     * A write argument a lookup's results supplied.
     *
     * @param write    the write tool
     * @param argument its argument
     */
    public record Feed(String write, String argument) {
        /** Requires both names. */
        public Feed {
            Objects.requireNonNull(write, "write");
            Objects.requireNonNull(argument, "argument");
        }
    }

    static final Comparator<Site> SITE_ORDER =
            Comparator.comparing(Site::tool, Sorted.NAMES).thenComparing(Site::failed);
    static final Comparator<Feed> FEED_ORDER =
            Comparator.comparing(Feed::write, Sorted.NAMES).thenComparing(Feed::argument, Sorted.NAMES);

    /** Copies everything, maps sorted by key. */
    public Sites {
        reads = Sorted.list(reads, "reads");
        Map<Site, Map<String, Long>> nextCopy = new LinkedHashMap<>();
        for (Map.Entry<Site, Map<String, Long>> e : Objects.requireNonNull(next, "next").entrySet()) {
            nextCopy.put(e.getKey(), Sorted.byName(e.getValue(), "next"));
        }
        next = Sorted.by(nextCopy, SITE_ORDER, "next");
        Map<String, Map<Feed, Long>> feedsCopy = new LinkedHashMap<>();
        for (Map.Entry<String, Map<Feed, Long>> e : Objects.requireNonNull(feeds, "feeds").entrySet()) {
            feedsCopy.put(e.getKey(), Sorted.by(e.getValue(), FEED_ORDER, "feeds"));
        }
        feeds = Sorted.byName(feedsCopy, "feeds");
    }

    /**
     * The lookups offered at {@code site}, sorted by name: every read tool when
     * {@link #everyRead()}, else those that followed the site in training (none when the site
     * has no entry).
     */
    public List<String> offered(Site site) {
        if (everyRead) {
            return reads.stream().sorted(Sorted.NAMES).toList();
        }
        Map<String, Long> lookups = next.get(site);
        return lookups == null ? List.of() : List.copyOf(lookups.keySet());
    }
}
