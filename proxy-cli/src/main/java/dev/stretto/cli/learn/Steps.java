package dev.stretto.cli.learn;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * An episode's steps in order: each call of an assistant event (failed when its result is an
 * error or never came), and each assistant event without calls as a reply, answered when the
 * user speaks before the next assistant event.
 */
public final class Steps {

    private Steps() {
    }

    /** The steps of {@code episode}. */
    public static List<Step> of(Episode episode) {
        List<String> tools = new ArrayList<>();
        List<Integer> outcomes = new ArrayList<>();
        List<String> results = new ArrayList<>();
        // A call's result is the first one for its id after it.
        Map<String, Integer> awaiting = new HashMap<>();
        int openReply = -1;
        for (Event e : episode.events()) {
            switch (e) {
                case Event.Assistant a -> {
                    openReply = -1;
                    if (a.calls().isEmpty()) {
                        openReply = tools.size();
                        tools.add(null);
                        outcomes.add(Step.ENDED);
                        results.add(null);
                    }
                    for (ToolCall c : a.calls()) {
                        awaiting.put(c.id(), tools.size());
                        tools.add(c.name());
                        outcomes.add(Step.FAILED);
                        results.add(null);
                    }
                }
                case Event.ToolResult r -> {
                    Integer step = awaiting.remove(r.callId());
                    if (step != null) {
                        outcomes.set(step, r.error() ? Step.FAILED : Step.OK);
                        results.set(step, r.content());
                    }
                }
                case Event.User u -> {
                    if (openReply >= 0) {
                        outcomes.set(openReply, Step.ANSWERED);
                        openReply = -1;
                    }
                }
            }
        }
        List<Step> steps = new ArrayList<>(tools.size());
        for (int i = 0; i < tools.size(); i++) {
            steps.add(new Step(tools.get(i), outcomes.get(i), results.get(i)));
        }
        return steps;
    }
}
