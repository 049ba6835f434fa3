package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.guard.Facts;
import dev.stretto.proxy.judge.Reply;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import java.util.function.Consumer;

/**
 * A check an agent's {@code tools/call} (or a call of {@code stretto_commit}) passes before it
 * is sent to the server. The checks of a session run one after the other, and the first
 * refusal stops the call. A check may decide at once (the policy guards) or later: it asks the
 * model ({@link Context#ask}) and hands its outcome on when the answer comes back (the
 * confirmation judge). Meanwhile the call waits, and other traffic flows. Checks run on the
 * actor's thread.
 */
interface CallCheck {

    /**
     * What a check may read and do. The facts and the episode are made when first asked for:
     * read them before forking, since afterwards they hold what happened since.
     */
    interface Context {

        /** The session's facts up to the call (not including it). */
        Facts facts();

        /** The session's episode up to the call (not including it). */
        Episode episode();

        /**
         * Asks the model {@code request} in a fork of the session's scope; {@code then} gets the
         * reply (or why there is none) back on the actor's thread, when it comes.
         */
        void ask(Oracle oracle, Request request, Consumer<Reply> then);

        /**
         * Logs {@code message} as a {@code proxy} entry that goes to neither side (a policy's
         * verdict): after the call's own entry when the check decides at once, at once when
         * it decides later.
         */
        void log(JsonNode message);
    }

    /** How a check ended. */
    sealed interface Outcome {
    }

    /** The call may go on to the next check, and to the server. */
    record Allowed() implements Outcome {
    }

    /**
     * The call is refused and never reaches the server.
     *
     * @param reason  why, bare (a commit's result quotes it; stderr says it)
     * @param message what the agent is told in place of the call's result
     */
    record Refused(String reason, String message) implements Outcome {
    }

    /**
     * Whether this check may refuse calls of {@code tool}: such calls must reach the server
     * exactly as the check reads them, so their argument names are held to lower case.
     */
    default boolean appliesTo(String tool) {
        return true;
    }

    /** Checks {@code call}; {@code then} gets the outcome, now or later, on the actor's thread. */
    void check(ToolCall call, Context context, Consumer<Outcome> then);

    /**
     * The session is over: ended, or stopped by a signal. A check releases what it holds
     * (files); an outcome still to come is dropped. Called once, last, on the actor's thread.
     */
    default void close() {
    }

    /** Whether the check waits for something it must look at on the actor's clock (a person's answer). */
    default boolean needsClock() {
        return false;
    }

    /** The actor's clock ticked: a check waiting on something looks at it. Called after every event. */
    default void tick() {
    }
}
