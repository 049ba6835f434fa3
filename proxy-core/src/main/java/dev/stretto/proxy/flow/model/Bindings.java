package dev.stretto.proxy.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the flow binds a lookup's arguments, learned from the agent's own read calls, and how
 * often the binding reproduced the agent's arguments. The fields after {@code agreed} exist
 * only in format 2 and are empty in older flows.
 *
 * @param args          per lookup: how many calls training saw and how many passed each
 *                      argument; an argument passed in at least 90% of the calls is required
 * @param sources       per (lookup, argument) that took strings: where the values were found
 *                      in earlier outputs
 * @param agreed        per lookup: how often the binding matched the agent's arguments when the
 *                      customer had not mentioned the picked values, and when they had
 * @param namedOther    per lookup: picks made while the customer had named another value at
 *                      the sources, and how many the agent used
 * @param describedRead per lookup: picks made after a sibling's result held a value the
 *                      customer gave, and how many the agent used
 * @param siteSources   per (lookup, argument, site): how many values came from each source
 *                      there, in the file's order (sorted by lookup, argument, site, source)
 * @param lists         like {@code sources}, for arguments that took lists of strings
 * @param bare          per lookup with no required argument: calls made with no arguments
 * @param constants     arguments passed with one value throughout training (only learned with
 *                      {@code learn --constants})
 */
