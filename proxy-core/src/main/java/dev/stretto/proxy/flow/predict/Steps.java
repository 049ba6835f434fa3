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
 * The steps of an episode in the flow's terms. Each call of an assistant turn is a step, in
 * call order: {@link Step#OK} when its result exists and is not an error, else
 * {@link Step#FAILED}. An assistant message without calls is a {@code Respond} step,
 * {@link Step#ENDED} until a user message follows it (before the next assistant event), then
 * {@link Step#ANSWERED}.
 */
public final class Steps {

    private Steps() {
    }

    /** The steps of {@code episode} for {@code flow}'s vocabulary and code features. */
    public static List<Step> of(Flow flow, Episode episode) {
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : episode.events()) {
            if (e instanceof Event.ToolResult r) {
                results.putIfAbsent(r.callId(), r);
            }
        }
        List<Step> steps = new ArrayList<>();
        int unanswered = -1;
        for (Event e : episode.events()) {
            switch (e) {
                case Event.Assistant a when a.calls().isEmpty() -> {
                    steps.add(new Step(flow.respondId(), Step.ENDED, 0, null));
                    unanswered = steps.size() - 1;
                }
                case Event.Assistant a -> {
                    unanswered = -1;
                    for (ToolCall c : a.calls()) {
                        Event.ToolResult r = results.get(c.id());
                        boolean ok = r != null && !r.error();
                        int feature = r == null ? 0 : Features.of(flow.map(), c.name(), r.content());
                        steps.add(new Step(flow.actionId(c.name()), ok ? Step.OK : Step.FAILED, feature, c.name()));
                    }
                }
                case Event.User u -> {
                    if (unanswered >= 0) {
                        Step s = steps.get(unanswered);
                        steps.set(unanswered, new Step(s.action(), Step.ANSWERED, s.feature(), null));
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

    /** The symbols of {@code steps}, oldest first: the history the models predict from. */
    public static List<Long> history(List<Step> steps) {
        return steps.stream().map(Step::symbol).toList();
    }
}
