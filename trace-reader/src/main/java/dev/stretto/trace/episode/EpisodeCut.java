package dev.stretto.trace.episode;

import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * An episode as a flow sees it right after one call's result: the episode cut at that call
 * (the reference's {@code Episode::after_call}).
 *
 * <p>In the call's turn, the calls that already have a result stay, in their order, with the
 * call itself moved last, so that it is the episode's last step; the turn's calls still
 * awaiting their result are set apart as {@link #pending()} (a flow counts them as made and
 * never looks them up again). Everything before the turn stays as it is. After the turn, what
 * the user said and the results of the turn's answered calls stay; what the agent did later
 * (its messages, and later turns with their results) is left out, since a flow decides what
 * the agent does right after the call.
 *
 * @param episode the cut episode
 * @param pending the calls of the turn without a result, in the order they were sent
 */
public record EpisodeCut(Episode episode, List<ToolCall> pending) {

    /**
     * Checks the cut.
     *
     * @throws NullPointerException when {@code episode} or {@code pending} is null
     */
    public EpisodeCut {
        Objects.requireNonNull(episode, "episode");
        pending = List.copyOf(pending);
    }

    /**
     * Cuts {@code episode} at the call with id {@code callId} (the latest turn holding such a
     * call; within it the last call of that id, since a reused id replaces the earlier call).
     *
     * @param episode the episode
     * @param callId  the call's id
     * @return the cut, or empty when no turn holds that call
     */
    public static Optional<EpisodeCut> afterCall(Episode episode, String callId) {
        List<Event> events = episode.events();
        int turnAt = -1;
        for (int i = events.size() - 1; i >= 0 && turnAt < 0; i--) {
            if (events.get(i) instanceof Event.Assistant a && a.calls().stream().anyMatch(c -> c.id().equals(callId))) {
                turnAt = i;
            }
        }
        if (turnAt < 0) {
            return Optional.empty();
        }
        Event.Assistant turn = (Event.Assistant) events.get(turnAt);
        int self = -1;
        for (int j = 0; j < turn.calls().size(); j++) {
            if (turn.calls().get(j).id().equals(callId)) {
                self = j;
            }
        }
        Set<String> answered = new HashSet<>();
        for (int i = turnAt + 1; i < events.size(); i++) {
            if (events.get(i) instanceof Event.ToolResult r) {
                answered.add(r.callId());
            }
        }
        List<ToolCall> kept = new ArrayList<>();
        List<ToolCall> pending = new ArrayList<>();
        for (int j = 0; j < turn.calls().size(); j++) {
            ToolCall c = turn.calls().get(j);
            if (j == self) {
                continue;
            }
            if (answered.contains(c.id()) && !c.id().equals(callId)) {
                kept.add(c);
            } else {
                pending.add(c);
            }
        }
        kept.add(turn.calls().get(self));

        List<Event> cut = new ArrayList<>(events.subList(0, turnAt));
        cut.add(new Event.Assistant(turn.text(), kept, turn.usage()));
        Set<String> later = new HashSet<>();
        for (int i = turnAt + 1; i < events.size(); i++) {
            Event e = events.get(i);
            switch (e) {
                case Event.Assistant a -> a.calls().forEach(c -> later.add(c.id()));
                case Event.ToolResult r when later.contains(r.callId()) -> {
                    // The result of a later turn's call.
                }
                default -> cut.add(e);
            }
        }
        Episode ep = new Episode(episode.id(), episode.taskId(), episode.trial(), episode.domain(),
                episode.agentModel(), episode.reward(), cut);
        return Optional.of(new EpisodeCut(ep, pending));
    }

    /**
     * Where the turn of a call is: the index of the latest assistant event before {@code before}
     * that holds a call with id {@code callId}.
     *
     * @param events the episode's events
     * @param before the index to look before (the call's result, say)
     * @param callId the call's id
     * @return the index, or -1 when no assistant event before it holds the call
     */
    public static int turnOf(List<Event> events, int before, String callId) {
        for (int t = before - 1; t >= 0; t--) {
            if (events.get(t) instanceof Event.Assistant a && a.calls().stream().anyMatch(c -> c.id().equals(callId))) {
                return t;
            }
        }
        return -1;
    }

    /**
     * This cut as it stands once one more call of its turn has been made and answered, such as
     * a lookup a flow makes right after the call the cut was made at: {@code call} added to the
     * turn (the episode's last assistant event), its result after everything else, the episode
     * cut again at it. The pending calls stay as they are.
     *
     * @param call    the call
     * @param error   whether its result is an error
     * @param content its result's content
     * @return the cut after that call
     * @throws IllegalStateException when the episode has no assistant event to add the call to
     */
    public EpisodeCut withAnswered(ToolCall call, boolean error, String content) {
        List<Event> events = new ArrayList<>(episode.events());
        int turn = events.size() - 1;
        while (turn >= 0 && !(events.get(turn) instanceof Event.Assistant)) {
            turn--;
        }
        if (turn < 0) {
            throw new IllegalStateException("the cut has no turn to add " + call.name() + " to");
        }
        Event.Assistant a = (Event.Assistant) events.get(turn);
        List<ToolCall> calls = new ArrayList<>(a.calls());
        calls.add(call);
        events.set(turn, new Event.Assistant(a.text(), calls, a.usage()));
        events.add(new Event.ToolResult(call.id(), call.name(), error, content));
        Episode with = new Episode(episode.id(), episode.taskId(), episode.trial(), episode.domain(),
                episode.agentModel(), episode.reward(), events);
        return new EpisodeCut(afterCall(with, call.id()).orElseThrow().episode(), pending);
    }
}
