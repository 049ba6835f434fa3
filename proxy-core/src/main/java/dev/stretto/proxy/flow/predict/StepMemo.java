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
 * The steps of a session's cut episodes ({@link Steps#of(Flow, Episode)}), kept from one
 * decision to the next: the steps of the events before the cut's turn are read once, as long
 * as the next cut holds the same event objects there (the proxy's episode keeps them), and
 * only the turn and what follows it are read at each decision. A cut that differs earlier
 * is read again from its start. Not thread-safe: one per flow session, used by its owner.
 */
public final class StepMemo {

    private final Flow flow;
    private final Map<String, Map<String, Integer>> features = new HashMap<>();
    /** The events before the last cut's turn, as read, and their steps. */
    private final ReadEvents read = new ReadEvents();
    private Reading prefix;

    /** A memo of {@code flow}'s steps. */
    public StepMemo(Flow flow) {
        this.flow = flow;
        this.prefix = new Reading(null);
    }

    /** The steps of {@code episode}: {@link Steps#of(Flow, Episode)}. */
    public List<Step> of(Episode episode) {
        List<Event> events = episode.events();
        if (!read.holds(events)) {
            prefix = new Reading(null);
        }
        int turn = ReadEvents.turn(events);
        for (int i = read.size(); i < turn; i++) {
            prefix.add(events.get(i));
            read.add(events.get(i));
        }
        Reading rest = new Reading(prefix);
        for (int i = turn; i < events.size(); i++) {
            rest.add(events.get(i));
        }
        return List.copyOf(rest.steps);
    }

    private Step call(String tool, Event.ToolResult r) {
        String content = r == null ? null : r.content();
        int feature = content == null ? 0 : features.computeIfAbsent(tool, t -> new HashMap<>())
                .computeIfAbsent(content, text -> Features.of(flow.map(), tool, text));
        return new Step(flow.actionId(tool), r != null && !r.error() ? Step.OK : Step.FAILED, feature, tool);
    }

    /**
     * The steps of some events read in order, on top of those of the events before them
     * ({@code under}, which this reading leaves as it is), with the rules of {@link Steps}:
     * a call's result is the first with its id anywhere, so a call without one yet is
     * completed when it comes.
     */
    private final class Reading {
        private final Reading under;
        private final List<Step> steps;
        private final Map<String, Event.ToolResult> results = new HashMap<>();
        /** Calls read without a result, by id: their step indexes. */
        private final Map<String, List<Integer>> open = new HashMap<>();
        private int unanswered;

        Reading(Reading under) {
            this.under = under;
            this.steps = under == null ? new ArrayList<>() : new ArrayList<>(under.steps);
            this.unanswered = under == null ? -1 : under.unanswered;
        }

        private Event.ToolResult result(String id) {
            Event.ToolResult r = under == null ? null : under.result(id);
            return r != null ? r : results.get(id);
        }

        void add(Event e) {
            switch (e) {
                case Event.Assistant a when a.calls().isEmpty() -> {
                    steps.add(new Step(flow.respondId(), Step.ENDED, 0, null));
                    unanswered = steps.size() - 1;
                }
                case Event.Assistant a -> {
                    unanswered = -1;
                    for (ToolCall c : a.calls()) {
                        Event.ToolResult r = result(c.id());
                        if (r == null) {
                            open.computeIfAbsent(c.id(), id -> new ArrayList<>()).add(steps.size());
                        }
                        steps.add(call(c.name(), r));
                    }
                }
                case Event.User u -> {
                    if (unanswered >= 0) {
                        steps.set(unanswered, new Step(flow.respondId(), Step.ANSWERED, 0, null));
                        unanswered = -1;
                    }
                }
                case Event.ToolResult r -> {
                    if (result(r.callId()) == null) {
                        results.put(r.callId(), r);
                        complete(r, under == null ? null : under.open.get(r.callId()));
                        complete(r, open.remove(r.callId()));
                    }
                }
            }
        }

        private void complete(Event.ToolResult r, List<Integer> slots) {
            if (slots != null) {
                for (int i : slots) {
                    steps.set(i, call(steps.get(i).tool(), r));
                }
            }
        }
    }
}
