package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.JsonNode;
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

    private final List<Output> outputs;
    private final Map<String, JsonNode> outputOf;
    private final String customer;
    private final List<ToolCall> made;
    private final Set<String> given;

    private BindingView(List<Output> outputs, Map<String, JsonNode> outputOf, String customer, List<ToolCall> made,
                        Set<String> given) {
        this.outputs = List.copyOf(outputs);
        this.outputOf = Collections.unmodifiableMap(outputOf);
        this.customer = customer;
        this.made = List.copyOf(made);
        this.given = Collections.unmodifiableSet(given);
    }

    /** The view of a cut episode, its pending calls counted as made. */
    public static BindingView of(EpisodeCut cut) {
        return of(cut.episode().events(), cut.pending());
    }

    /**
     * The view of {@code events}, with {@code extra} calls counted as made after them (calls of
     * the current turn still awaiting their result).
     */
    public static BindingView of(List<Event> events, List<ToolCall> extra) {
        List<Output> outputs = new ArrayList<>();
        Map<String, JsonNode> outputOf = new HashMap<>();
        StringBuilder customer = new StringBuilder();
        List<ToolCall> made = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        Set<String> given = new HashSet<>();
        for (Event e : events) {
            switch (e) {
                case Event.User u -> customer.append(u.text().toLowerCase(java.util.Locale.ROOT)).append('\n');
                case Event.Assistant a -> {
                    for (ToolCall c : a.calls()) {
                        made.add(c);
                        give(c, seen, given);
                    }
                }
                case Event.ToolResult r -> {
                    if (!r.error()) {
                        JsonNode parsed = ToolOutput.parse(r.content());
                        outputs.add(new Output(r.callId(), r.name(), parsed));
                        outputOf.put(r.callId(), parsed);
                        JsonPaths.scalars(parsed, seen);
                    }
                }
            }
        }
        for (ToolCall c : extra) {
            made.add(c);
            give(c, seen, given);
        }
        return new BindingView(outputs, outputOf, customer.toString(), made, given);
    }

    /** Key-like argument values no result had shown yet: the customer or the agent gave them. */
    private static void give(ToolCall c, Set<String> seen, Set<String> given) {
        List<String> values = new ArrayList<>();
        JsonPaths.scalars(c.arguments(), values);
        for (String v : values) {
            if (Mentions.keyish(v) && !seen.contains(v)) {
                given.add(v);
            }
        }
    }

    /** The successful outputs, oldest first. */
    public List<Output> outputs() {
        return outputs;
    }

    /** The output of the call with id {@code callId}, or null when it has none (or failed). */
    public JsonNode outputOf(String callId) {
        return outputOf.get(callId);
    }

    /** The customer's messages, lower-cased, each followed by a newline. */
    public String customer() {
        return customer;
    }

    /** Every call made, the pending ones last. */
    public List<ToolCall> made() {
        return made;
    }

    /** Whether a value (lower-cased and trimmed, or a number's JSON text) was given before a result held it. */
    public boolean given(String normalValue) {
        return given.contains(normalValue);
    }

    /** The tool of the latest output, the site the learned source order is kept for; null before any. */
    public String lastOutputTool() {
        return outputs.isEmpty() ? null : outputs.get(outputs.size() - 1).tool();
    }

    /**
     * How {@code tool}'s calls passed {@code arg}: the text of each value (a string as it is,
     * anything else as compact JSON).
     */
    public Set<String> used(String tool, String arg) {
        Set<String> used = new HashSet<>();
        for (ToolCall c : made) {
            if (c.name().equals(tool)) {
                JsonNode v = c.arguments().get(arg);
                if (v != null) {
                    used.add(text(v));
                }
            }
        }
        return used;
    }

    /** Whether {@code tool} was called (or is pending) in the episode. */
    public boolean called(String tool) {
        return made.stream().anyMatch(c -> c.name().equals(tool));
    }

    /** A value's text for comparisons: a string as it is, anything else as compact JSON. */
    public static String text(JsonNode v) {
        return v.isTextual() ? v.textValue() : CanonicalJson.write(v);
    }
}
