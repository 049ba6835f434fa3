package dev.stretto.proxy.flow.file;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.proxy.flow.FlowFormatException;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.proxy.flow.Provenance;
import dev.stretto.proxy.flow.model.Action;
import dev.stretto.proxy.flow.model.Backoff;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Counts;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.model.Habit;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.model.Program;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.manifest.Manifest;
import dev.stretto.trace.manifest.ToolKind;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.function.Supplier;

/** Reads a flow's JSON into the model, with the checks of a flow's load. */
final class FlowReader {

    private static final JsonNode STANDARD_PROGRAM = CanonicalJson.parse(Program.STANDARD_JSON);

    private FlowReader() {
    }

    static Flow read(String json) throws FlowFormatException {
        JsonNode root;
        try {
            root = CanonicalJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw new FlowFormatException("not a stretto flow: it is not JSON (" + e.getMessage() + ")");
        }
        if (!root.isObject()) {
            throw new FlowFormatException("not a stretto flow: it is not a JSON object");
        }
        JsonNode version = root.get("stretto_flow");
        if (version == null) {
            throw new FlowFormatException("not a stretto flow: it has no \"stretto_flow\" version field");
        }
        if (!version.isIntegralNumber()) {
            throw new FlowFormatException("not a stretto flow: its \"stretto_flow\" version is not a whole number");
        }
        if (!version.canConvertToInt() || version.intValue() < 1 || version.intValue() > 3) {
            throw new FlowFormatException("flow format " + version.asText() + " is not supported (this build reads 1 to 3)");
        }
        try {
            return flow(new Tree(root, ""), version.intValue());
        } catch (Tree.Bad e) {
            throw new FlowFormatException(e.getMessage());
        }
    }

    private static Flow flow(Tree t, int format) {
        Provenance provenance = provenance(t.field("provenance"));
        List<Action> vocab = t.field("vocab").list().stream().map(FlowReader::action).toList();
        FlowManifest manifest = manifest(t.field("manifest"));
        FeatureMap map = featureMap(t.field("map"));
        long group = t.field("group").count();
        Habit habit = habit(t.field("habit"));
        Sites sites = sites(t.field("sites"));
        List<Predicate> predicates = t.field("predicates").list().stream().map(FlowReader::predicate).toList();
        List<Predicate> weighed = t.field("weighed").list().stream().map(FlowReader::predicate).toList();
        List<Fold> folds = t.field("folds").list().stream().map(FlowReader::fold).toList();
        Bindings bindings = bindings(t.field("bindings"));
        String model = t.field("model").string();
        Program program = program(t.optional("program"));
        Tree p = t.optional("promoted");
        Promoted promoted = p == null ? null : promoted(p);
        Map<String, Double> thresholds = stringMap(t.optional("thresholds"), Tree::number);
        Map<String, String> contracts = stringMap(t.optional("contracts"), Tree::string);
        Tree r = t.optional("reach");
        Backoff reach = r == null ? null : backoff(r);
        LookupThresholds lookupThresholds = lookupThresholds(t.optional("lookup_thresholds"));
        List<String> v2 = Flow.format2Fields(bindings, thresholds);
        if (format == 1 && !v2.isEmpty()) {
            throw new Tree.Bad("the flow is marked format 1 but carries " + String.join(", ", v2)
                    + ", which need format 2");
        }
        List<String> v3 = Flow.format3Fields(bindings, lookupThresholds);
        if (format < 3 && !v3.isEmpty()) {
            throw new Tree.Bad("the flow is marked format " + format + " but carries " + String.join(", ", v3)
                    + ", which need format 3");
        }
        return make(t, () -> new Flow(format, provenance, vocab, manifest, map, group, habit, sites, predicates,
                weighed, folds, bindings, model, program, promoted, thresholds, contracts, reach, lookupThresholds));
    }

