package dev.stretto.proxy.active;

import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.judge.Reply;
import dev.stretto.trace.episode.Episode;
import java.io.IOException;
import java.util.concurrent.CompletableFuture;

/**
 * Everything that happens to the actor, one record for each kind of thing: a line from the
 * host, from the server or from the conversation file, the answer to a question a flow or the
 * judge asked the model, the clock's tick, the end of either side, and a question about the
 * episode. The actor handles them in one exhaustive switch: a new kind is a compile error
 * there until it is handled.
 *
 * <p>All but the conversation's lines reach the actor through its mailbox ({@link Posted}): the
 * pumps post the lines they read (raw bytes, not yet stamped or parsed, with the one look at
 * their kind, method and id that every line gets, taken on the pump's thread so the actor's
 * own thread is spared it) and the ends of both sides, forks post their answers. The
 * conversation's lines the actor reads from the file itself, whenever it must know what was
 * said, and handles each as it takes it.
 */
sealed interface Event {

    /** An event that comes through the mailbox. */
    sealed interface Posted extends Event {

        /** The lane of the mailbox it waits in. */
        Lane lane();

        /** What the event weighs in a lane's byte budget. */
        default long size() {
            return 0;
        }
    }

    /** Which lane of the mailbox an event waits in. */
    enum Lane {
        /** The host's lines: taken only while the server's outbound queue has room. */
        HOST,
        /** The server's lines: taken only while the host's outbound queue has room. */
        SERVER,
        /** The actor's own events: always taken. */
        CONTROL
    }

    /**
     * A line the host wrote (the log's {@code client}).
     *
     * @param line the line
     * @param peek its kind, method and id
     */
    record ClientLine(Line line, JsonRpcPeek peek) implements Posted {
        @Override
        public Lane lane() {
            return Lane.HOST;
        }

        @Override
        public long size() {
            return line.length();
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
    record ServerLine(Line line, boolean writtenByProxy, JsonRpcPeek peek) implements Posted {
        @Override
        public Lane lane() {
            return Lane.SERVER;
        }

        @Override
        public long size() {
            return line.length();
        }
    }

    /**
     * A line the host appended to the conversation file ({@code --context}), read by the actor.
     *
     * @param line the line
     */
    record ContextLine(Line line) implements Event {
    }

    /**
     * The model answered a question a flow's decision asked.
     *
     * @param ticket  the question's number ({@link Questions})
     * @param outcome the answer, or why there is none
     */
    record OracleAnswer(long ticket, OracleOutcome outcome) implements Posted {
        @Override
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /**
     * The model answered a question of the confirmation judge's.
     *
     * @param ticket the question's number ({@link Questions})
     * @param reply  the answer, or why there is none
     */
    record JudgeAnswer(long ticket, Reply reply) implements Posted {
        @Override
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /** Wakes the actor so it looks at its clock (tests post it after moving a fake clock). */
    record Tick() implements Posted {
        @Override
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /**
     * The host's input ended: every line the host wrote is ahead of this in its lane.
     *
     * @param failure why reading it failed, or null at a plain end of stream
     */
    record HostEnded(IOException failure) implements Posted {
        @Override
        public Lane lane() {
            return Lane.HOST;
        }
    }

    /** The server is finished: every line it sent is ahead of this in its lane. */
    record ServerEnded() implements Posted {
        @Override
        public Lane lane() {
            return Lane.SERVER;
        }
    }

    /**
     * Someone asks for the session's episode as the actor has it, after everything it has
     * taken so far (tests compare it with the log's).
     *
     * @param answer completed with the episode, on the actor's thread
     */
    record EpisodeAsked(CompletableFuture<Episode> answer) implements Posted {
        @Override
        public Lane lane() {
            return Lane.CONTROL;
        }
    }

    /**
     * Links the JDK's machinery for pattern switches (some tens of milliseconds, once per JVM),
     * which the actor's loop needs at its first event, on the thread that warms the session up
     * while the server starts. Whether an event is a line: a switch as the actor's is.
     */
    static boolean warmUp() {
        Event event = new Tick();
        return switch (event) {
            case ClientLine c -> true;
            case ServerLine s -> true;
            case ContextLine c -> true;
            case OracleAnswer a -> false;
            case JudgeAnswer a -> false;
            case Tick t -> false;
            case HostEnded e -> false;
            case ServerEnded e -> false;
            case EpisodeAsked q -> false;
        };
    }
}
