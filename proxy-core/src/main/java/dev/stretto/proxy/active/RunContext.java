package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import java.util.function.Consumer;

/**
 * What the proxy's own work (a commit, a flow run) may ask of the session, each through the
 * actor's part whose job it is. Every method runs on the actor's thread and returns at once;
 * answers come back through the callbacks, on the actor's thread too. A run needs the server
 * while it waits for a check, a request of its own or a held answer: the actor closes the
 * server's input only once none waits.
 */
final class RunContext {
    private final CheckChain checks;
    private final Ledger ledger;
    private final OwnRequests own;
    private final Sides sides;
    private final HeldAnswers held;
    private final Questions questions;
    private final Runnable readConversation;

    /** @param readConversation reads the conversation's new lines (the actor takes each as an event) */
    RunContext(CheckChain checks, Ledger ledger, OwnRequests own, Sides sides, HeldAnswers held, Questions questions,
               Runnable readConversation) {
        this.checks = checks;
        this.ledger = ledger;
        this.own = own;
        this.sides = sides;
        this.held = held;
        this.questions = questions;
        this.readConversation = readConversation;
    }

    /**
     * Reads the conversation, then puts {@code call} through the session's checks (the policy
     * guards, the judge): {@code then} gets the outcome.
     */
    void check(ToolCall call, Consumer<CallCheck.Outcome> then) {
        checks.check(call).then(then);
    }

    /**
     * Reads the conversation's new lines, then returns the session's episode so far: every line
     * the actor has handled, the proxy's own requests and their answers included.
     */
    Episode episode() {
        readConversation.run();
        return ledger.episode();
    }

    /**
     * Sends {@code tool(arguments)} to the server as the proxy's own request ({@code
     * stretto-<n>}); {@code then} gets the answer, or no answer after the request timeout or
     * when the server is gone (at once, when it is gone already or its input has ended).
     */
    void request(String tool, JsonNode arguments, Consumer<OwnRequests.Outcome> then) {
        if (sides.serverGone()) {
            then.accept(new OwnRequests.ServerGone());
        } else {
            own.send(tool, arguments, then);
        }
    }

    /** Answers the agent's call {@code id} with one text item, as the proxy. */
    void answer(JsonNode id, String text, boolean isError) {
        sides.answer(ProxyLines.toolResult(id, text, isError));
    }

    /**
     * Asks the System-One model {@code request} in a fork of the session's scope; {@code then}
     * gets the answer (or why there is none) back on the actor's thread, when it comes.
     */
    void ask(Oracle oracle, Request request, Consumer<OracleOutcome> then) {
        held.asked(questions.forFlow(oracle, request), then);
    }
}