    /** {@code {site: {lookup: {case: threshold}}}}, absent for none. */
    private static LookupThresholds lookupThresholds(Tree t) {
        if (t == null) {
            return LookupThresholds.NONE;
        }
        Map<String, Map<String, Map<LookupThresholds.When, Double>>> values = stringMap(t,
                site -> stringMap(site, tool -> {
                    Map<LookupThresholds.When, Double> cases = new LinkedHashMap<>();
                    stringMap(tool, Tree::number).forEach((name, v) -> {
                        LookupThresholds.When c = LookupThresholds.When.ofWireName(name);
                        if (c == null) {
                            throw new Tree.Bad(tool.path() + ": a case is mentioned, after_mention or unmentioned, the"
                                    + " first two with :<verb> (1 to " + LookupThresholds.When.MAX_VERB
                                    + " letters a to z), not " + CanonicalJson.write(TextNode.valueOf(name)));
                        }
                        cases.put(c, v);
                    });
                    return cases;
                }));
        return make(t, () -> new LookupThresholds(values));
    }

    /** Runs a model constructor, turning its refusal into a shape error at {@code where}. */
    private static <T> T make(Tree where, Supplier<T> constructor) {
        try {
            return constructor.get();
        } catch (IllegalArgumentException | NullPointerException e) {
            throw new Tree.Bad((where.path().isEmpty() ? "the flow" : where.path()) + ": " + e.getMessage());
        }
    }

    static Provenance provenance(Tree t) {
        Tree conventions = t.optional("conventions");
        return new Provenance(t.field("stretto").string(),
                t.field("sources").list().stream().map(Tree::string).toList(),
                t.field("habit_episodes").count(), t.field("arbiter_cases").count(),
                t.field("compiled_unix_ms").count(), conventions == null ? null : conventions.string());
    }

    private static Action action(Tree t) {
        JsonNode n = t.node();
        if (n.isTextual() && n.textValue().equals("Respond")) {
            return Action.RESPOND;
        }
        if (n.isObject() && n.size() == 1 && n.has("Tool")) {
            return new Action.Tool(t.field("Tool").string());
        }
        throw t.bad("\"Respond\" or {\"Tool\": name}");
    }

    private static FlowManifest manifest(Tree t) {
        Map<String, ToolKind> tools = stringMap(t.field("tools"), k -> {
            try {
                return ToolKind.ofWireName(k.string());
            } catch (IllegalArgumentException e) {
                throw k.bad("read, write or generic");
            }
        });
        Map<String, Manifest.ToolDoc> docs = stringMap(t.optional("docs"),
                d -> new Manifest.ToolDoc(d.field("summary").string(), stringMap(d.optional("args"), Tree::string)));
        return new FlowManifest(t.field("domain").string(), tools, docs);
    }

    private static FeatureMap featureMap(Tree t) {
        Map<String, List<FeatureMap.Field>> fields = stringMap(t.field("fields"),
                l -> l.list().stream().map(FlowReader::featureField).toList());
        Map<FeatureMap.Key, Integer> ids = pairs(t.field("ids"), k -> {
            List<Tree> kv = k.tuple(2, "[tool, [value, ...]]");
            return new FeatureMap.Key(kv.get(0).string(), kv.get(1).list().stream().map(Tree::string).toList());
        }, Tree::smallCount);
        return make(t, () -> new FeatureMap(fields, ids));
    }

    private static FeatureMap.Field featureField(Tree t) {
        JsonNode n = t.node();
        if (n.isObject() && n.size() == 1 && n.has("Scalar")) {
            return new FeatureMap.Scalar(t.field("Scalar").string());
        }
        if (n.isObject() && n.size() == 1 && n.has("Len")) {
            return new FeatureMap.Len(t.field("Len").string());
        }
        throw t.bad("{\"Scalar\": path} or {\"Len\": path}");
    }

    private static Habit habit(Tree t) {
        Backoff base = backoff(t.field("base"));
        double beta = t.field("beta").number();
        Map<Habit.GroupContext, Counts> top = pairs(t.field("top"), k -> {
            List<Tree> kv = k.tuple(2, "[group, [symbol, ...]]");
            return new Habit.GroupContext(kv.get(0).count(), symbols(kv.get(1)));
        }, FlowReader::counts);
        return make(t, () -> new Habit(base, beta, top));
    }

    private static Backoff backoff(Tree t) {
        int order = t.field("order").smallCount();
        double alpha = t.field("alpha").number();
        int vocabSize = t.field("vocab_size").smallCount();
        List<Map<List<Long>, Counts>> levels = new ArrayList<>();
        for (Tree level : t.field("levels").list()) {
            levels.add(pairs(level, FlowReader::symbols, FlowReader::counts));
        }
        return make(t, () -> new Backoff(order, alpha, vocabSize, levels));
    }

