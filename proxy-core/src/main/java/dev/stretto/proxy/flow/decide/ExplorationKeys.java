package dev.stretto.proxy.flow.decide;

import dev.stretto.proxy.flow.predict.ReadEvents;
import dev.stretto.proxy.math.Fnv1a64;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import java.util.List;

/**
 * The hashes of a session's exploration keys ({@code <task id>/<content key>}, see {@link
 * ContentKey}), kept from one decision to the next: the key's parts for the events before the
 * cut's turn are hashed once, as long as the next cut holds the same event objects there (the
 * proxy's episode keeps them), and only the turn and what follows it at each decision. The
 * hash is FNV-1a, which reads its text from the start, so the prefix's state goes on where it
 * stopped. Not thread-safe: one per flow session, used by its owner.
 */
final class ExplorationKeys {

    private ReadEvents read = new ReadEvents();
    private String taskId;
    /** The hash of {@code <task id>/[} and the parts of the events read, separated by commas. */
    private long prefix;

    /** {@code Fnv1a64.hash(taskId + "/" + ContentKey.of(episode))}. */
    long hash(String taskId, Episode episode) {
        List<Event> events = episode.events();
        if (!read.holds(events) || !taskId.equals(this.taskId)) {
            read = new ReadEvents();
            this.taskId = taskId;
            prefix = Fnv1a64.extend(Fnv1a64.hash(taskId), "/[");
        }
        int turn = ReadEvents.turn(events);
        for (int i = read.size(); i < turn; i++) {
            prefix = part(prefix, i, episode, events.get(i));
            read.add(events.get(i));
        }
        long h = prefix;
        for (int i = turn; i < events.size(); i++) {
            h = part(h, i, episode, events.get(i));
        }
        return Fnv1a64.extend(h, "]");
    }

    private static long part(long h, int index, Episode episode, Event event) {
        return Fnv1a64.extend(index == 0 ? h : Fnv1a64.extend(h, ","), ContentKey.piece(episode, event));
    }
}
