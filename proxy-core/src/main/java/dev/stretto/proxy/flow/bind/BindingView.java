package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.model.SaidShape;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What the binding rule reads from an episode so far: the successful outputs in order, the
 * customer's words, every call made (with calls still awaiting their result counted as made),
 * and the key-like values the customer or the agent gave before any result held them.
 */
public final class BindingView {

    /**
     * A successful tool output.
     *
     * @param callId the call it answered
     * @param tool   the tool
     * @param parsed the output as {@link ToolOutput#parse} reads it
     */
    public record Output(String callId, String tool, JsonNode parsed) {
    }

    private final List<Event> events;
    private final List<ToolCall> extra;
    private final BindingMemo memo;
    private final BindingMemo.Prefix prefix;
    /** How many of the events, and of the calls made, the prefix read. */
    private final int prefixEvents;
    private final int prefixCalls;
    private final List<Output> outputs;
    private final String customer;
    private final List<ToolCall> made;
    // Made when first asked for, from what the prefix did not read: few decisions need them.
    private Set<String> seenSince;
    private Set<String> givenSince;
    private Map<String, Map<String, Set<String>>> passedSince;
    private Map<String, JsonNode> outputOf;
    /** The new mention of the last result, "" for none; null until asked. */
    private String newMention;
    private List<String> tokens;

    private BindingView(List<Event> events, List<ToolCall> extra, BindingMemo memo, BindingMemo.Prefix prefix,
                        List<Output> outputs, String customer, List<ToolCall> made) {
        this.events = events;
        this.extra = extra;
        this.memo = memo;
        this.prefix = prefix;
        this.prefixEvents = prefix.read.size();
        this.prefixCalls = prefix.made.size();
        this.outputs = Collections.unmodifiableList(outputs);
        this.customer = customer;
        this.made = Collections.unmodifiableList(made);
    }

    /** The view of a cut episode, its pending calls counted as made. */
    public static BindingView of(EpisodeCut cut) {
        return of(cut, new BindingMemo());
    }

    /**
     * The view of a cut episode, its pending calls counted as made, with what {@code memo}
     * kept from earlier views of the same session (the same view as {@link #of(EpisodeCut)}).
     */
    public static BindingView of(EpisodeCut cut, BindingMemo memo) {
        return of(cut.episode().events(), cut.pending(), memo);
    }

    /**
     * The view of {@code events}, with {@code extra} calls counted as made after them (calls of
     * the current turn still awaiting their result).
     */
    public static BindingView of(List<Event> events, List<ToolCall> extra) {
        return of(events, extra, new BindingMemo());
    }

    private static BindingView of(List<Event> events, List<ToolCall> extra, BindingMemo memo) {
        events = List.copyOf(events);
        BindingMemo.Prefix prefix = memo.prefix(events);
        List<Output> outputs = new ArrayList<>(prefix.outputs);
        StringBuilder customer = new StringBuilder(prefix.said);
        List<ToolCall> made = new ArrayList<>(prefix.made);
        for (Event e : events.subList(prefix.read.size(), events.size())) {
            read(e, outputs, customer, made, memo);
        }
        made.addAll(extra);
        return new BindingView(events, List.copyOf(extra), memo, prefix, outputs, customer.toString(), made);
    }

    /** Reads one more event into a view's outputs, customer text and calls. */
    static void read(Event e, List<Output> outputs, StringBuilder customer, List<ToolCall> made, BindingMemo memo) {
        switch (e) {
            case Event.User u -> customer.append(u.text().toLowerCase(java.util.Locale.ROOT)).append('\n');
            case Event.Assistant a -> made.addAll(a.calls());
            case Event.ToolResult r -> {
                if (!r.error()) {
                    outputs.add(new Output(r.callId(), r.name(), memo.parse(r.content())));
                }
            }
        }
    }

    /**
     * Whether a value (lower-cased and trimmed, or a number's JSON text) was given before a
     * result held it: by the customer or the agent, as a key-like argument value.
     */
    public boolean given(String normalValue) {
        if (givenSince == null) {
            seenSince = new HashSet<>();
            givenSince = new HashSet<>();
            for (Event e : events.subList(prefixEvents, events.size())) {
                switch (e) {
                    case Event.User u -> {
                        // Not a value of a call or a result.
                    }
                    case Event.Assistant a -> a.calls().forEach(this::give);
                    case Event.ToolResult r -> {
                        if (!r.error()) {
                            seenSince.addAll(memo.scalars(memo.parse(r.content())));
                        }
                    }
                }
            }
            extra.forEach(this::give);
        }
        return prefix.given(normalValue, prefixEvents) || givenSince.contains(normalValue);
    }

    private void give(ToolCall c) {
        for (String v : memo.keyishArguments(c)) {
            if (!prefix.seen(v, prefixEvents) && !seenSince.contains(v)) {
                givenSince.add(v);
            }
        }
    }

    /** The successful outputs, oldest first. */
    public List<Output> outputs() {
        return outputs;
    }

    /** The output of the call with id {@code callId}, or null when it has none (or failed). */
    public JsonNode outputOf(String callId) {
        if (outputOf == null) {
            outputOf = new HashMap<>();
            outputs.forEach(o -> outputOf.put(o.callId(), o.parsed()));
        }
        return outputOf.get(callId);
    }