public record Bindings(Map<String, ArgCounts> args, Map<ToolArg, Traced> sources, Map<String, Agreed> agreed,
                       Map<String, UsedPicks> namedOther, Map<String, UsedPicks> describedRead,
                       List<SiteSource> siteSources, Map<ToolArg, Traced> lists, Map<String, Long> bare,
                       Map<ToolArg, JsonNode> constants) {

    /** Share of a lookup's calls that must pass an argument for it to be required. */
    public static final double REQUIRED_SHARE = 0.9;

    /** Copies everything, maps sorted by key. */
    public Bindings {
        args = Sorted.byName(args, "args");
        sources = Sorted.by(sources, ToolArg.ORDER, "sources");
        agreed = Sorted.byName(agreed, "agreed");
        namedOther = Sorted.byName(namedOther, "named_other");
        describedRead = Sorted.byName(describedRead, "described_read");
        siteSources = Sorted.list(siteSources, "site_sources");
        lists = Sorted.by(lists, ToolArg.ORDER, "lists");
        bare = Sorted.byName(bare, "bare");
        Map<ToolArg, JsonNode> constantsCopy = new LinkedHashMap<>();
        for (Map.Entry<ToolArg, JsonNode> e : Objects.requireNonNull(constants, "constants").entrySet()) {
            constantsCopy.put(e.getKey(), e.getValue().deepCopy());
        }
        constants = Sorted.by(constantsCopy, ToolArg.ORDER, "constants");
    }

    /** Bindings of format 1: no {@code named_other}, {@code described_read}, ... */
    public Bindings(Map<String, ArgCounts> args, Map<ToolArg, Traced> sources, Map<String, Agreed> agreed) {
        this(args, sources, agreed, Map.of(), Map.of(), List.of(), Map.of(), Map.of(), Map.of());
    }

    /** Whether a format-2 field is non-empty, which makes the flow format 2. */
    public boolean needsFormat2() {
        return !namedOther.isEmpty() || !describedRead.isEmpty() || !siteSources.isEmpty() || !lists.isEmpty()
                || !bare.isEmpty() || !constants.isEmpty();
    }

    /** The names of the non-empty format-2 fields, in file order. */
    public List<String> format2Fields() {
        List<String> names = new java.util.ArrayList<>();
        if (!namedOther.isEmpty()) {
            names.add("bindings.named_other");
        }
        if (!describedRead.isEmpty()) {
            names.add("bindings.described_read");
        }
        if (!siteSources.isEmpty()) {
            names.add("bindings.site_sources");
        }
        if (!lists.isEmpty()) {
            names.add("bindings.lists");
        }
        if (!bare.isEmpty()) {
            names.add("bindings.bare");
        }
        if (!constants.isEmpty()) {
            names.add("bindings.constants");
        }
        return names;
    }

    /**
     * A lookup and one of its arguments.
     *
     * @param tool the lookup's tool
     * @param arg  the argument's name
     */
    public record ToolArg(String tool, String arg) {
        /** Requires both names. */
        public ToolArg {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(arg, "arg");
        }

        static final Comparator<ToolArg> ORDER =
                Comparator.comparing(ToolArg::tool, Sorted.NAMES).thenComparing(ToolArg::arg, Sorted.NAMES);
    }

    /**
     * A lookup's calls in training.
     *
     * @param calls  calls whose arguments were an object
     * @param passed per argument, the calls that passed it
     */
    public record ArgCounts(long calls, Map<String, Long> passed) {
        /** Copies {@code passed} sorted by name. */
        public ArgCounts {
            passed = Sorted.byName(passed, "passed");
        }

        /** The required arguments in byte order: those passed in at least 90% of the calls. */
        public List<String> required() {
            return passed.entrySet().stream()
                    .filter(e -> e.getValue() >= REQUIRED_SHARE * calls)
                    .map(Map.Entry::getKey)
                    .toList();
        }
    }

    /**
     * A place in a tool's output: the tool and a path ({@code $}, {@code $.orders[*]},
     * {@code $.items[*].product_id}).
     *
     * @param tool the tool whose output it is
     * @param path the path in the output
     */
    public record SourcePath(String tool, String path) {
        /** Requires both. */
        public SourcePath {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(path, "path");
        }

        static final Comparator<SourcePath> ORDER =
                Comparator.comparing(SourcePath::tool, Sorted.NAMES).thenComparing(SourcePath::path, Sorted.NAMES);
    }

    /**
     * Where an argument's values were found.
     *
     * @param values the values the argument took in training
     * @param found  for each source, how many of them it held, sorted by source
     */
    public record Traced(long values, Map<SourcePath, Long> found) {
        /** Copies {@code found} sorted by source. */
        public Traced {
            found = Sorted.by(found, SourcePath.ORDER, "found");
        }

        /**
         * The sources worth using, in (tool, path) order: those that held at least 2 values and
         * at least a tenth of them.
         */
        public List<SourcePath> usable() {
            return found.entrySet().stream()
                    .filter(e -> e.getValue() >= 2 && e.getValue() >= 0.1 * values)
                    .map(Map.Entry::getKey)
                    .toList();
        }
    }

    /**
     * How often the binding reproduced the agent's arguments.
     *
     * @param unmentioned when the customer had not mentioned every picked value
     * @param mentioned   when the customer had mentioned every picked value
     */
    public record Agreed(Tally unmentioned, Tally mentioned) {
        /** Requires both tallies. */
        public Agreed {
            Objects.requireNonNull(unmentioned, "unmentioned");
            Objects.requireNonNull(mentioned, "mentioned");
        }
    }

    /**
     * Agreements out of calls.
     *
     * @param agreed calls the binding reproduced
     * @param calls  calls replayed
     */
    public record Tally(long agreed, long calls) {
        /** The chance that a binding is right: {@code (agreed + 1) / (calls + 2)}. */
        public double chance() {
            return (agreed + 1.0) / (calls + 2.0);
        }
    }

    /**
     * Picks of one kind and how many the agent used.
     *
     * @param used  picks the agent made itself later
     * @param picks picks counted
     */
    public record UsedPicks(long used, long picks) {
    }

    /**
     * How many of an argument's values came from one source at one site.
     *
     * @param tool   the lookup
     * @param arg    the argument
     * @param site   the site (the tool of the last output before the call)
     * @param source the source
     * @param values the values found there
     */
    public record SiteSource(String tool, String arg, String site, SourcePath source, long values) {
        /** Requires every name. */
        public SiteSource {
            Objects.requireNonNull(tool, "tool");
            Objects.requireNonNull(arg, "arg");
            Objects.requireNonNull(site, "site");
            Objects.requireNonNull(source, "source");
        }
    }

    /** The constant value of {@code tool}'s {@code arg}, or null. */
    public JsonNode constant(String tool, String arg) {
        JsonNode v = constants.get(new ToolArg(tool, arg));
        return v == null ? null : v.deepCopy();
    }

    /** The constants map; values are copies, since JSON trees are mutable. */
    @Override
    public Map<ToolArg, JsonNode> constants() {
        Map<ToolArg, JsonNode> copy = new LinkedHashMap<>();
        constants.forEach((k, v) -> copy.put(k, v.deepCopy()));
        return Sorted.by(copy, ToolArg.ORDER, "constants");
    }
}
