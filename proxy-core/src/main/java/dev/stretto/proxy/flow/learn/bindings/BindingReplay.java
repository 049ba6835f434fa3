package dev.stretto.proxy.flow.learn.bindings;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.ByteOrder;
import dev.stretto.proxy.flow.bind.Binder;
import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.bind.Mention;
import dev.stretto.proxy.flow.bind.Pick;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.IntConsumer;

/**
 * The second pass of binding learning: replays the binding rule the proxy will run
 * ({@link Binder}) over the training episodes, to learn how often it reproduces the agent
 * (stretto-learn 3.9.3 and 3.9.6).
 *
 * <ul>
 *   <li>{@code agreed}: before each lookup the agent made, pick that lookup's arguments as
 *       the flow would have (the calls before it in the same turn counted as made), and tally
 *       whether the agent passed the same values, apart for picks whose values the customer
 *       had all mentioned;</li>
 *   <li>{@code named_other} and {@code described_read}: after each successful result, pick
 *       every lookup; for each new pick of that kind, whether the agent later made it.</li>
 * </ul>
 */
public final class BindingReplay {

    private final Bindings learned;
    private final Binder binder;

    /** @param learned the first pass's fields; {@code agreed} and the chances still empty */
    public BindingReplay(Bindings learned) {
        this.learned = learned;
        this.binder = new Binder(learned, false);
    }

    /**
     * The bindings with {@code agreed}, {@code named_other} and {@code described_read}.
     *
     * @param onEpisode told how many episodes are done (for progress)
     */
    public Bindings replay(List<Episode> training, IntConsumer onEpisode) {
        Map<String, long[]> agreed = new HashMap<>();
        Map<String, long[]> namedOther = new HashMap<>();
        Map<String, long[]> describedRead = new HashMap<>();
        int done = 0;
        for (Episode e : training) {
            agree(e.events(), agreed);
            stopUse(e.events(), Mention.OTHER, namedOther);
            stopUse(e.events(), Mention.DESCRIBED, describedRead);
            onEpisode.accept(++done);
        }
        Map<String, Bindings.Agreed> agreedOut = new HashMap<>();
        agreed.forEach((tool, t) -> agreedOut.put(tool,
                new Bindings.Agreed(new Bindings.Tally(t[0], t[1]), new Bindings.Tally(t[2], t[3]))));
        return new Bindings(learned.args(), learned.sources(), agreedOut, usedPicks(namedOther),
                usedPicks(describedRead), learned.siteSources(), learned.lists(), learned.bare(), learned.constants(),
                learned.said());
    }

    /** Tallies {@code [agreed, calls]} without and with every picked value mentioned. */
    private void agree(List<Event> events, Map<String, long[]> agreed) {
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof Event.Assistant a)) {
                continue;
            }
            List<Event> before = events.subList(0, i);
            for (int j = 0; j < a.calls().size(); j++) {
                ToolCall call = a.calls().get(j);
                if (!learned.args().containsKey(call.name())) {
                    continue;
                }
                Pick pick = binder.pick(BindingView.of(before, a.calls().subList(0, j)), call.name(), null);
                if (!(pick instanceof Pick.Bound bound) || bound.arguments().isEmpty()) {
                    continue;
                }
                boolean same = passesAll(call, bound.arguments());
                long[] t = agreed.computeIfAbsent(call.name(), k -> new long[4]);
                int k = bound.mention() == Mention.PICKED ? 2 : 0;
                t[k] += same ? 1 : 0;
                t[k + 1] += 1;
            }
        }
    }

    /**
     * After each successful result, the lookups the rule would pick with {@code kind}: each
     * new pick counts, and counts as used when the agent later made it with those values.
     */
    private void stopUse(List<Event> events, Mention kind, Map<String, long[]> counts) {
        Set<String> seen = new HashSet<>();
        List<String> lookups = learned.args().keySet().stream().sorted(ByteOrder.STRINGS).toList();
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof Event.ToolResult r) || r.error()) {
                continue;
            }
            BindingView view = BindingView.of(events.subList(0, i + 1), List.of());
            for (String tool : lookups) {
                if (!(binder.pick(view, tool, null) instanceof Pick.Bound bound) || bound.mention() != kind) {
                    continue;
                }
                if (!seen.add(tool + "\u0000" + CanonicalJson.write(bound.arguments()))) {
                    continue;
                }
                long[] c = counts.computeIfAbsent(tool, k -> new long[2]);
                c[0] += madeLater(events, i, tool, bound.arguments()) ? 1 : 0;
                c[1] += 1;
            }
        }
    }

    private static boolean madeLater(List<Event> events, int after, String tool, JsonNode bound) {
        for (Event e : events.subList(after + 1, events.size())) {
            if (e instanceof Event.Assistant a) {
                for (ToolCall c : a.calls()) {
                    if (c.name().equals(tool) && passesAll(c, bound)) {
                        return true;
                    }
                }
            }
        }
        return false;
    }

    /** Whether the call passed every bound argument with the same text. */
    private static boolean passesAll(ToolCall call, JsonNode bound) {
        JsonNode args = call.arguments();
        for (Iterator<Map.Entry<String, JsonNode>> it = bound.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> b = it.next();
            JsonNode passed = args.get(b.getKey());
            if (passed == null || !BindingView.text(passed).equals(BindingView.text(b.getValue()))) {
                return false;
            }
        }
        return true;
    }

    private static Map<String, Bindings.UsedPicks> usedPicks(Map<String, long[]> counts) {
        Map<String, Bindings.UsedPicks> out = new HashMap<>();
        counts.forEach((tool, c) -> out.put(tool, new Bindings.UsedPicks(c[0], c[1])));
        return out;
    }
}
