package dev.stretto.proxy.flow;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.decide.DeciderChoice;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.trace.manifest.ToolKind;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What a flow holds, as a person reads it ({@code stretto flow-show}): where it was learned and
 * from how many sessions; the tools, their kinds and pinned inputs; the sites, each call after
 * which the flow may look something up, with the lookups that followed it in training; each
 * lookup's arguments and where their values come from; the decider it is served with and the
 * per-site thresholds; the arbiter; and the promotion record. Maps keep the file's order (names
 * in byte order).
 *
 * @param domain     the domain it serves
 * @param format     its file format, 1 or 2
 * @param provenance where it came from
 * @param tools      the tools, by name
 * @param sites      where lookups may follow
 * @param lookups    each read tool the flow may look up, with its arguments
 * @param deciding   how it decides
 * @param arbiter    its arbiter, or null when it was learned without a System-One model
 * @param promoted   its promotion record, or null when it was never promoted (it acts after
 *                   every call)
 */
public record FlowView(String domain, int format, Provenance provenance, List<Tool> tools, SiteView sites,
                       List<Lookup> lookups, Deciding deciding, Arbiter arbiter, Promoted promoted) {

    /**
     * Copies the lists.
     *
     * @throws NullPointerException when a part but the arbiter and promotion record is null
     */
    public FlowView {
        Objects.requireNonNull(domain, "domain");
        Objects.requireNonNull(provenance, "provenance");
        tools = List.copyOf(tools);
        Objects.requireNonNull(sites, "sites");
        lookups = List.copyOf(lookups);
        Objects.requireNonNull(deciding, "deciding");
    }

    /**
     * A tool of the flow's manifest.
     *
     * @param name     the tool
     * @param kind     read, write or generic (only read tools are ever looked up)
     * @param contract its input contract pinned when the flow was learned ({@code
     *                 order_id:string!, reason:string!}), or null for none
     */
    public record Tool(String name, ToolKind kind, String contract) {
    }

    /**
     * Where lookups may follow.
     *
     * @param everyRead whether every read tool is offered at every site (else only the lookups
     *                  that followed the site in training)
     * @param sites     each site with lookups, in file order
     * @param feeds     each read tool whose results supplied a write's argument in training
     */
    public record SiteView(boolean everyRead, List<Site> sites, List<Feed> feeds) {

        /** Copies the lists. */
        public SiteView {
            sites = List.copyOf(sites);
            feeds = List.copyOf(feeds);
        }
    }

    /**
     * A site: a call after which the flow may look something up.
     *
     * @param name    the tool called, {@code tool (error)} when the call failed
     * @param lookups how often each lookup followed it in training, in file order
     */
    public record Site(String name, Map<String, Long> lookups) {

        /** Copies the lookups, keeping their order. */
        public Site {
            lookups = Collections.unmodifiableMap(new LinkedHashMap<>(lookups));
        }
    }

    /**
     * A read tool whose results supplied writes' arguments in training.
     *
     * @param lookup the read tool
     * @param fed    each write argument it supplied
     */
    public record Feed(String lookup, List<Fed> fed) {

        /** Copies the list. */
        public Feed {
            fed = List.copyOf(fed);
        }
    }

    /**
     * A write's argument a lookup's result supplied.
     *
     * @param write    the write tool
     * @param argument its argument
     * @param episodes in how many training episodes
     */
    public record Fed(String write, String argument, long episodes) {
    }

    /**
     * A tool the flow may look up, as the agent called it in training.
     *
     * @param tool          the tool
     * @param calls         how often the agent called it in training
     * @param arguments     each argument it passed, in file order
     * @param bare          how often it was called with no arguments, or null when that is not
     *                      counted
     * @param agreed        how often the flow's binding matched the agent's own arguments, or
     *                      null when not counted
     * @param namedOther    when the customer named another value: lookups used of picks, or null
     * @param describedRead when the customer described a record already read: lookups used of
     *                      picks, or null
     */
    public record Lookup(String tool, long calls, List<Argument> arguments, Long bare, Agreement agreed,
                         Picks namedOther, Picks describedRead) {

        /** Copies the arguments. */
        public Lookup {
            arguments = List.copyOf(arguments);
        }

        /**
         * The chance that the agent calls the tool with no arguments.
         *
         * @return (bare + 1) / (calls + 2), or NaN when bare calls are not counted
         */
        public double bareChance() {
            return bare == null ? Double.NaN : (bare + 1.0) / (calls + 2);
        }
    }

    /**
     * An argument of a lookup.
     *
     * @param name     the argument
     * @param required whether the flow passes it (the agent passed it in most calls)
     * @param passed   in how many of the training calls it was passed
     * @param source   where its values come from; null for an optional argument
     */
    public record Argument(String name, boolean required, long passed, ValueSource source) {
    }

    /** Where a required argument's values come from. */
    public sealed interface ValueSource {
    }

    /**
     * The argument always took one value, and the flow passes it.
     *
     * @param value the value
     */
    public record Always(JsonNode value) implements ValueSource {

        /** Copies the value. */
        public Always {
            value = value.deepCopy();
        }

        /** {@return a copy of the value, as JSON trees are mutable} */
        @Override
        public JsonNode value() {
            return value.deepCopy();
        }
    }

    /** The argument was never a string in training, so the agent supplies it. */
    public record Unsourced() implements ValueSource {
    }

    /**
     * The argument's values were traced to earlier results, and to the customer's words.
     *
     * @param wholeList whether the value is a whole list taken from a result
     * @param values    how many values were traced
     * @param found     each result and path a value was found at, in file order
     * @param said      the shapes of the values the customer said and no earlier result held
     *                  ({@code bindings.said}, format 3), in file order; empty without
     */
    public record Traced(boolean wholeList, long values, List<Found> found, List<Said> said) implements ValueSource {

        /** Copies the lists. */
        public Traced {
            found = List.copyOf(found);
            said = List.copyOf(said);
        }

        /**
         * Values traced to earlier results only.
         *
         * @param wholeList whether the value is a whole list taken from a result
         * @param values    how many values were traced
         * @param found     each result and path a value was found at, in file order
         */
        public Traced(boolean wholeList, long values, List<Found> found) {
            this(wholeList, values, found, List.of());
        }

        /**
         * Whether the flow can bind the argument: some path was found, or some shape said,
         * often enough.
         *
         * @return false when the agent supplies it (the flow never looks the tool up)
         */
        public boolean bindable() {
            return found.stream().anyMatch(Found::usable) || said.stream().anyMatch(Said::usable);
        }
    }

    /**
     * The shape of values the customer said.
     *
     * @param shape  the shape: the values with every ASCII digit a {@code 9}
     * @param count  how many of the argument's values the customer said in that shape
     * @param usable whether that is often enough to bind the customer's words of that shape
     */
    public record Said(String shape, long count, boolean usable) {
    }

    /**
     * Where traced values were found.
     *
     * @param tool   the earlier tool
     * @param path   the path in its result
     * @param count  how many of the values were there
     * @param usable whether that is often enough to bind from
     */
    public record Found(String tool, String path, long count, boolean usable) {
    }

    /**
     * How often the flow's binding matched the agent.
     *
     * @param unmentioned when the customer had not named the value
     * @param mentioned   when they had
     */
    public record Agreement(Tally unmentioned, Tally mentioned) {
    }

    /**
     * Matches of the binding.
     *
     * @param agreed how often it matched
     * @param calls  of how many calls
     */
    public record Tally(long agreed, long calls) {

        /**
         * The chance of a match.
         *
         * @return (agreed + 1) / (calls + 2)
         */
        public double chance() {
            return (agreed + 1.0) / (calls + 2.0);
        }
    }

    /**
     * Lookups used of picks.
     *
     * @param used  picks whose lookup the agent used
     * @param picks picks made
     */
    public record Picks(long used, long picks) {
    }

    /**
     * How the flow decides.
     *
     * @param byDefault  the decider it is served with unless another is asked for
     * @param reach      whether it has reach counts (so it can be served with reach)
     * @param thresholds per-site thresholds (above 1 switches a site off), by site in byte order
     * @param lookups    thresholds of single lookups at single sites by case (format 3; above 1
     *                   never makes the lookup), in the file's order
     */
    public record Deciding(DeciderKind byDefault, boolean reach, Map<String, Double> thresholds,
                           List<LookupThreshold> lookups) {

        /** Copies the thresholds, keeping their order. */
        public Deciding {
            Objects.requireNonNull(byDefault, "byDefault");
            thresholds = Collections.unmodifiableMap(new LinkedHashMap<>(thresholds));
            lookups = List.copyOf(lookups);
        }
    }

    /**
     * The threshold of one lookup at one site in one case.
     *
     * @param site      the site
     * @param tool      the lookup
     * @param when      the case: {@code mentioned} (the customer mentioned the values it would
     *                  pass), {@code after_mention} (else, the result just before showed a new
     *                  value the customer mentioned) or {@code unmentioned}; the first two
     *                  may carry the verb of a write the customer said the mention with
     *                  ({@code mentioned:exchange})
     * @param threshold the threshold
     */
    public record LookupThreshold(String site, String tool, String when, double threshold) {
    }

    /**
     * The arbiter: the System-One model asked at each decision, and the folds that weigh its
     * answers.
     *
     * @param model      the model it asks
     * @param cases      the held-out decisions it was fitted on
     * @param predicates the yes/no questions asked with each next-step question
     * @param folds      the fitted models (five; often identical)
     */
    public record Arbiter(String model, long cases, List<Question> predicates, List<Fold> folds) {

        /** Copies the lists. */
        public Arbiter {
            predicates = List.copyOf(predicates);
            folds = List.copyOf(folds);
        }
    }

    /**
     * A predicate: a yes/no question the arbiter asks.
     *
     * @param id         its id
     * @param weighed    whether the arbiter weighs its answer (else it is only asked)
     * @param favorsName what a yes favors when it is not one lookup: {@code same_lookup} (the
     *                   lookup just made, again), {@code any_lookup}, or a name for handing
     *                   back; null when it favors {@link #favorsTool}
     * @param favorsTool the lookup a yes favors, or null
     * @param question   the question
     */
    public record Question(String id, boolean weighed, String favorsName, String favorsTool, String question) {
    }

    /**
     * One fitted model of the arbiter.
     *
     * @param weights the weights
     * @param agree   the share of decisions it agreed with the agent on
     * @param cover   the share where its choice was offered
     * @param sites   the rates at each site
     */
    public record Fold(List<Double> weights, double agree, double cover, List<SiteRates> sites) {

        /** Copies the lists. */
        public Fold {
            weights = List.copyOf(weights);
            sites = List.copyOf(sites);
        }
    }

    /**
     * A fold's rates at one site.
     *
     * @param site      the site
     * @param decisions how many decisions (weighted)
     * @param agreed    how many agreed with the agent
     * @param covered   how many offered the agent's choice
     */
    public record SiteRates(String site, double decisions, double agreed, double covered) {
    }

    /**
     * What {@code flow} holds.
     *
     * @param flow a flow of this package
     * @return the view
     * @throws IllegalArgumentException when a program made the flow itself
     */
    public static FlowView of(Flow flow) {
        dev.stretto.proxy.flow.model.Flow f = dev.stretto.proxy.flow.model.Flow.of(flow);
        List<Tool> tools = new ArrayList<>();
        f.manifest().tools().forEach((name, kind) -> tools.add(new Tool(name, kind, f.contracts().get(name))));
        return new FlowView(f.manifest().domain(), f.format(), f.provenance(), tools, sites(f.sites()),
                lookups(f.bindings()), new Deciding(DeciderChoice.defaultFor(f), f.reach() != null, f.thresholds(),
                        lookupThresholds(f)),
                arbiter(f), f.promoted());
    }

    private static SiteView sites(Sites s) {
        List<Site> sites = new ArrayList<>();
        s.next().forEach((site, lookups) -> sites.add(new Site(site.name(), lookups)));
        List<Feed> feeds = new ArrayList<>();
        s.feeds().forEach((lookup, fed) -> {
            List<Fed> args = new ArrayList<>();
            fed.forEach((feed, n) -> args.add(new Fed(feed.write(), feed.argument(), n)));
            feeds.add(new Feed(lookup, args));
        });
        return new SiteView(s.everyRead(), sites, feeds);
    }

    private static List<Lookup> lookups(Bindings b) {
        List<Lookup> lookups = new ArrayList<>();
        b.args().forEach((tool, counts) -> {
            List<String> required = counts.required();
            List<Argument> arguments = new ArrayList<>();
            counts.passed().forEach((arg, n) -> {
                boolean req = required.contains(arg);
                arguments.add(new Argument(arg, req, n, req ? source(b, tool, arg) : null));
            });
            Bindings.Agreed agreed = b.agreed().get(tool);
            lookups.add(new Lookup(tool, counts.calls(), arguments, b.bare().get(tool), agreed == null ? null
                    : new Agreement(tally(agreed.unmentioned()), tally(agreed.mentioned())),
                    picks(b.namedOther().get(tool)), picks(b.describedRead().get(tool))));
        });
        return lookups;
    }

    private static ValueSource source(Bindings b, String tool, String arg) {
        JsonNode constant = b.constant(tool, arg);
        if (constant != null) {
            return new Always(constant);
        }
        Bindings.ToolArg key = new Bindings.ToolArg(tool, arg);
        Bindings.Traced list = b.lists().get(key);
        Bindings.Traced traced = list != null ? list : b.sources().get(key);
        if (traced == null) {
            return new Unsourced();
        }
        List<Bindings.SourcePath> usable = traced.usable();
        List<Found> found = new ArrayList<>();
        traced.found().forEach((src, n) -> found.add(new Found(src.tool(), src.path(), n, usable.contains(src))));
        Bindings.Said shapes = list != null ? null : b.said().get(key);
        List<Said> said = new ArrayList<>();
        if (shapes != null) {
            List<String> usableShapes = shapes.usable();
            shapes.shapes().forEach((shape, n) -> said.add(new Said(shape, n, usableShapes.contains(shape))));
        }
        return new Traced(list != null, traced.values(), found, said);
    }

    private static Tally tally(Bindings.Tally t) {
        return new Tally(t.agreed(), t.calls());
    }

    private static Picks picks(Bindings.UsedPicks p) {
        return p == null ? null : new Picks(p.used(), p.picks());
    }

    private static Arbiter arbiter(dev.stretto.proxy.flow.model.Flow f) {
        if (!f.hasArbiter()) {
            return null;
        }
        List<Question> predicates = new ArrayList<>();
        for (dev.stretto.proxy.flow.model.Predicate p : f.predicates()) {
            String name = p.favors() instanceof dev.stretto.proxy.flow.model.Predicate.Named n ? n.name() : null;
            String tool = p.favors() instanceof dev.stretto.proxy.flow.model.Predicate.Lookup l ? l.tool() : null;
            predicates.add(new Question(p.id(), f.weighed().contains(p), name, tool, p.question()));
        }
        List<Fold> folds = new ArrayList<>();
        for (dev.stretto.proxy.flow.model.Fold fold : f.folds()) {
            List<SiteRates> rates = new ArrayList<>();
            fold.rates().sites().forEach(s -> rates.add(new SiteRates(s.site(), s.decisions(), s.agreed(),
                    s.covered())));
            folds.add(new Fold(fold.weights(), fold.rates().agree(), fold.rates().cover(), rates));
        }
        return new Arbiter(f.model(), f.provenance().arbiterCases(), predicates, folds);
    }

    private static List<LookupThreshold> lookupThresholds(dev.stretto.proxy.flow.model.Flow f) {
        List<LookupThreshold> out = new ArrayList<>();
        f.lookupThresholds().values().forEach((site, tools) -> tools.forEach((tool, cases) -> cases.forEach(
                (when, t) -> out.add(new LookupThreshold(site, tool, when.wireName(), t)))));
        return out;
    }
}
