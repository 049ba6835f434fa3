package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.flow.Promoted;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
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
