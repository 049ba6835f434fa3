package dev.stretto.cli.learn.bindings;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Collections;
import java.util.List;
import java.util.SortedMap;

/**
 * The binding statistics of the first pass over the training episodes
 * (stretto-learn 3.9.1 and 3.9.2), before the binding rule is replayed.
 *
 * @param args        per lookup, its calls and how often each argument was passed
 * @param sources     per lookup argument that took strings, where its values were found
 * @param siteSources per site, where the values of arguments with several sources came from
 * @param lists       per lookup argument that took lists of strings, where they were found
 * @param bare        lookups without a required argument that were called bare
 * @param constants   with {@code --constants}: arguments that always took one value
 */
public record BindingTables(SortedMap<String, ArgCounts> args, SortedMap<ToolArg, Traced> sources,
                            List<SiteSource> siteSources, SortedMap<ToolArg, Traced> lists,
                            SortedMap<String, Long> bare, SortedMap<ToolArg, JsonNode> constants) {

    public BindingTables {
        args = Collections.unmodifiableSortedMap(args);
        sources = Collections.unmodifiableSortedMap(sources);
        siteSources = List.copyOf(siteSources);
        lists = Collections.unmodifiableSortedMap(lists);
        bare = Collections.unmodifiableSortedMap(bare);
        constants = Collections.unmodifiableSortedMap(constants);
    }
}
