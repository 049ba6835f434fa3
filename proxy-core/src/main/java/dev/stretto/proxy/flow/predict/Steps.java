package dev.stretto.proxy.flow.predict;

import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The steps of an episode, as learning counts them and a flow predicts from them. Each call
 * of an assistant turn is a step, in call order: {@link Step#OK} when its result exists and is
 * not an error, else {@link Step#FAILED}. An assistant message without calls is a
 * {@code Respond} step, {@link Step#ENDED} until a user message follows it (before the next
 * assistant event), then {@link Step#ANSWERED}. A call's result is the first one with its id.
 */
public final class Steps {

    private Steps() {
    }

    /** The steps of {@code episode}, with tool names and result texts. */
    public static List<AgentStep> of(Episode episode) {
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : episode.events()) {
            if (e instanceof Event.ToolResult r) {
                results.putIfAbsent(r.callId(), r);
            }
        }
        List<AgentStep> steps = new ArrayList<>();
        int unanswered = -1;
        for (Event e : episode.events()) {
            switch (e) {
                case Event.Assistant a when a.calls().isEmpty() -> {
                    steps.add(new AgentStep(null, Step.ENDED, null));
                    unanswered = steps.size() - 1;
                }
                case Event.Assistant a -> {
                    unanswered = -1;
                    for (ToolCall c : a.calls()) {
                        Event.ToolResult r = results.get(c.id());
                        steps.add(new AgentStep(c.name(), r != null && !r.error() ? Step.OK : Step.FAILED,
                                r == null ? null : r.content()));
                    }
                }
                case Event.User u -> {
                    if (unanswered >= 0) {
                        steps.set(unanswered, new AgentStep(null, Step.ANSWERED, null));
                        unanswered = -1;
                    }
                }
                case Event.ToolResult r -> {
                    // Read with its call.
                }
            }
        }
        return steps;
    }

    /** The steps of {@code episode} for {@code flow}'s vocabulary and code features. */
    public static List<Step> of(Flow flow, Episode episode) {
        List<AgentStep> taken = of(episode);
        List<Step> steps = new ArrayList<>(taken.size());
        for (AgentStep s : taken) {
            steps.add(s.isRespond() ? new Step(flow.respondId(), s.outcome(), 0, null)
                    : new Step(flow.actionId(s.tool()), s.outcome(), Features.of(flow.map(), s.tool(), s.result()),
                    s.tool()));
        }
        return steps;
    }

    /** The symbols of {@code steps}, oldest first: the history the models predict from. */
    public static List<Long> history(List<Step> steps) {
        return steps.stream().map(Step::symbol).toList();
    }
}
