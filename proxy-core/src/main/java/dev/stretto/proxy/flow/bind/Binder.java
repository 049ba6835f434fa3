package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.SaidShape;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The binding rule (the reference's {@code Bindings::pick}, shared by learning and serving):
 * binds a lookup's required arguments to values copied from earlier successful results, and
 * says how likely the binding is the agent's own.
 *
 * <ol>
 *   <li>A tool training never called fails ({@code never called in training}), unless every
 *       read tool is offered everywhere ({@code every_read}): then each argument it requires
 *       is bound by name, to the first string under a member of that name in the outputs,
 *       most recent first, one the customer mentioned first, with chance 0.5.</li>
 *   <li>A tool with no required argument fails ({@code already looked up}) once it was called
 *       (or is pending); else it binds its constants, with chance {@code (bare + 1) / (calls + 2)}
 *       or 1.</li>
 *   <li>Each required argument, in byte order: a constant as learned; a list argument the
 *       whole list at a usable list source of the most recent output not yet passed; a string
 *       argument the first candidate the customer mentioned, else the first, candidates being
 *       the string values at the usable sources' paths, outputs most recent first (or, when
 *       the current site's learned source counts reach 5, sources in that order), skipping
 *       values already passed as that argument and duplicates. With said shapes for the
 *       argument ({@code bindings.said}, format 3), the tokens of the customer's words of a
 *       usable shape follow, bound with the shape's characters, each counted as mentioned (at
 *       most {@value #MAX_SAID}); an argument with usable shapes binds from them even without a
 *       usable source.</li>
 *   <li>Constants fill the arguments still unbound. The chance follows what the customer said:
 *       every picked value mentioned uses {@code agreed[1]}; another value at the sources named
 *       uses {@code named_other}; a sibling's result holding a key the customer gave uses
 *       {@code described_read}; otherwise {@code agreed[0]}.</li>
 * </ol>
 */
public final class Binder {

    /** The chance given to a binding made by argument name, for a lookup training never made. */
    public static final double BY_NAME_CHANCE = 0.5;

    /** The most values the customer said that one argument takes as candidates. */
    public static final int MAX_SAID = 50;

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;

    private final Bindings bindings;
    private final boolean everyRead;

    /** The binding rule of {@code flow}. */
    public Binder(Flow flow) {
        this(flow.bindings(), flow.sites().everyRead());
    }

    /** The binding rule over {@code bindings}; {@code everyRead} allows binding never-made lookups by name. */
    public Binder(Bindings bindings, boolean everyRead) {
        this.bindings = bindings;
        this.everyRead = everyRead;
    }

    /**
     * Binds {@code tool}'s arguments in {@code view}.
     *
     * @param namesIfNeverMade the arguments the tool requires, for a tool training never called
     *                         (from the server's listing or the pinned contract); null when
     *                         unknown
     */
    public Pick pick(BindingView view, String tool, List<String> namesIfNeverMade) {
        Bindings.ArgCounts counts = bindings.args().get(tool);
        if (counts == null) {
            return everyRead && namesIfNeverMade != null ? byName(view, tool, namesIfNeverMade)
                    : new Pick.Unbound("never called in training");
        }
        List<String> required = counts.required();
        if (required.isEmpty()) {
            if (view.called(tool)) {
                return new Pick.Unbound("already looked up");
            }
            ObjectNode args = JSON.objectNode();
            addConstants(tool, args);
            Long bare = bindings.bare().get(tool);
            return new Pick.Bound(args, Mention.PICKED, bare == null ? 1.0 : (bare + 1.0) / (counts.calls() + 2.0));
        }
        ObjectNode args = JSON.objectNode();
        boolean allMentioned = true;
        boolean otherNamed = false;
        boolean described = false;
        String saidAs = null;
        for (String arg : required) {
            JsonNode constant = bindings.constant(tool, arg);
            if (constant != null) {
                args.set(arg, constant);
                continue;
            }
            Bindings.ToolArg key = new Bindings.ToolArg(tool, arg);
            Bindings.Traced list = bindings.lists().get(key);
            if (list != null) {
                ArrayNode values = list(view, tool, arg, list);
                if (values == null) {
                    return new Pick.Unbound(list.usable().isEmpty()
                            ? "no source for the list `" + arg + "` (the LLM supplies it)"
                            : "no list left to pass as `" + arg + "`");
                }
                args.set(arg, values);
                for (JsonNode v : values) {
                    allMentioned &= view.mentions(v.textValue());
                    if (saidAs == null && allMentioned) {
                        saidAs = v.textValue();
                    }
                }
                continue;
            }
            Bindings.Traced sources = bindings.sources().get(key);
            if (sources == null) {
                return new Pick.Unbound("`" + arg + "` never took a string in training");
            }
            List<Bindings.SourcePath> usable = sources.usable();
            Bindings.Said said = bindings.said().get(key);
            List<String> shapes = said == null ? List.of() : said.usable();
            if (usable.isEmpty() && shapes.isEmpty()) {
                return new Pick.Unbound("no source for `" + arg + "` (the LLM supplies it)");
            }
            Candidates found = usable.isEmpty() ? new Candidates(List.of(), false)
                    : candidates(view, tool, arg, usable);
            if (!shapes.isEmpty() && (found.pick() == null || !found.pick().mentioned())) {
                found = found.and(said(view, tool, arg, shapes, found));
            }
            Candidate pick = found.pick();
            if (pick == null) {
                return new Pick.Unbound("nothing left to pass as `" + arg + "`");
            }
            args.put(arg, pick.value());
            if (saidAs == null && pick.mentioned()) {
                saidAs = pick.saidAs();
            }
            if (!pick.mentioned()) {
                allMentioned = false;
                otherNamed |= found.anyMentioned();
                described |= described(view, tool, arg, pick);
            }
        }
        addConstants(tool, args);
        Mention mention = allMentioned ? Mention.PICKED : otherNamed ? Mention.OTHER
                : described ? Mention.DESCRIBED : Mention.NONE;
        return new Pick.Bound(args, mention, chance(tool, mention), allMentioned ? saidAs : null);
    }

    /** The chance of a binding of {@code tool} with {@code mention}. */
    double chance(String tool, Mention mention) {
        Bindings.Agreed agreed = bindings.agreed().get(tool);
        double unmentioned = agreed == null ? new Bindings.Tally(0, 0).chance() : agreed.unmentioned().chance();
        return switch (mention) {
            case PICKED -> agreed == null ? new Bindings.Tally(0, 0).chance() : agreed.mentioned().chance();
            case OTHER -> usedChance(bindings.namedOther().get(tool), unmentioned);
            case DESCRIBED -> usedChance(bindings.describedRead().get(tool), unmentioned);
            case NONE -> unmentioned;
        };
    }

    private static double usedChance(Bindings.UsedPicks counts, double unmentioned) {
        return counts == null ? unmentioned : (counts.used() + 2 * unmentioned) / (counts.picks() + 2.0);
    }

    private void addConstants(String tool, ObjectNode args) {
        for (Map.Entry<Bindings.ToolArg, JsonNode> c : bindings.constants().entrySet()) {
            if (c.getKey().tool().equals(tool) && !args.has(c.getKey().arg())) {
                args.set(c.getKey().arg(), c.getValue());
            }
        }
    }

    /** The whole list at the most recent output's usable list source not yet passed, or null. */
    private static ArrayNode list(BindingView view, String tool, String arg, Bindings.Traced list) {
        List<Bindings.SourcePath> usable = list.usable();
        List<BindingView.Output> outputs = view.outputs();
        for (int i = outputs.size() - 1; i >= 0; i--) {
            BindingView.Output out = outputs.get(i);
            for (Bindings.SourcePath s : usable) {
                if (!s.tool().equals(out.tool())) {
                    continue;
                }
                ArrayNode values = JSON.arrayNode();
                view.at(out, s.path()).forEach(h -> values.add(h.value()));
                if (!values.isEmpty() && !view.passed(tool, arg, CanonicalJson.write(values))) {
                    return values;
                }
            }
        }
        return null;
    }

    /**
     * A value that could be passed.
     *
     * @param value     the value
     * @param saidAs    what the customer mentioned: the value, or a sibling of at least four
     *                  characters; null when neither
     * @param list      every value at the same output and path (the value's list)
     */
    private record Candidate(String value, String saidAs, List<String> list) {
        boolean mentioned() {
            return saidAs != null;
        }
    }

    private record Candidates(List<Candidate> all, boolean anyMentioned) {
        /** These candidates, then {@code more} (all mentioned). */
        Candidates and(List<Candidate> more) {
            List<Candidate> both = new ArrayList<>(all);
            both.addAll(more);
            return new Candidates(both, anyMentioned || !more.isEmpty());
        }

        Candidate pick() {
            for (Candidate c : all) {
                if (c.mentioned()) {
                    return c;
                }
            }
            return all.isEmpty() ? null : all.get(0);
        }
    }

    private Candidates candidates(BindingView view, String tool, String arg, List<Bindings.SourcePath> usable) {
        List<BindingView.Output> recentFirst = new ArrayList<>(view.outputs()).reversed();
        List<Map.Entry<BindingView.Output, Bindings.SourcePath>> order = new ArrayList<>();
        Map<Bindings.SourcePath, Long> atSite = siteCounts(tool, arg, view.lastOutputTool(), usable);
        if (atSite.values().stream().mapToLong(Long::longValue).sum() >= 5) {
            List<Bindings.SourcePath> bySite = new ArrayList<>(usable);
            bySite.sort(Comparator.comparingLong((Bindings.SourcePath s) -> atSite.getOrDefault(s, 0L)).reversed());
            for (Bindings.SourcePath s : bySite) {
                for (BindingView.Output out : recentFirst) {
                    if (out.tool().equals(s.tool())) {
                        order.add(Map.entry(out, s));
                    }
                }
            }
        } else {
            for (BindingView.Output out : recentFirst) {
                for (Bindings.SourcePath s : usable) {
                    if (out.tool().equals(s.tool())) {
                        order.add(Map.entry(out, s));
                    }
                }
            }
        }
        Set<String> taken = new HashSet<>();
        List<Candidate> all = new ArrayList<>();
        boolean anyMentioned = false;
        for (Map.Entry<BindingView.Output, Bindings.SourcePath> e : order) {
            List<JsonPaths.Hit> hits = view.at(e.getKey(), e.getValue().path());
            List<String> list = null;
            for (JsonPaths.Hit h : hits) {
                String saidAs = view.mentions(h.value()) ? h.value() : h.siblings().stream()
                        .filter(s -> s.codePointCount(0, s.length()) >= 4 && view.mentions(s)).findFirst().orElse(null);
                boolean mentioned = saidAs != null;
                anyMentioned |= mentioned;
                if (!view.passed(tool, arg, h.value()) && taken.add(h.value())) {
                    if (list == null) {
                        list = hits.stream().map(JsonPaths.Hit::value).toList();
                    }
                    all.add(new Candidate(h.value(), saidAs, list));
                    if (mentioned) {
                        // The first candidate the customer mentioned is the pick: later ones change nothing.
                        break;
                    }
                }
            }
            if (!all.isEmpty() && all.getLast().mentioned()) {
                break;
            }
        }
        return new Candidates(all, anyMentioned);
    }

    /**
     * The values the customer said of {@code shapes}: each token of the customer's words, in
     * order, bound by the first shape it is of ({@link SaidShape#fill}), skipping values already
     * passed as the argument and those among {@code found}; at most {@link #MAX_SAID}.
     */
    private static List<Candidate> said(BindingView view, String tool, String arg, List<String> shapes,
                                        Candidates found) {
        Set<String> taken = new HashSet<>();
        found.all().forEach(c -> taken.add(c.value()));
        List<Candidate> said = new ArrayList<>();
        for (String token : view.tokens()) {
            for (String shape : shapes) {
                String value = SaidShape.fill(shape, token);
                if (value != null) {
                    if (!view.passed(tool, arg, value) && taken.add(value)) {
                        said.add(new Candidate(value, value, List.of(value)));
                        if (said.size() == MAX_SAID) {
                            return said;
                        }
                    }
                    break;
                }
            }
        }
        return said;
    }

    /** The learned value counts of the usable sources at {@code site}; empty when there is no site. */
    private Map<Bindings.SourcePath, Long> siteCounts(String tool, String arg, String site,
                                                      List<Bindings.SourcePath> usable) {
        Map<Bindings.SourcePath, Long> counts = new HashMap<>();
        if (site == null) {
            return counts;
        }
        for (Bindings.SiteSource s : bindings.siteSources()) {
            if (s.tool().equals(tool) && s.arg().equals(arg) && s.site().equals(site) && usable.contains(s.source())) {
                counts.merge(s.source(), s.values(), Long::sum);
            }
        }
        return counts;
    }

    /**
     * Whether the lookups of other values of the pick's list, already passed as this argument,
     * returned a key the customer gave (key-like, and given before any result held it or
     * mentioned by the customer) that another of those results lacks.
     */
    private static boolean described(BindingView view, String tool, String arg, Candidate pick) {
        Set<String> siblingsUsed = new LinkedHashSet<>();
        for (String v : pick.list()) {
            if (!v.equals(pick.value()) && view.passed(tool, arg, v)) {
                siblingsUsed.add(v);
            }
        }
        if (siblingsUsed.isEmpty()) {
            return false;
        }
        List<Set<String>> results = new ArrayList<>();
        for (ToolCall c : view.made()) {
            JsonNode v = c.name().equals(tool) ? c.arguments().get(arg) : null;
            JsonNode out = v == null ? null : view.outputOf(c.id());
            if (out != null && siblingsUsed.contains(BindingView.text(v))) {
                Set<String> scalars = new HashSet<>();
                JsonPaths.scalars(out, scalars);
                results.add(scalars);
            }
        }
        for (int i = 0; i < results.size(); i++) {
            for (String k : results.get(i)) {
                if (Mentions.keyish(k) && (view.given(k) || view.mentions(k))) {
                    for (int j = 0; j < results.size(); j++) {
                        if (j != i && !results.get(j).contains(k)) {
                            return true;
                        }
                    }
                }
            }
        }
        return false;
    }

    /** The by-name rule for a lookup training never made. */
    private static Pick byName(BindingView view, String tool, List<String> names) {
        List<String> sorted = new ArrayList<>(names);
        sorted.sort(CanonicalJson::compareCodePoints);
        if (sorted.isEmpty()) {
            return view.called(tool) ? new Pick.Unbound("already looked up")
                    : new Pick.Bound(JSON.objectNode(), Mention.PICKED, BY_NAME_CHANCE);
        }
        ObjectNode args = JSON.objectNode();
        boolean allMentioned = true;
        List<BindingView.Output> recentFirst = new ArrayList<>(view.outputs()).reversed();
        for (String name : sorted) {
            Set<String> taken = new HashSet<>();
            List<Candidate> all = new ArrayList<>();
            boolean any = false;
            for (BindingView.Output out : recentFirst) {
                for (JsonPaths.Hit h : view.underKey(out, name)) {
                    any = true;
                    if (!view.passed(tool, name, h.value()) && taken.add(h.value())) {
                        all.add(new Candidate(h.value(), view.mentions(h.value()) ? h.value() : null, List.of()));
                    }
                }
            }
            Candidate pick = new Candidates(all, false).pick();
            if (pick == null) {
                return new Pick.Unbound(any ? "nothing left to pass as `" + name + "`"
                        : "no source for `" + name + "` (the LLM supplies it)");
            }
            args.put(name, pick.value());
            allMentioned &= pick.mentioned();
        }
        return new Pick.Bound(args, allMentioned ? Mention.PICKED : Mention.NONE, BY_NAME_CHANCE);
    }
}