    private static List<Long> symbols(Tree t) {
        return t.list().stream().map(Tree::count).toList();
    }

    private static Counts counts(Tree t) {
        Map<Integer, Double> byAction = pairs(t.field("by_action"), Tree::smallCount, Tree::number);
        return new Counts(byAction, t.field("total").number());
    }

    private static Sites sites(Tree t) {
        List<String> reads = t.field("reads").list().stream().map(Tree::string).toList();
        Map<Sites.Site, Map<String, Long>> next = pairs(t.field("next"), k -> {
            List<Tree> kv = k.tuple(2, "[tool, failed]");
            return new Sites.Site(kv.get(0).string(), kv.get(1).bool());
        }, v -> stringMap(v, Tree::count));
        Map<String, Map<Sites.Feed, Long>> feeds = stringMap(t.field("feeds"), f -> pairs(f, k -> {
            List<Tree> kv = k.tuple(2, "[write, argument]");
            return new Sites.Feed(kv.get(0).string(), kv.get(1).string());
        }, Tree::count));
        Tree everyRead = t.optional("every_read");
        return new Sites(reads, next, feeds, everyRead != null && everyRead.bool());
    }

    static Predicate predicate(Tree t) {
        Tree f = t.field("favors");
        Predicate.Favors favors;
        if (f.node().isTextual()) {
            favors = make(f, () -> new Predicate.Named(f.string()));
        } else if (f.node().isObject() && f.node().size() == 1 && f.node().has("lookup")) {
            favors = new Predicate.Lookup(f.field("lookup").string());
        } else {
            throw f.bad("\"same_lookup\", \"any_lookup\", \"hand_back\" or {\"lookup\": tool}");
        }
        return new Predicate(t.field("id").string(), favors, t.field("question").string(), t.field("yes").string(),
                t.field("no").string());
    }

    static Fold fold(Tree t) {
        List<Double> weights = t.field("weights").list().stream().map(Tree::number).toList();
        Tree r = t.field("rates");
        List<Fold.SiteRates> sites = new ArrayList<>();
        for (Tree s : r.field("sites").list()) {
            List<Tree> kv = s.tuple(2, "[site, [decisions, agreed, covered]]");
            List<Tree> n = kv.get(1).tuple(3, "[decisions, agreed, covered]");
            sites.add(new Fold.SiteRates(kv.get(0).string(), n.get(0).number(), n.get(1).number(), n.get(2).number()));
        }
        return new Fold(weights, new Fold.Rates(sites, r.field("agree").number(), r.field("cover").number()));
    }

    private static Bindings bindings(Tree t) {
        Map<String, Bindings.ArgCounts> args = stringMap(t.field("args"), a -> {
            List<Tree> kv = a.tuple(2, "[calls, {argument: calls}]");
            return new Bindings.ArgCounts(kv.get(0).count(), stringMap(kv.get(1), Tree::count));
        });
        Map<Bindings.ToolArg, Bindings.Traced> sources = pairs(t.field("sources"), FlowReader::toolArg,
                FlowReader::traced);
        Map<String, Bindings.Agreed> agreed = stringMap(t.field("agreed"), a -> {
            List<Tree> kv = a.tuple(2, "[[agreed, calls], [agreed, calls]]");
            return new Bindings.Agreed(tally(kv.get(0)), tally(kv.get(1)));
        });
        Map<String, Bindings.UsedPicks> namedOther = stringMap(t.optional("named_other"), FlowReader::usedPicks);
        Map<String, Bindings.UsedPicks> describedRead = stringMap(t.optional("described_read"), FlowReader::usedPicks);
        List<Bindings.SiteSource> siteSources = new ArrayList<>();
        Tree ss = t.optional("site_sources");
        if (ss != null) {
            for (Tree s : ss.list()) {
                List<Tree> source = s.field("source").tuple(2, "[tool, path]");
                siteSources.add(new Bindings.SiteSource(s.field("tool").string(), s.field("arg").string(),
                        s.field("site").string(), new Bindings.SourcePath(source.get(0).string(), source.get(1).string()),
                        s.field("values").count()));
            }
        }
        Tree l = t.optional("lists");
        Map<Bindings.ToolArg, Bindings.Traced> lists = l == null ? Map.of() : pairs(l, FlowReader::toolArg,
                FlowReader::traced);
        Map<String, Long> bare = stringMap(t.optional("bare"), Tree::count);
        Tree c = t.optional("constants");
        Map<Bindings.ToolArg, JsonNode> constants = c == null ? Map.of() : pairs(c, FlowReader::toolArg, Tree::node);
        Tree s = t.optional("said");
        Map<Bindings.ToolArg, Bindings.Said> said = s == null ? Map.of() : pairs(s, FlowReader::toolArg,
                FlowReader::said);
        return new Bindings(args, sources, agreed, namedOther, describedRead, siteSources, lists, bare, constants,
                said);
    }

