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
        // A call's result is the first one with its id, as the proxy's predictions read it.
        Map<String, Event.ToolResult> results = new HashMap<>();
        for (Event e : episode.events()) {
            if (e instanceof Event.ToolResult r) {
                results.putIfAbsent(r.callId(), r);
            }
        }
        List<String> tools = new ArrayList<>();
        List<Integer> outcomes = new ArrayList<>();
        List<String> contents = new ArrayList<>();
        int openReply = -1;
        for (Event e : episode.events()) {
            switch (e) {
                case Event.Assistant a -> {
                    openReply = -1;
                    if (a.calls().isEmpty()) {
                        openReply = tools.size();
                        tools.add(null);
                        outcomes.add(Step.ENDED);
                        contents.add(null);
                    }
                    for (ToolCall c : a.calls()) {
                        Event.ToolResult r = results.get(c.id());
                        tools.add(c.name());
                        outcomes.add(r != null && !r.error() ? Step.OK : Step.FAILED);
                        contents.add(r == null ? null : r.content());
                    }
                }
                case Event.User u -> {
                    if (openReply >= 0) {
                        outcomes.set(openReply, Step.ANSWERED);
                        openReply = -1;
                    }
                }
                case Event.ToolResult r -> {
                    // Read with its call.
                }
            }
        }
        List<Step> steps = new ArrayList<>(tools.size());
        for (int i = 0; i < tools.size(); i++) {
            steps.add(new Step(tools.get(i), outcomes.get(i), contents.get(i)));
        }
        return steps;
    }
}
