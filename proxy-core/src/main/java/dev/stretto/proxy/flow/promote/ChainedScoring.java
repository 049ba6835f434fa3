package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.function.Function;

/**
 * Promotion's scoring, newest version (stretto-learn 6.3). At each tool result that something
 * follows, the flow decides as it would have when the result arrived: on the episode cut at
 * that call, with the turn's calls the host had already sent but not yet seen answered
 * pending. Each decision at a site counts; a lookup counts, and is used when the agent made
 * the same call (same tool, every bound argument the same text) in a later turn. When it was
 * used and the agent's call has a result, the flow goes on as if it had made the lookup
 * itself, with the agent's result, and decides again at the lookup's site, up to
 * {@code --per-call} lookups, but only through the sites of the chain set.
 */
final class ChainedScoring {

    private final Function<Episode, Decider> deciders;
    private final int perCall;

    ChainedScoring(Function<Episode, Decider> deciders, int perCall) {
        this.deciders = deciders;
        this.perCall = perCall;
    }

    /**
     * Scores the sessions.
     *
     * @param chain the sites whose lookups the flow goes on after, or null for every site
     */
    Scores score(List<ScoredSession> sessions, Set<String> chain) throws InterruptedException {
        Scores scores = new Scores();
        for (ScoredSession s : sessions) {
            score(s, chain, scores);
            scores.scored();
        }
        return scores;
    }

    private void score(ScoredSession session, Set<String> chain, Scores scores) throws InterruptedException {
        Episode episode = session.episode();
        Decider decider = deciders.apply(episode);
        List<Event> events = episode.events();
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Event.ToolResult r) {
                results.putIfAbsent(r.callId(), r);
            }
        }
        for (int i = 0; i + 1 < events.size(); i++) {
            if (!(events.get(i) instanceof Event.ToolResult r)) {
                continue;
            }
            int t = EpisodeCut.turnOf(events, i, r.callId());
            if (t < 0) {
                continue;
            }
            Episode prefix = new Episode(episode.id(), episode.taskId(), episode.trial(), episode.domain(),
                    episode.agentModel(), episode.reward(), events.subList(0, i + 1));
            Optional<EpisodeCut> view = EpisodeCut.afterCall(prefix, r.callId());
            if (view.isEmpty()) {
                continue;
            }
            List<String> turnCalls = ((Event.Assistant) events.get(t)).calls().stream().map(ToolCall::id).toList();
            Set<String> ofTurn = new HashSet<>(turnCalls);
            int back = 0;
            for (Event e : events.subList(t + 1, i + 1)) {
                if (e instanceof Event.ToolResult tr && ofTurn.contains(tr.callId())) {
                    back++;
                }
            }
            int seen = back;
            List<ToolCall> pending = view.get().pending().stream()
                    .filter(c -> session.answeredBefore(c.id(), turnCalls) < seen).toList();
            List<ToolCall> later = Scores.agentCalls(events.subList(t + 1, events.size()), session.lookups());
            chain(new EpisodeCut(view.get().episode(), pending), later, results, decider, episode.taskId(), chain,
                    scores);
        }
    }

    private void chain(EpisodeCut start, List<ToolCall> later, Map<String, Event.ToolResult> results,
                       Decider decider, String task, Set<String> chain, Scores scores) throws InterruptedException {
        EpisodeCut cut = start;
        int chained = 0;
        while (true) {
            if (!(decider.decide(cut) instanceof Decider.Decided(Decision d))) {
                scores.unanswered();
                return;
            }
            if (d.site() == null) {
                return;
            }
            SiteTally site = scores.site(d.site());
            site.decided();
            if (!d.lookup()) {
                return;
            }
            site.lookedUp(task);
            ToolCall made = BindingView.firstMaking(later, d.tool(), d.arguments());
            if (made == null) {
                return;
            }
            site.used();
            Event.ToolResult result = results.get(made.id());
            if (result == null || chained >= perCall || (chain != null && !chain.contains(d.site()))) {
                return;
            }
            chained++;
            // The flow goes on as if it had made the lookup itself, with the agent's result.
            cut = cut.withAnswered(new ToolCall("stretto-" + chained, d.tool(), d.arguments()), result.error(),
                    result.content());
        }
    }
}
