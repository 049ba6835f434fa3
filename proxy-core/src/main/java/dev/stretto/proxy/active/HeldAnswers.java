package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.io.Line;
import dev.stretto.trace.episode.ToolCall;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

/**
 * The server's answers to the agent's calls that the session's {@link AnswerHook} holds (a
 * flow's run holds an answer, makes the proxy's own lookups, then lets it go, as it came or
 * replaced), and the questions the hook's runs asked the model, whose answers come back as
 * {@link Event.OracleAnswer}s. The host has a held answer only once it is let go: until then
 * its call stays in flight. Actor thread only.
 */
final class HeldAnswers implements AutoCloseable {
    private final AnswerHook hook;
    private final CallTable calls;
    private final Sides sides;
    private final Set<Held> holding = new HashSet<>();
    private final Map<Long, Consumer<OracleOutcome>> asked = new HashMap<>();

    HeldAnswers(AnswerHook hook, CallTable calls, Sides sides) {
        this.hook = hook;
        this.calls = calls;
        this.sides = sides;
    }

    /**
     * Offers the hook the server's answer to {@code call} (recorded already); true when it
     * holds it, false when the answer is to go straight on.
     *
     * @param response the answer as the log keeps it, or null
     * @param line     the answer's line, as it came
     * @param flight   the call's flight key
     * @param run      what the hook's run may do meanwhile
     */
    boolean hold(ToolCall call, JsonNode response, Line line, String flight, RunContext run) {
        Held held = new Held(call, response, line, flight);
        // Held from before the hook decides: it may let the answer go before it returns.
        holding.add(held);
        if (hook.hold(held, run)) {
            return true;
        }
        holding.remove(held);
        return false;
    }

    /** The server answered one of the host's {@code tools/list} requests (as the server sent it). */
    void listed(JsonNode response) {
        hook.listed(response);
    }

    /** The hook's run waits for the answer to the question with {@code ticket}. */
    void asked(long ticket, Consumer<OracleOutcome> then) {
        asked.put(ticket, then);
    }

    /** The model answered a question of a run's. */
    void answered(Event.OracleAnswer answer) {
        Consumer<OracleOutcome> then = asked.remove(answer.ticket());
        if (then != null) {
            then.accept(answer.outcome());
        }
    }

    /** The server is gone: the hook lets go what it still holds, with what it has. */
    void serverEnded() {
        hook.serverEnded();
    }

    /** Whether no answer is held. */
    boolean idle() {
        return holding.isEmpty();
    }

    /** The session is over: what is still held is dropped; the hook releases what it holds. */
    @Override
    public void close() {
        asked.clear();
        hook.close();
    }

    /** An answer being held. */
    private final class Held implements AnswerHook.Held {
        private final ToolCall call;
        private final JsonNode response;
        private final Line line;
        private final String flight;

        Held(ToolCall call, JsonNode response, Line line, String flight) {
            this.call = call;
            this.response = response;
            this.line = line;
            this.flight = flight;
        }

        @Override
        public ToolCall call() {
            return call;
        }

        @Override
        public JsonNode response() {
            return response;
        }

        @Override
        public void release() {
            end();
            sides.toHost(line);
        }

        @Override
        public void replace(JsonNode replacement) {
            end();
            sides.answer(replacement);
        }

        private void end() {
            if (!holding.remove(this)) {
                throw new IllegalStateException("the answer to " + call.id() + " was let go already");
            }
            // The host has its answer only now: until then the proxy takes no request of its own by this id.
            calls.answered(flight);
        }
    }
}