    /** {@code {"values": n, "shapes": [[shape, n], ...]}}. */
    private static Bindings.Said said(Tree t) {
        long values = t.field("values").count();
        Map<String, Long> shapes = pairs(t.field("shapes"), Tree::string, Tree::count);
        return make(t, () -> new Bindings.Said(values, shapes));
    }

    private static Bindings.ToolArg toolArg(Tree t) {
        List<Tree> kv = t.tuple(2, "[tool, argument]");
        return new Bindings.ToolArg(kv.get(0).string(), kv.get(1).string());
    }

    private static Bindings.Traced traced(Tree t) {
        Map<Bindings.SourcePath, Long> found = pairs(t.field("found"), k -> {
            List<Tree> kv = k.tuple(2, "[tool, path]");
            return new Bindings.SourcePath(kv.get(0).string(), kv.get(1).string());
        }, Tree::count);
        return new Bindings.Traced(t.field("values").count(), found);
    }

    private static Bindings.Tally tally(Tree t) {
        List<Tree> kv = t.tuple(2, "[agreed, calls]");
        return new Bindings.Tally(kv.get(0).count(), kv.get(1).count());
    }

    private static Bindings.UsedPicks usedPicks(Tree t) {
        List<Tree> kv = t.tuple(2, "[used, picks]");
        return new Bindings.UsedPicks(kv.get(0).count(), kv.get(1).count());
    }

    private static Program program(Tree t) {
        if (t == null) {
            return null;
        }
        if (!t.node().equals(STANDARD_PROGRAM)) {
            throw new Tree.Bad("program: the flow's program is not the standard run that stretto learn writes; this"
                    + " build runs only that program (it is code, so no other is loaded)");
        }
        return Program.STANDARD;
    }

    private static Promoted promoted(Tree t) {
        Tree b = t.field("bar");
        Promoted.Bar bar = new Promoted.Bar(b.field("threshold").number(), b.field("min_used").number(),
                b.field("min_lower").number(), b.field("min_tasks").count());
        Map<String, Promoted.SiteScore> sites = stringMap(t.field("sites"), s -> new Promoted.SiteScore(
                s.field("decisions").count(), s.field("lookups").count(), s.field("used").count(),
                s.field("tasks").count(), s.field("lower").number(), s.field("promoted").bool()));
        return new Promoted(bar, sites);
    }

    /** An object's members as a map, each value read by {@code value}; absent reads as empty. */
    private static <V> Map<String, V> stringMap(Tree t, Function<Tree, V> value) {
        Map<String, V> out = new LinkedHashMap<>();
        if (t == null) {
            return out;
        }
        for (Map.Entry<String, Tree> e : t.members().entrySet()) {
            out.put(e.getKey(), value.apply(e.getValue()));
        }
        return out;
    }

    /** A map written as a list of {@code [key, value]} pairs; a key may appear once. */
    private static <K, V> Map<K, V> pairs(Tree t, Function<Tree, K> key, Function<Tree, V> value) {
        Map<K, V> out = new LinkedHashMap<>();
        for (Tree pair : t.list()) {
            List<Tree> kv = pair.tuple(2, "a [key, value] pair");
            K k = key.apply(kv.get(0));
            if (out.put(k, value.apply(kv.get(1))) != null) {
                throw new Tree.Bad(kv.get(0).path() + ": the key " + CanonicalJson.write(kv.get(0).node())
                        + " appears twice");
            }
        }
        return out;
    }
}
