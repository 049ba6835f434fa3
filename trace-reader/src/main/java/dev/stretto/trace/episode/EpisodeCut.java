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
}
