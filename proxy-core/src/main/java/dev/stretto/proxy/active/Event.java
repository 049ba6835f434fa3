package dev.stretto.proxy.active;

import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import java.io.IOException;

/**
 * What reaches the actor's mailbox: lines from the host and from the server as the pumps
 * read them (raw bytes, not yet stamped or parsed, with the one look at their kind, method
 * and id that every line gets, taken on the pump's thread so the actor's own thread is spared
 * it), the ends of both, and the results of work the actor forked. The actor handles each kind; adding one is a compile error until it
 * does.
 */
sealed interface Inbound {

    /** Which lane of the mailbox an event waits in. */
    enum Lane {
        /** The host's lines: taken only while the server's outbound queue has room. */
        HOST,
        /** The server's lines: taken only while the host's outbound queue has room. */
        SERVER,
        /** The actor's own events: always taken. */
        CONTROL
    }

    /** The lane this event waits in. */
    Lane lane();

    /** What the event weighs in a lane's byte budget. */
    default int size() {
        return 0;
    }

    /**
     * A line the host wrote.
     *
     * @param line the line
     * @param peek its kind, method and id
     */
    record FromHost(Line line, JsonRpcPeek peek) implements Inbound {
        @Override
        public Lane lane() {
            return Lane.HOST;
        }

        @Override
        public int size() {
            return line.bytes().length;
        }
    }

    /**
     * The host's input ended.
     *
     * @param failure why reading it failed, or null at a plain end of stream
     */
    record HostEnded(IOException failure) implements Inbound {
        @Override
        public Lane lane() {
            return Lane.HOST;
        }
    }

    /**
     * A line from the server (an HTTP upstream's GET stream included).
     *
     * @param line           the line
     * @param writtenByProxy true for an answer the HTTP upstream wrote in the server's place
     *                       (the server refused the request or could not be reached)
     * @param peek           its kind, method and id
     */
    record FromServer(Line line, boolean writtenByProxy, JsonRpcPeek peek) implements Inbound {
        @Override
        public Lane lane() {
            return Lane.SERVER;
        }

        @Override
        public int size() {
            return line.bytes().length;
        }
    }

    /** The server is finished: every line it sent is ahead of this in the lane. */
    record ServerEnded() implements Inbound {
        @Override
        public Lane lane() {
            return Lane.SERVER;
        }
    }

    /**
     * Work the actor forked is done: {@code then} hands its result to the actor's state.
     *
     * @param then runs on the actor's thread
     */
    record Done(Runnable then) implements Inbound {
        @Override
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /** Wakes the actor so it looks at its clock (tests post it after moving a fake clock). */
    record Tick() implements Inbound {
        @Override
        public Lane lane() {
            return Lane.CONTROL;
        }
    }
}
