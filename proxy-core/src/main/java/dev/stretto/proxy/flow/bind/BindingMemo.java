package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.predict.ReadEvents;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;

/**
 * What the binding rule works out about a session's outputs, calls and customer words, kept
 * from one decision to the next so that a decision late in a long session does not read the
 * whole session again: each output parsed once (by its text), the hits at each path and the
 * scalars of each parsed output, the key-like values of each call's arguments, and whether
 * the customer mentioned a value (searched again only in what the customer said since), and
 * what the events before the latest cut's turn hold ({@link Prefix}).
 * Every answer is the one the rule's own functions give; a fresh memo gives a decision made
 * from scratch. Not thread-safe: one per flow session, used by its owner.
 */
public final class BindingMemo {

    private final Map<String, JsonNode> parsed = new HashMap<>();
    private final Map<JsonNode, Map<String, List<JsonPaths.Hit>>> hits = new IdentityHashMap<>();
    private final Map<JsonNode, List<String>> scalars = new IdentityHashMap<>();
    private final Map<JsonNode, Map<String, List<JsonPaths.Hit>>> underKey = new IdentityHashMap<>();
    private final Map<ToolCall, List<String>> keyish = new IdentityHashMap<>();
    /** The customer text the mention states below were searched in. */
    private String customer = "";
    /** Per value: -1 when mentioned, else how much of {@code customer} holds no mention of it. */
    private final Map<String, Integer> mentionSearched = new HashMap<>();

    /**
     * What views read from the events before a cut's turn (the last assistant event), kept
     * while the next cut holds the same event objects there, as the proxy's episode does; a
     * new one when it does not. It only grows, and what it says of its first {@code k} events
     * stays true of them, so a view that read {@code k} of them asks it with {@code k}.
     */
    final class Prefix {
        final ReadEvents read = new ReadEvents();
        final List<BindingView.Output> outputs = new ArrayList<>();
        final StringBuilder said = new StringBuilder();
        final List<ToolCall> made = new ArrayList<>();
        /** Per tool, per argument, each text passed and the index in {@code made} of the first call that did. */
        private final Map<String, Map<String, Map<String, Integer>>> passed = new HashMap<>();
        /** Each scalar of the outputs, and the index of the first event that held it. */
        private final Map<String, Integer> seenAt = new HashMap<>();
        /** Each key-like value a call gave before any result held it, and that call's event index. */
        private final Map<String, Integer> givenAt = new HashMap<>();

        private void add(Event e) {
            int at = read.size();
            int calls = made.size();
            BindingView.read(e, outputs, said, made, BindingMemo.this);
            switch (e) {
                case Event.Assistant a -> {
                    for (int i = calls; i < made.size(); i++) {
                        ToolCall c = made.get(i);
                        Map<String, Map<String, Integer>> args = passed.computeIfAbsent(c.name(), t -> new HashMap<>());
                        for (Map.Entry<String, JsonNode> arg : c.arguments().properties()) {
                            args.computeIfAbsent(arg.getKey(), k -> new HashMap<>())
                                    .putIfAbsent(BindingView.text(arg.getValue()), i);
                        }
                        for (String v : keyishArguments(c)) {
                            if (!seenAt.containsKey(v)) {
                                givenAt.putIfAbsent(v, at);
                            }
                        }
                    }
                }
                case Event.ToolResult r -> {
                    if (!r.error()) {
                        for (String v : scalars(parse(r.content()))) {
                            seenAt.putIfAbsent(v, at);
                        }
                    }
                }
                case Event.User u -> {
                    // Only the customer's words, read above.
                }
            }
            read.add(e);
        }

        /** Whether one of the first {@code calls} calls of {@code tool} passed {@code text} as {@code arg}. */
        boolean passed(String tool, String arg, String text, int calls) {
            Integer first = passed.getOrDefault(tool, Map.of()).getOrDefault(arg, Map.of()).get(text);
            return first != null && first < calls;
        }

        /** Whether one of the first {@code events} events' outputs held {@code value}. */
        boolean seen(String value, int events) {
            Integer first = seenAt.get(value);
            return first != null && first < events;
        }

        /** Whether a call among the first {@code events} events gave {@code value} before a result held it. */
        boolean given(String value, int events) {
            Integer first = givenAt.get(value);
            return first != null && first < events;
        }
    }

    private Prefix prefix = new Prefix();

    /**
     * The reading of {@code events} before their last assistant event, brought up to date:
     * read again from the start when an event read before is not the same object.
     */
    Prefix prefix(List<Event> events) {
        if (!prefix.read.holds(events)) {
            prefix = new Prefix();
            // Calls are kept by identity: those of events that are not the same objects again are dead weight.
            keyish.clear();
        }
        int turn = ReadEvents.turn(events);
        for (int i = prefix.read.size(); i < turn; i++) {
            prefix.add(events.get(i));
        }
        return prefix;
    }

    /** {@link ToolOutput#parse} of {@code content}. */
    JsonNode parse(String content) {
        return parsed.computeIfAbsent(content, ToolOutput::parse);
    }

    /** {@link JsonPaths#at} of {@code path} in {@code output} (a tree this memo parsed). */
    List<JsonPaths.Hit> at(JsonNode output, String path) {
        return hits.computeIfAbsent(output, o -> new HashMap<>()).computeIfAbsent(path, p -> JsonPaths.at(output, p));
    }

    /** {@link JsonPaths#scalars} of {@code output} (a tree this memo parsed), in order. */
    List<String> scalars(JsonNode output) {
        return scalars.computeIfAbsent(output, o -> {
            List<String> out = new ArrayList<>();
            JsonPaths.scalars(o, out);
            return out;
        });
    }

    /** The scalars of {@code call}'s arguments that look like keys ({@link Mentions#keyish}), in order. */
    List<String> keyishArguments(ToolCall call) {
        return keyish.computeIfAbsent(call, c -> {
            List<String> values = new ArrayList<>();
            JsonPaths.scalars(c.arguments(), values);
            values.removeIf(v -> !Mentions.keyish(v));
            return values;
        });
    }

    /** {@link JsonPaths#underKey} of {@code key} in {@code output} (a tree this memo parsed). */
    List<JsonPaths.Hit> underKey(JsonNode output, String key) {
        return underKey.computeIfAbsent(output, o -> new HashMap<>())
                .computeIfAbsent(key, k -> JsonPaths.underKey(output, k));
    }

    /**
     * {@link Mentions#mentions} of {@code value} in {@code text}. When the text only grew since
     * the last call, what was found stays found and only the new part is searched; any other
     * change starts the search over.
     */
    boolean mentions(String text, String value) {
        if (text != customer) {
            if (!text.startsWith(customer)) {
                mentionSearched.clear();
            }
            customer = text;
        }
        Integer searched = mentionSearched.get(value);
        if (searched != null && searched < 0) {
            return true;
        }
        boolean found;
        if (searched == null) {
            found = Mentions.mentions(customer, value);
        } else {
            // Only a mention that reaches into the text added since can be new.
            String bare = Mentions.bare(value);
            found = !bare.isEmpty() && customer.indexOf(bare, Math.max(0, searched - bare.length() + 1)) >= 0;
        }
        mentionSearched.put(value, found ? -1 : customer.length());
        return found;
    }
}
