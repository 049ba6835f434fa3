package dev.stretto.proxy.flow.learn.arbiter;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.flow.predict.Steps;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A decision in a held-out episode (stretto-learn 4.2): at every step after a tool call, what
 * the flow would have been asked there, and what the agent did. The agent's option is its
 * next step's tool when that tool is a read, else {@code respond}.
 *
 * @param episode     the episode's id
 * @param site        the site: the call just made
 * @param offered     the lookups the flow offers there, sorted by name (none: nothing is asked)
 * @param agentOption what the agent did next, as an option
 * @param view        the episode as it stood after the call's result, cut at the call
 */
public record HeldOutDecision(String episode, Sites.Site site, List<String> offered, String agentOption,
                              EpisodeCut view) {

    /** Copies the list. */
    public HeldOutDecision {
        Objects.requireNonNull(site, "site");
        offered = List.copyOf(offered);
        Objects.requireNonNull(agentOption, "agentOption");
        Objects.requireNonNull(view, "view");
    }

    /** The decisions of {@code episode} for {@code flow}, in step order. */
    public static List<HeldOutDecision> of(Episode episode, Flow flow) {
        List<AgentStep> steps = Steps.of(episode);
        List<CallAt> calls = calls(episode);
        List<HeldOutDecision> out = new ArrayList<>();
        int call = 0;
        for (int k = 0; k < steps.size(); k++) {
            AgentStep s = steps.get(k);
            if (s.isRespond()) {
                continue;
            }
            CallAt at = calls.get(call++);
            if (k + 1 >= steps.size()) {
                break;
            }
            AgentStep next = steps.get(k + 1);
            String option = !next.isRespond() && flow.manifest().isRead(next.tool()) ? next.tool() : Predictions.RESPOND;
            Episode prefix = new Episode(episode.id(), episode.taskId(), episode.trial(), episode.domain(),
                    episode.agentModel(), episode.reward(), episode.events().subList(0, at.through() + 1));
            Optional<EpisodeCut> view = EpisodeCut.afterCall(prefix, at.id());
            Sites.Site site = new Sites.Site(s.tool(), s.failed());
            view.ifPresent(v -> out.add(new HeldOutDecision(episode.id(), site, flow.sites().offered(site), option, v)));
        }
        return out;
    }

    /**
     * A call and the last event the episode must hold for a decision right after it: its
     * result, or its own turn when no result came.
     */
    private record CallAt(String id, int through) {
    }

    /** Every call in step order (the order {@link Steps#of(Episode)} reads them in). */
    private static List<CallAt> calls(Episode episode) {
        List<Event> events = episode.events();
        Map<String, Integer> resultAt = new HashMap<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof Event.ToolResult r) {
                resultAt.putIfAbsent(r.callId(), i);
            }
        }
        List<CallAt> calls = new ArrayList<>();
        for (int i = 0; i < events.size(); i++) {
            if (events.get(i) instanceof Event.Assistant a) {
                for (ToolCall c : a.calls()) {
                    calls.add(new CallAt(c.id(), Math.max(i, resultAt.getOrDefault(c.id(), i))));
                }
            }
        }
        return calls;
    }
}
