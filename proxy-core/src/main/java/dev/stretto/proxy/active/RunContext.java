package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import java.util.concurrent.Callable;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * What the proxy's own work (a commit, a flow run) may ask of the actor. Every method
 * runs on the actor's thread and returns at once; answers come back through the callbacks,
 * on the actor's thread too. A run tells the actor when it has {@link #finished()}, so the
 * server's input is closed only once no run needs the server any more.
 */
interface RunContext {

    /**
     * Reads the conversation, then puts {@code call} through the session's checks (the policy
     * guards): {@code then} gets the outcome.
     */
    void check(ToolCall call, Consumer<CallCheck.Outcome> then);

    /**
     * Reads the conversation's new lines, then returns the session's episode so far: every line
     * the actor has handled, the proxy's own requests and their answers included.
     */
    Episode episode();

    /**
     * Sends {@code tool(arguments)} to the server as the proxy's own request ({@code
     * stretto-<n>}); {@code then} gets the answer, or no answer after the request timeout or
     * when the server is gone (at once, when it is gone already).
     */
    void request(String tool, JsonNode arguments, Consumer<OwnRequests.Outcome> then);

    /** Answers the agent's call {@code id} with one text item, as the proxy. */
    void answer(JsonNode id, String text, boolean isError);

    /** Runs {@code work} in a fork of the session's scope; {@code then} gets its result or failure. */
    <T> void fork(Callable<T> work, BiConsumer<T, Throwable> then);

    /** The run is over. */
    void finished();
}
