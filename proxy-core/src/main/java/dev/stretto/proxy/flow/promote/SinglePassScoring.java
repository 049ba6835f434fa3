package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * Promotion's older single-pass scoring (stretto-learn 6.4, {@code --scoring single-pass}),
 * which scored the promoted flows of the reference's earlier versions. Each turn of several
 * calls is split into one call per turn, each followed by its result. At each tool result
 * that something follows, the flow decides once on the episode up to there (nothing pending,
 * no chaining); the decision counts at its site, a lookup counts, and it is used when the
 * agent made the same call anywhere after that result.
 */
final class SinglePassScoring {

    private final Function<Episode, Decider> deciders;

    SinglePassScoring(Function<Episode, Decider> deciders) {
        this.deciders = deciders;
    }

    Scores score(List<ScoredSession> sessions) throws InterruptedException {
        Scores scores = new Scores();
        for (ScoredSession s : sessions) {
            score(s, scores);
            scores.scored();
        }
        return scores;
    }

    private void score(ScoredSession session, Scores scores) throws InterruptedException {
        Episode e = session.episode();
        Decider decider = deciders.apply(e);
        List<Event> events = split(e.events());
        for (int i = 0; i + 1 < events.size(); i++) {
            if (!(events.get(i) instanceof Event.ToolResult)) {
                continue;
            }
            Episode prefix = new Episode(e.id(), e.taskId(), e.trial(), e.domain(), e.agentModel(), e.reward(),
                    events.subList(0, i + 1));
            if (!(decider.decide(new EpisodeCut(prefix, List.of())) instanceof Decider.Decided(Decision d))) {
                scores.unanswered();
                continue;
            }
            if (d.site() == null) {
                continue;
            }
            SiteTally site = scores.site(d.site());
            site.decided();
            if (!d.lookup()) {
                continue;
            }
            site.lookedUp(e.taskId());
            List<ToolCall> after = Scores.agentCalls(events.subList(i + 1, events.size()), session.lookups());
            if (BindingView.firstMaking(after, d.tool(), d.arguments()) != null) {
                site.used();
            }
        }
    }

    /** The events with each turn of several calls split into one turn per call, each followed by its result. */
    static List<Event> split(List<Event> events) {
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Event.ToolResult r) {
                results.putIfAbsent(r.callId(), r);
            }
        }
        List<Event> out = new ArrayList<>();
        // By identity: two results may be equal records (a reused id) and still be two events.
        Set<Event.ToolResult> moved = Collections.newSetFromMap(new IdentityHashMap<>());
        for (Event e : events) {
            if (e instanceof Event.Assistant a && a.calls().size() > 1) {
                boolean first = true;
                for (ToolCall c : a.calls()) {
                    out.add(new Event.Assistant(first ? a.text() : null, List.of(c), first ? a.usage() : null));
                    first = false;
                    Event.ToolResult r = results.get(c.id());
                    if (r != null && moved.add(r)) {
                        out.add(r);
                    }
                }
            } else if (!(e instanceof Event.ToolResult r && moved.contains(r))) {
                out.add(e);
            }
        }
        return out;
    }
}
