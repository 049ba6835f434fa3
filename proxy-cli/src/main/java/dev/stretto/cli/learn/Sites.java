package dev.stretto.cli.learn;

import dev.stretto.trace.manifest.ToolKind;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * Where the flow may look something up (stretto-learn 3.8): the read tools, and after each
 * call (by tool and whether it failed) which read tools the agent called next in training.
 *
 * @param reads every read tool of the manifest, in byte order
 * @param next  per site, the read tools that followed it and how often
 */
public record Sites(List<String> reads, SortedMap<Site, SortedMap<String, Long>> next) {

    /**
     * A site: a call of a tool that succeeded or failed.
     *
     * @param tool   the tool
     * @param failed whether the call failed
     */
    public record Site(String tool, boolean failed) {
        /** By tool in byte order, then success before failure. */
        public static final Comparator<Site> ORDER = Comparator.comparing(Site::tool, ByteOrder.STRINGS)
                .thenComparing(Site::failed);
    }

    public Sites {
        reads = List.copyOf(reads);
        next = Collections.unmodifiableSortedMap(next);
    }

    /** Counts the sites of the training episodes' steps. */
    public static Sites of(List<List<Step>> episodes, Map<String, ToolKind> tools) {
        List<String> reads = tools.entrySet().stream().filter(t -> t.getValue() == ToolKind.READ)
                .map(Map.Entry::getKey).sorted(ByteOrder.STRINGS).toList();
        SortedMap<Site, SortedMap<String, Long>> next = new TreeMap<>(Site.ORDER);
        for (List<Step> steps : episodes) {
            for (int t = 0; t + 1 < steps.size(); t++) {
                Step s = steps.get(t);
                Step after = steps.get(t + 1);
                if (!s.isRespond() && !after.isRespond() && tools.get(after.tool()) == ToolKind.READ) {
                    next.computeIfAbsent(new Site(s.tool(), s.failed()), k -> ByteOrder.map())
                            .merge(after.tool(), 1L, Long::sum);
                }
            }
        }
        return new Sites(reads, next);
    }
}
