package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.ToolCall;

/**
 * Where the server's answers to the agent's calls may be held: a flow run holds an answer,
 * makes the proxy's own lookups, and then lets the answer go, as it came or replaced by one
 * with the lookups appended. By default nothing is held. Called on the actor's thread; a hook
 * bounds how many answers it holds (a flow holds one at a time). Besides the answers, the hook
 * hears of the server's tool listings, of the server's end, and of the session's.
 */
interface AnswerHook {

    /** Holds nothing: every answer goes straight on. */
    AnswerHook NONE = (answer, run) -> false;

    /**
     * The server answered one of the agent's calls. Returns true to hold the answer; the hook
     * must then end the hold, later, with {@link Held#release()} or {@link Held#replace}.
     *
     * @param answer the answer and the call it answers
     * @param run    what the proxy's own work may do meanwhile (its own requests, forks)
     */
    boolean hold(Held answer, RunContext run);

    /**
     * The server answered one of the host's {@code tools/list} requests (a page of the listing,
     * as the server sent it, before {@code --commit} adds its tool).
     *
     * @param response the response, parsed (null when it is not JSON)
     */
    default void listed(JsonNode response) {
    }

    /**
     * The server is gone. The proxy's own requests have ended already (without an answer); an
     * answer still held for anything else (a question to a remote model) must be let go now,
     * with what the hook has, since the session ends once this returns.
     */
    default void serverEnded() {
    }

    /**
     * The session is over: ended, or stopped by a signal, when nothing may be sent to a side
     * any more. An answer still held is dropped, not let go; the hook releases what it holds
     * (files). Called once, last.
     */
    default void close() {
    }

    /** An answer being held. Its methods run on the actor's thread. */
    interface Held {

        /** The call answered. */
        ToolCall call();

        /** The answer, parsed (null when it is not JSON the log keeps as a message). */
        JsonNode response();

        /** Sends the answer on as it came, byte for byte. */
        void release();

        /** Sends {@code replacement} instead (logged as the proxy's), after the original was logged. */
        void replace(JsonNode replacement);
    }
}
