package dev.stretto.proxy.flow.learn.bindings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.proxy.flow.bind.JsonPaths;
import dev.stretto.proxy.flow.bind.Mentions;
import dev.stretto.proxy.flow.bind.ToolOutput;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Bindings.ArgCounts;
import dev.stretto.proxy.flow.model.Bindings.SiteSource;
import dev.stretto.proxy.flow.model.Bindings.SourcePath;
import dev.stretto.proxy.flow.model.Bindings.ToolArg;
import dev.stretto.proxy.flow.model.Bindings.Traced;
import dev.stretto.proxy.flow.model.SaidShape;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.SortedMap;

/**
 * The first pass of binding learning (stretto-learn 3.9.1): walks the training episodes'
 * events and, for each lookup (a call of a read tool), counts its arguments and finds where
 * each string or list of strings it passed had appeared in an earlier successful output of
 * the same episode; with {@code --bind-said}, a string in no earlier output that the
 * customer said as a whole token counts under its shape ({@link SaidShape}).
 * {@link #bindings()} derives the flow's fields (3.9.2).
 */
public final class BindingStats {

    private final Set<String> lookups;
    private final boolean learnConstants;
    private final boolean learnSaid;

    private final Map<String, Long> calls = ByteOrder.map();
    private final Map<String, SortedMap<String, Long>> passed = ByteOrder.map();
    private final Map<String, Long> bareCalls = ByteOrder.map();
    private final Map<ToolArg, Long> valueCounts = new HashMap<>();
    private final Map<ToolArg, Map<SourcePath, Long>> found = new HashMap<>();
    private final Map<ToolArg, Long> listCounts = new HashMap<>();
    private final Map<ToolArg, Map<SourcePath, Long>> listFound = new HashMap<>();
    private final Map<SiteKey, Long> bySite = new HashMap<>();
    private final Map<ToolArg, ConstantSeen> constantSeen = new HashMap<>();
    private final Map<ToolArg, Map<String, Long>> saidShapes = new HashMap<>();
    /** Per argument: the string values it took that no earlier output held, which only the conversation can give. */
    private final Map<ToolArg, Long> unheld = new HashMap<>();
    private final StringBuilder customer = new StringBuilder();

    private record SiteKey(ToolArg arg, String site, SourcePath source) {
    }

    /** The order of {@code site_sources}: lookup, argument, site, then source. */
    static final Comparator<SiteSource> SITE_SOURCE_ORDER = Comparator.comparing(SiteSource::tool, ByteOrder.STRINGS)
            .thenComparing(SiteSource::arg, ByteOrder.STRINGS)
            .thenComparing(SiteSource::site, ByteOrder.STRINGS)
            .thenComparing(ss -> ss.source().tool(), ByteOrder.STRINGS)
            .thenComparing(ss -> ss.source().path(), ByteOrder.STRINGS);

    private static final class ConstantSeen {
        long calls;
        final Set<String> distinct = new HashSet<>();
        JsonNode first;
    }

    /** An output of the episode so far. */
    private record Output(String tool, JsonNode parsed) {
    }

    /**
     * @param lookups        the read tools
     * @param learnConstants whether to learn constant arguments ({@code --constants})
     */
    public BindingStats(Set<String> lookups, boolean learnConstants) {
        this(lookups, learnConstants, false);
    }

    /**
     * @param lookups        the read tools
     * @param learnConstants whether to learn constant arguments ({@code --constants})
     * @param learnSaid      whether to learn the shapes of values the customer said
     *                       ({@code --bind-said})
     */
    public BindingStats(Set<String> lookups, boolean learnConstants, boolean learnSaid) {
        this.lookups = Set.copyOf(lookups);
        this.learnConstants = learnConstants;
        this.learnSaid = learnSaid;
    }

    /** Counts one training episode. */
    public void add(Episode episode) {
        List<Output> outputs = new ArrayList<>();
        // The tokens of the customer's words so far in this episode, lower-cased.
        Set<String> said = new HashSet<>();
        for (Event e : episode.events()) {
            switch (e) {
                case Event.User u -> {
                    String text = u.text().toLowerCase(Locale.ROOT);
                    customer.append(text).append('\n');
                    if (learnSaid) {
                        said.addAll(SaidShape.tokens(text));
                    }
                }
                case Event.ToolResult r -> {
                    if (!r.error()) {
                        outputs.add(new Output(r.name(), ToolOutput.parse(r.content())));
                    }
                }
                case Event.Assistant a -> {
                    String before = null;
                    for (ToolCall c : a.calls()) {
                        if (!lookups.contains(c.name())) {
                            continue;
                        }
                        String site = before != null ? before : outputs.isEmpty() ? null : outputs.getLast().tool();
                        before = c.name();
                        JsonNode arguments = c.arguments();
                        if (arguments.isObject()) {
                            lookup(c.name(), arguments, site, outputs, said);
                        }
                    }
                }
            }
        }
    }

