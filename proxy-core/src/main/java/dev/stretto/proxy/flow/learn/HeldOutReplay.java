package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.bind.Binder;
import dev.stretto.proxy.flow.bind.WriteVerbs;
import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.proxy.flow.decide.DecisionStep;
import dev.stretto.proxy.flow.decide.FlowDecider;
import dev.stretto.proxy.flow.decide.Scorer;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.tools.LiveTools;
import dev.stretto.proxy.flow.tools.ToolGate;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * A flow learned without some sessions, served again on them offline, as the proxy serves it
 * to an agent that makes every call it made: after each of the agent's calls the flow decides
 * (the reach decider, at the threshold of the call's site) and its lookups become part of the
 * session, so that later decisions see them, as the proxy's do. A lookup is <em>used</em> when
 * the agent made the same call later, before its next successful write, and <em>wasted</em>
 * otherwise. After each lookup the flow goes on as if it had made it, up to {@link #PER_CALL}
 * lookups after one call: with the agent's result after a used one; after a wasted one, whose
 * result is not known, with an empty result, so that the lookups it would go on to bind from
 * the results before it (the next of a list) count as well.
 *
 * <p>Decisions are kept by the session as it stood and the threshold, so replaying with other
 * thresholds decides again only where something changed. Not thread-safe.
 */
final class HeldOutReplay {

    /** The most lookups after one call, as served by default ({@code --flow-per-call}). */
    static final int PER_CALL = FlowOptions.DEFAULTS.perCall();
    /** The id prefix of the proxy's own calls in a served session: they are not the agent's. */
    static final String PROXY_IDS = "stretto-";

    /** The lookups one replay proposed at one site, of one tool, in one case. */
    static final class Tally {
        long used;
        long wasted;
    }

    /**
     * Where a tally's lookups were made.
     *
     * @param site   the site
     * @param tool   the lookup
     * @param when   its case ({@link FlowDecider#caseOf})
     */
    record Where(String site, String tool, LookupThresholds.When when) {
    }

    /** A decision, with the case of its lookup (null when it hands back). */
    private record Decided(Decision decision, LookupThresholds.When when) {
    }

    /**
     * One held-out session.
     *
     * @param episode the session
     * @param points  where the flow decides: the indices of the results of the agent's calls
     * @param later   for each point, the agent's calls after its turn, up to its next successful write
     * @param results each call's first result, by id
     */
    private record Session(Episode episode, List<Integer> points, List<List<ToolCall>> later,
                           Map<String, Event.ToolResult> results) {
    }

    private final Flow flow;
    private final Set<String> writes;
    private final List<Session> sessions = new ArrayList<>();
    private final Map<String, FlowDecider> deciders = new HashMap<>();
    private final Map<String, Decided> decided = new HashMap<>();
    private final ToolGate gate;
    private final Binder binder;
    private final WriteVerbs verbs;

    /**
     * @param flow    the flow learned without {@code heldOut}
     * @param heldOut the sessions to serve it on
     * @param writes  the tools that are writes
     */
    HeldOutReplay(Flow flow, List<Episode> heldOut, Set<String> writes) {
        this.flow = flow.withThresholds(Map.of()).withLookupThresholds(LookupThresholds.NONE).withPromoted(null);
        this.writes = writes;
        this.gate = new ToolGate(this.flow, null);
        this.binder = new Binder(this.flow);
        this.verbs = WriteVerbs.of(this.flow.manifest());
        heldOut.forEach(e -> sessions.add(session(e)));
    }

    /** The lookups proposed at each site, with {@code thresholds} by site name and {@code otherwise} elsewhere. */
    Map<Where, Tally> run(Map<String, Double> thresholds, double otherwise) {
        return run(thresholds, otherwise, LookupThresholds.NONE);
    }

    /**
     * The lookups proposed at each site, with {@code thresholds} by site name, {@code
     * otherwise} elsewhere, and {@code lookups} for single lookups.
     */
    Map<Where, Tally> run(Map<String, Double> thresholds, double otherwise, LookupThresholds lookups) {
        Map<Where, Tally> tallies = new HashMap<>();
        for (int s = 0; s < sessions.size(); s++) {
            serve(sessions.get(s), s, thresholds, otherwise, lookups, tallies);
        }
        return tallies;
    }

    private void serve(Session s, int index, Map<String, Double> thresholds, double otherwise,
                       LookupThresholds lookups, Map<Where, Tally> tallies) {
        List<Event> events = s.episode().events();
        List<Event> served = new ArrayList<>();
        StringBuilder key = new StringBuilder().append(index);
        int copied = 0;
        int made = 0;
        for (int p = 0; p < s.points().size(); p++) {
            int i = s.points().get(p);
            served.addAll(events.subList(copied, i + 1));
            copied = i + 1;
            Event.ToolResult r = (Event.ToolResult) events.get(i);
            Optional<EpisodeCut> start = EpisodeCut.afterCall(with(s.episode(), served), r.callId());
            if (start.isEmpty()) {
                continue;
            }
            key.append('|').append(i);
            EpisodeCut cut = start.get();
            String site = site(r.name(), r.error());
            List<ToolCall> later = new ArrayList<>(s.later().get(p));
            for (int n = 0; n < PER_CALL; n++) {
                double threshold = thresholds.getOrDefault(site, otherwise);
                if (threshold > 1) {
                    break;
                }
                Map<String, Map<LookupThresholds.When, Double>> own = lookups.values().getOrDefault(site, Map.of());
                Decided decided = decide(cut, key + "@" + threshold + own, site, threshold, own);
                Decision d = decided.decision();
                if (!d.lookup()) {
                    break;
                }
                Tally t = tallies.computeIfAbsent(new Where(site, d.tool(), decided.when()), k -> new Tally());
                ToolCall agents = BindingView.firstMaking(later, d.tool(), d.arguments());
                Event.ToolResult result = agents == null ? null : s.results().get(agents.id());
                if (agents == null) {
                    t.wasted++;
                } else {
                    t.used++;
                    later.remove(agents);
                }
                ToolCall lookup = new ToolCall(PROXY_IDS + ++made, d.tool(), d.arguments());
                boolean error = result != null && result.error();
                String content = result == null ? "" : result.content();
                cut = cut.withAnswered(lookup, error, content);
                // As the proxy's log has it: each lookup a turn of its own, right after what it follows.
                served.add(new Event.Assistant(null, List.of(lookup), null));
                served.add(new Event.ToolResult(lookup.id(), lookup.name(), error, content));
                key.append('+').append(d.tool()).append(CanonicalJson.write(d.arguments()));
                site = site(d.tool(), error);
            }
        }
    }

    /** The decision at {@code cut}, with {@code threshold} at its site and {@code own} for its lookups there. */
    private Decided decide(EpisodeCut cut, String key, String site, double threshold,
                           Map<String, Map<LookupThresholds.When, Double>> own) {
        Decided d = decided.get(key);
        if (d == null) {
            String config = threshold + "|" + site + own;
            FlowDecider decider = deciders.computeIfAbsent(config, k -> new FlowDecider(
                    own.isEmpty() ? flow : flow.withLookupThresholds(new LookupThresholds(Map.of(site, own))),
                    Scorer.reach(flow), threshold, null, ""));
            DecisionStep step = decider.decide(cut, tool -> gate.requiredArguments(tool, LiveTools.NONE));
            // The reach decider never asks the System-One model.
            Decision decision = ((DecisionStep.Decided) step).decision();
            LookupThresholds.When when = null;
            if (decision.lookup()) {
                BindingView view = BindingView.of(cut);
                when = FlowDecider.caseOf(binder.pick(view, decision.tool(),
                        gate.requiredArguments(decision.tool(), LiveTools.NONE)), view, verbs);
            }
            d = new Decided(decision, when);
            decided.put(key, d);
        }
        return d;
    }

    private static Episode with(Episode e, List<Event> events) {
        return new Episode(e.id(), e.taskId(), e.trial(), e.domain(), e.agentModel(), e.reward(), events);
    }

    /** The places the flow decides at in one session: after each of the agent's calls with a result. */
    private Session session(Episode episode) {
        List<Event> events = episode.events();
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : events) {
            if (e instanceof Event.ToolResult r) {
                results.putIfAbsent(r.callId(), r);
            }
        }
        List<Integer> points = new ArrayList<>();
        List<List<ToolCall>> later = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (!(events.get(i) instanceof Event.ToolResult r) || r.callId().startsWith(PROXY_IDS)
                    || results.get(r.callId()) != r) {
                continue;
            }
            int turn = EpisodeCut.turnOf(events, i, r.callId());
            if (turn >= 0) {
                points.add(i);
                later.add(laterCalls(events, turn, results));
            }
        }
        return new Session(episode, points, later, results);
    }

    /** The agent's calls in the turns after {@code turn}, up to its next successful write. */
    private List<ToolCall> laterCalls(List<Event> events, int turn, Map<String, Event.ToolResult> results) {
        List<ToolCall> later = new ArrayList<>();
        for (Event e : events.subList(turn + 1, events.size())) {
            if (!(e instanceof Event.Assistant a)) {
                continue;
            }
            for (ToolCall c : a.calls()) {
                if (c.id().startsWith(PROXY_IDS)) {
                    continue;
                }
                Event.ToolResult r = results.get(c.id());
                if (writes.contains(c.name())) {
                    if (r != null && !r.error()) {
                        return later;
                    }
                    continue;
                }
                later.add(c);
            }
        }
        return later;
    }

    static String site(String tool, boolean failed) {
        return failed ? tool + " (error)" : tool;
    }
}
