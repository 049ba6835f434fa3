package dev.stretto.proxy.flow.predict;

import dev.stretto.trace.episode.Event;
import java.util.ArrayList;
import java.util.List;

/**
 * The events of a session's cut episodes that a memo has read: those before a cut's turn (its
 * last assistant event), which the next cut holds again as the same objects when they come
 * from the proxy's episode. What follows the turn is the cut's own and is read each time.
 * Not thread-safe: one per memo, used by its owner.
 */
public final class ReadEvents {

    private final List<Event> read = new ArrayList<>();

    /**
     * Where the turn of {@code events} is, which ends what a memo may keep: the index of the
     * last assistant event, 0 without one.
     */
    public static int turn(List<Event> events) {
        for (int i = events.size() - 1; i > 0; i--) {
            if (events.get(i) instanceof Event.Assistant) {
                return i;
            }
        }
        return 0;
    }

    /**
     * Whether what was read is the start of {@code events} before their turn, the same objects
     * in the same places; when it is not, forgets it, and the caller starts its reading over.
     */
    public boolean holds(List<Event> events) {
        int turn = turn(events);
        boolean same = read.size() <= turn;
        for (int i = 0; same && i < read.size(); i++) {
            same = read.get(i) == events.get(i);
        }
        if (!same) {
            read.clear();
        }
        return same;
    }

    /** How many events were read. */
    public int size() {
        return read.size();
    }

    /** Counts {@code event} as read. */
    public void add(Event event) {
        read.add(event);
    }
}
