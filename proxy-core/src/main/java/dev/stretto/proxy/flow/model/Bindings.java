package dev.stretto.proxy.flow.model;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * How the flow binds a lookup's arguments, learned from the agent's own read calls, and how
 * often the binding reproduced the agent's arguments. The fields after {@code agreed} exist
 * only in format 2 and are empty in older flows; {@code said} exists only in format 3.
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
 * @param said          per (lookup, argument) that took strings the customer said: the shapes
 *                      of those values (format 3, only learned with {@code learn --bind-said})
 */
public record Bindings(Map<String, ArgCounts> args, Map<ToolArg, Traced> sources, Map<String, Agreed> agreed,
                       Map<String, UsedPicks> namedOther, Map<String, UsedPicks> describedRead,
                       List<SiteSource> siteSources, Map<ToolArg, Traced> lists, Map<String, Long> bare,
                       Map<ToolArg, JsonNode> constants, Map<ToolArg, Said> said) {

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
        said = Sorted.by(said, ToolArg.ORDER, "said");
    }

    /** Bindings of format 2: no {@code said}. */
    public Bindings(Map<String, ArgCounts> args, Map<ToolArg, Traced> sources, Map<String, Agreed> agreed,
                    Map<String, UsedPicks> namedOther, Map<String, UsedPicks> describedRead,
                    List<SiteSource> siteSources, Map<ToolArg, Traced> lists, Map<String, Long> bare,
                    Map<ToolArg, JsonNode> constants) {
        this(args, sources, agreed, namedOther, describedRead, siteSources, lists, bare, constants, Map.of());
    }

    /** Bindings of format 1: no {@code named_other}, {@code described_read}, ... */
    public Bindings(Map<String, ArgCounts> args, Map<ToolArg, Traced> sources, Map<String, Agreed> agreed) {
        this(args, sources, agreed, Map.of(), Map.of(), List.of(), Map.of(), Map.of(), Map.of(), Map.of());
    }

    /** The names of the non-empty fields that need format 3, in file order. */
    public List<String> format3Fields() {
        return said.isEmpty() ? List.of() : List.of("bindings.said");
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

    /**
     * The values of an argument the customer said: they occurred as a whole token in the
     * customer's words before the call, and in no earlier result.
     *
     * @param values how many string values the argument took in training that no earlier
     *               result held (those only the customer's words could give)
     * @param shapes each shape of the said values ({@link SaidShape#of}) and how many of them
     *               had it, sorted by shape
     */
    public record Said(long values, Map<String, Long> shapes) {
        /**
         * Copies {@code shapes} sorted by shape, and checks them.
         *
         * @throws IllegalArgumentException when a shape could not be a token of the customer's
         *                                  text (empty, with whitespace, or with punctuation
         *                                  that tokens lose at an end), or the shapes count
         *                                  more values than the argument took
         */
        public Said {
            shapes = Sorted.byName(shapes, "shapes");
            long said = 0;
            for (Map.Entry<String, Long> s : shapes.entrySet()) {
                if (!SaidShape.isToken(s.getKey())) {
                    throw new IllegalArgumentException("the shape " + CanonicalJson.write(TextNode.valueOf(s.getKey()))
                            + " is not a token of the customer's words (empty, with whitespace, or beginning or"
                            + " ending with one of " + SaidShape.TRIMMED + ")");
                }
                if (s.getValue() < 0) {
                    throw new IllegalArgumentException("a shape's count is below 0");
                }
                said += s.getValue();
            }
            if (said > values) {
                throw new IllegalArgumentException("the shapes count " + said + " said values, more than the "
                        + values + " values no result held that the argument took");
            }
        }

        /**
         * The shapes worth binding from, in shape order: those of at least 2 said values and at
         * least a tenth of the argument's values no result held (the rule of {@link
         * Traced#usable()}, over the values a result could not give).
         */
        public List<String> usable() {
            return shapes.entrySet().stream()
                    .filter(e -> e.getValue() >= 2 && e.getValue() >= 0.1 * values)
                    .map(Map.Entry::getKey)
                    .toList();
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