    private void lookup(String tool, JsonNode arguments, String site, List<Output> outputs, Set<String> said) {
        calls.merge(tool, 1L, Long::sum);
        SortedMap<String, Long> p = passed.computeIfAbsent(tool, t -> ByteOrder.map());
        bareCalls.merge(tool, arguments.isEmpty() ? 1L : 0L, Long::sum);
        for (Map.Entry<String, JsonNode> member : StringPaths.sortedMembers(arguments)) {
            String arg = member.getKey();
            JsonNode value = member.getValue();
            ToolArg key = new ToolArg(tool, arg);
            p.merge(arg, 1L, Long::sum);
            ConstantSeen seen = constantSeen.computeIfAbsent(key, k -> new ConstantSeen());
            seen.calls++;
            seen.distinct.add(CanonicalJson.write(value));
            if (seen.first == null) {
                seen.first = value;
            }
            if (isStringList(value)) {
                listCounts.merge(key, 1L, Long::sum);
                Map<SourcePath, Long> f = listFound.computeIfAbsent(key, k -> new HashMap<>());
                SourcePath source = listSource(value, outputs);
                if (source != null) {
                    f.merge(source, 1L, Long::sum);
                }
            } else if (value.isTextual()) {
                valueCounts.merge(key, 1L, Long::sum);
                Map<SourcePath, Long> f = found.computeIfAbsent(key, k -> new HashMap<>());
                SourcePath source = stringSource(value.textValue(), outputs);
                if (source != null) {
                    f.merge(source, 1L, Long::sum);
                    if (site != null) {
                        bySite.merge(new SiteKey(key, site, source), 1L, Long::sum);
                    }
                } else if (learnSaid) {
                    unheld.merge(key, 1L, Long::sum);
                    if (said.contains(value.textValue().toLowerCase(Locale.ROOT)) && SaidShape.isToken(value.textValue())) {
                        saidShapes.computeIfAbsent(key, k -> new HashMap<>())
                                .merge(SaidShape.of(value.textValue()), 1L, Long::sum);
                    }
                }
            }
        }
    }

    static boolean isStringList(JsonNode value) {
        if (!value.isArray() || value.isEmpty()) {
            return false;
        }
        for (JsonNode item : value) {
            if (!item.isTextual()) {
                return false;
            }
        }
        return true;
    }

    /** The most recent output holding the string, at its first path in document order. */
    private static SourcePath stringSource(String value, List<Output> outputs) {
        for (int i = outputs.size() - 1; i >= 0; i--) {
            for (StringPaths.Found h : StringPaths.strings(outputs.get(i).parsed())) {
                if (h.value().equals(value)) {
                    return new SourcePath(outputs.get(i).tool(), h.path());
                }
            }
        }
        return null;
    }

    /**
     * The most recent output with a path that holds the list's first item and whose values
     * there include every item (the first such path in document order).
     */
    private static SourcePath listSource(JsonNode list, List<Output> outputs) {
        String first = list.get(0).textValue();
        for (int i = outputs.size() - 1; i >= 0; i--) {
            JsonNode out = outputs.get(i).parsed();
            Set<String> tried = new LinkedHashSet<>();
            for (StringPaths.Found h : StringPaths.strings(out)) {
                if (h.value().equals(first) && tried.add(h.path())) {
                    Set<String> there = new HashSet<>();
                    JsonPaths.at(out, h.path()).forEach(v -> there.add(v.value()));
                    boolean all = true;
                    for (JsonNode item : list) {
                        all &= there.contains(item.textValue());
                    }
                    if (all) {
                        return new SourcePath(outputs.get(i).tool(), h.path());
                    }
                }
            }
        }
        return null;
    }

    /**
     * The flow's binding fields derived from the counts (3.9.2), with {@code agreed},
     * {@code named_other} and {@code described_read} still empty: they come from replaying
     * the binding rule with these.
     */
    public Bindings bindings() {
        Map<String, ArgCounts> args = new HashMap<>();
        calls.forEach((tool, n) -> args.put(tool, new ArgCounts(n, passed.get(tool))));
        Map<String, Long> bare = new HashMap<>();
        bareCalls.forEach((tool, n) -> {
            ArgCounts a = args.get(tool);
            if (n < a.calls() && a.required().isEmpty()) {
                bare.put(tool, n);
            }
        });
        List<SiteSource> siteSources = new ArrayList<>();
        bySite.forEach((k, n) -> {
            if (found.get(k.arg()).size() > 1) {
                siteSources.add(new SiteSource(k.arg().tool(), k.arg().arg(), k.site(), k.source(), n));
            }
        });
        siteSources.sort(SITE_SOURCE_ORDER);
        Map<ToolArg, JsonNode> constants = new HashMap<>();
        if (learnConstants) {
            String said = customer.toString();
            constantSeen.forEach((key, seen) -> {
                boolean traced = !found.getOrDefault(key, Map.of()).isEmpty()
                        || !listFound.getOrDefault(key, Map.of()).isEmpty();
                if (seen.distinct.size() == 1 && seen.calls >= 5 && 2 * seen.calls >= calls.get(key.tool())
                        && !traced && !customerSaid(seen.first, said)) {
                    constants.put(key, seen.first);
                }
            });
        }
        Map<ToolArg, Bindings.Said> said = new HashMap<>();
        saidShapes.forEach((key, shapes) -> said.put(key, new Bindings.Said(unheld.get(key), shapes)));
        return new Bindings(args, traced(valueCounts, found), Map.of(), Map.of(), Map.of(), siteSources,
                traced(listCounts, listFound), bare, constants, said);
    }

    /** Whether a constant looks like something the customer told the agent (an id, an email). */
    private static boolean customerSaid(JsonNode value, String said) {
        if (!value.isTextual()) {
            return false;
        }
        String v = value.textValue();
        return (Mentions.keyish(v) || v.contains("@")) && Mentions.mentions(said, v);
    }

    private static Map<ToolArg, Traced> traced(Map<ToolArg, Long> values, Map<ToolArg, Map<SourcePath, Long>> found) {
        Map<ToolArg, Traced> out = new HashMap<>();
        values.forEach((key, n) -> out.put(key, new Traced(n, found.get(key))));
        return out;
    }
}