    /** The customer's messages, lower-cased, each followed by a newline. */
    public String customer() {
        return customer;
    }

    /** The tokens of {@link #customer()}, in order ({@link SaidShape#tokens}). */
    public List<String> tokens() {
        if (tokens == null) {
            tokens = List.copyOf(SaidShape.tokens(customer));
        }
        return tokens;
    }

    /** Every call made, the pending ones last. */
    public List<ToolCall> made() {
        return made;
    }

    /** Whether the customer mentioned {@code value} ({@link Mentions#mentions} on {@link #customer()}). */
    public boolean mentions(String value) {
        return memo.mentions(customer, value);
    }

    /**
     * Whether the result of the episode's last call shows a value the customer mentioned that
     * no earlier result (but the same result read before) and no call's arguments held: what
     * the customer described has just been found. Values of fewer than four characters do not
     * count; a failed last call shows nothing.
     */
    public boolean showsNewMention() {
        return newMention() != null;
    }

    /**
     * The first value of the last result, in document order, that {@link #showsNewMention()}
     * counts; null when there is none.
     */
    public String newMention() {
        if (newMention == null) {
            String found = findNewMention();
            newMention = found == null ? "" : found;
        }
        return newMention.isEmpty() ? null : newMention;
    }

    private String findNewMention() {
        Event.ToolResult last = null;
        for (int i = events.size() - 1; i >= 0 && last == null; i--) {
            if (events.get(i) instanceof Event.ToolResult r) {
                last = r;
            }
        }
        if (last == null || last.error() || outputs.isEmpty() || !outputs.getLast().callId().equals(last.callId())) {
            return null;
        }
        Set<String> earlier = new HashSet<>();
        JsonNode shown = outputs.getLast().parsed();
        for (Output o : outputs.subList(0, outputs.size() - 1)) {
            // The same result read again (the agent repeating a lookup the flow made) shows it anew.
            if (!o.parsed().equals(shown)) {
                earlier.addAll(memo.scalars(o.parsed()));
            }
        }
        for (ToolCall c : made) {
            JsonPaths.scalars(c.arguments(), earlier);
        }
        for (String v : memo.scalars(outputs.getLast().parsed())) {
            if (v.codePointCount(0, v.length()) >= 4 && !earlier.contains(v) && mentions(v)) {
                return v;
            }
        }
        return null;
    }

    /** The string values at {@code path} in {@code output} ({@link JsonPaths#at}), in document order. */
    public List<JsonPaths.Hit> at(Output output, String path) {
        return memo.at(output.parsed(), path);
    }

    /** Every string under a member named {@code key} in {@code output} ({@link JsonPaths#underKey}). */
    public List<JsonPaths.Hit> underKey(Output output, String key) {
        return memo.underKey(output.parsed(), key);
    }

    /** The tool of the latest output, the site the learned source order is kept for; null before any. */
    public String lastOutputTool() {
        return outputs.isEmpty() ? null : outputs.get(outputs.size() - 1).tool();
    }

    /**
     * Whether one of {@code tool}'s calls passed {@code text} as {@code arg}: the text of the
     * value (a string as it is, anything else as compact JSON).
     */
    public boolean passed(String tool, String arg, String text) {
        if (prefix.passed(tool, arg, text, prefixCalls)) {
            return true;
        }
        if (passedSince == null) {
            passedSince = new HashMap<>();
            for (ToolCall c : made.subList(prefixCalls, made.size())) {
                Map<String, Set<String>> args = passedSince.computeIfAbsent(c.name(), t -> new HashMap<>());
                for (Map.Entry<String, JsonNode> a : c.arguments().properties()) {
                    args.computeIfAbsent(a.getKey(), k -> new HashSet<>()).add(text(a.getValue()));
                }
            }
        }
        return passedSince.getOrDefault(tool, Map.of()).getOrDefault(arg, Set.of()).contains(text);
    }

    /** Whether {@code tool} was called (or is pending) in the episode. */
    public boolean called(String tool) {
        return made.stream().anyMatch(c -> c.name().equals(tool));
    }

    /** A value's text for comparisons: a string as it is, anything else as compact JSON. */
    public static String text(JsonNode v) {
        return v.isTextual() ? v.textValue() : CanonicalJson.write(v);
    }

    /**
     * The first of {@code calls} that makes a lookup the flow bound: the same tool, and every
     * bound argument with the same {@linkplain #text text} (arguments the flow did not bind may
     * differ).
     *
     * @param calls     the calls, in order
     * @param tool      the lookup's tool
     * @param arguments its bound arguments
     * @return the call, or null when none makes it
     */
    public static ToolCall firstMaking(List<ToolCall> calls, String tool, JsonNode arguments) {
        for (ToolCall c : calls) {
            if (!c.name().equals(tool)) {
                continue;
            }
            boolean same = true;
            for (var it = arguments.fields(); it.hasNext() && same; ) {
                var a = it.next();
                JsonNode p = c.arguments().get(a.getKey());
                same = p != null && text(p).equals(text(a.getValue()));
            }
            if (same) {
                return c;
            }
        }
        return null;
    }
}
