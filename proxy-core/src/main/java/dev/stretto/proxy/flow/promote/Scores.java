package dev.stretto.proxy.flow.promote;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.Promoted;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * What one scoring pass counted: each site's tally (only sites the flow decided at), and the
 * decisions left out because the model gave no usable answer. Not thread-safe.
 */
final class Scores {

    private final Map<String, SiteTally> sites = new TreeMap<>(CanonicalJson::compareCodePoints);
    private long unanswered;
    private int episodes;

    SiteTally site(String name) {
        return sites.computeIfAbsent(name, n -> new SiteTally());
    }

    void unanswered() {
        unanswered++;
    }

    void scored() {
        episodes++;
    }

    long unansweredCount() {
        return unanswered;
    }

    int episodes() {
        return episodes;
    }

    /** Each site's record against {@code bar}, sorted by site. */
    Promoted promotion(Promoted.Bar bar) {
        Map<String, Promoted.SiteScore> scores = new LinkedHashMap<>();
        sites.forEach((name, tally) -> scores.put(name, tally.score(bar)));
        return new Promoted(bar, scores);
    }

    /**
     * The first of {@code calls} that makes the lookup: the same tool, and every bound argument
     * with the same text (strings as they are, other values as compact JSON).
     */
    static ToolCall made(List<ToolCall> calls, String tool, JsonNode arguments) {
        for (ToolCall c : calls) {
            if (!c.name().equals(tool)) {
                continue;
            }
            JsonNode passed = c.arguments();
            boolean same = true;
            for (Iterator<Map.Entry<String, JsonNode>> it = arguments.fields(); it.hasNext() && same; ) {
                Map.Entry<String, JsonNode> a = it.next();
                JsonNode p = passed.get(a.getKey());
                same = p != null && BindingView.text(p).equals(BindingView.text(a.getValue()));
            }
            if (same) {
                return c;
            }
        }
        return null;
    }

    /** The agent's calls in {@code events} (the proxy's own lookups left out), in order. */
    static List<ToolCall> agentCalls(List<Event> events, Set<String> lookups) {
        List<ToolCall> calls = new ArrayList<>();
        for (Event e : events) {
            if (e instanceof Event.Assistant a) {
                a.calls().stream().filter(c -> !lookups.contains(c.id())).forEach(calls::add);
            }
        }
        return calls;
    }
}
