package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.Source;
import java.nio.charset.StandardCharsets;

/**
 * One of the agent's calls on its way to the server: read as the session log reads it (with
 * policy checks, as every server reads it: {@link CallReader}), put through the checks with
 * the session as it was before the call, logged, and then sent on as it came or answered with
 * its refusal. A call of {@code stretto_commit} is run by the proxy ({@link CommitRun}). And a
 * line of the host's refused before it reaches the server. Actor thread only.
 */
final class HostCalls {
    private final Ledger ledger;
    private final CallTable calls;
    private final CheckChain checks;
    private final Sides sides;
    private final boolean commit;
    private final Runnable readConversation;
    private final RunContext runs;

    /**
     * @param commit           whether calls of {@code stretto_commit} are the proxy's to run
     * @param readConversation reads the conversation's new lines (the actor takes each as an event)
     * @param runs             what a commit's run may ask of the actor
     */
    HostCalls(Ledger ledger, CallTable calls, CheckChain checks, Sides sides, boolean commit,
              Runnable readConversation, RunContext runs) {
        this.ledger = ledger;
        this.calls = calls;
        this.checks = checks;
        this.sides = sides;
        this.commit = commit;
        this.readConversation = readConversation;
        this.runs = runs;
    }

    /** One of the agent's calls, with no policy checks: read as the session log reads it. */
    void take(Line line) {
        readConversation.run();
        JsonNode logged = ProxyLines.logged(line.bytes());
        JsonNode message = logged != null ? logged : ProxyLines.parse(line.bytes());
        ToolCall call = ToolCall.ofRequest(message).orElse(null);
        if (call == null) {
            // Not readable as a tree after all: nothing to check or answer by.
            ledger.record(Source.CLIENT, line);
            sides.toServer(line);
            return;
        }
        checked(line, logged, message, call);
    }

    /** One of the agent's calls, read as every server reads it. */
    void take(Line line, CallReader.Call c) {
        if (calls.inFlight(IdKey.flight(c.id()))) {
            refuse(line, CallTable.SAME_ID);
            return;
        }
        readConversation.run();
        checked(line, LineClassifier.isMessage(line.bytes()) ? c.message() : null, c.message(), c.call());
    }

    /**
     * A line refused before it reached the server, as {@code refusal} says: logged as the
     * host's (and read into the episode as the log's readers read it), then answered.
     */
    void refuse(Line line, CallReader.Refusal refusal) {
        Logger.info("refused a tools/call: {}", refusal.reason());
        refuse(line, refusal.id(), refusal.code(), refusal.message());
    }

    /**
     * A line refused before it reached the server: logged as the host's (and read into the
     * episode as the log's readers read it), then answered with a JSON-RPC error, unless it
     * cannot be answered ({@code answerId} null).
     */
    void refuse(Line line, JsonNode answerId, int code, String message) {
        readConversation.run();
        long t = ledger.record(Source.CLIENT, line);
        JsonNode logged = ProxyLines.logged(line.bytes());
        if (logged != null) {
            ledger.episode(t, Source.CLIENT, logged);
            calls.trackCalls(logged);
        }
        if (answerId != null) {
            sides.answer(ProxyLines.error(answerId, code, message));
        }
    }

    /**
     * A line that uses the id {@code id} of a request the proxy made itself, which timed out
     * and whose answer may still come: refused, so that answer cannot go to the host.
     */
    void refuseTakenId(Line line, JsonRpcPeek peek, String id) {
        Logger.info("refused a request of the host's: its id {} is one the proxy used itself", id);
        JsonNode answerId = peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null
                ? ProxyLines.parse(peek.id().getBytes(StandardCharsets.UTF_8)) : NullNode.instance;
        refuse(line, answerId, CallReader.INVALID_REQUEST, "Not sent: the id " + id + " is taken by a request the"
                + " proxy made itself, which the server has not answered; send this again with another id.");
    }

    /**
     * A call, the conversation read: checked against the session so far, logged, then sent
     * on, or answered with the refusal.
     */
    private void checked(Line line, JsonNode logged, JsonNode message, ToolCall call) {
        JsonNode id = message.get("id");
        String key = IdKey.of(id);
        if (commit && CommitTool.NAME.equals(call.name())) {
            logged(line, logged, key, call);
            var plan = CommitTool.plan(message.get("params"));
            if (plan.isEmpty()) {
                runs.answer(id, CommitTool.INVALID, true);
                return;
            }
            calls.sent(IdKey.flight(id), true);
            new CommitRun(runs, id, plan.get()).start();
            return;
        }
        // In flight from now: while a slow check decides, another call with its id is refused.
        calls.sent(IdKey.flight(id), true);
        // The checks see the session before the call; the call is logged before any answer to it.
        CheckChain.Pending<CallCheck.Outcome> outcome = checks.check(call);
        logged(line, logged, key, call);
        outcome.then(o -> {
            if (o instanceof CallCheck.Refused r) {
                Logger.info("refused {}: {}", call.name(), r.reason());
                runs.answer(id, r.message(), true);
            } else {
                sides.toServer(line);
            }
        });
    }

    private void logged(Line line, JsonNode logged, String key, ToolCall call) {
        ledger.record(Source.CLIENT, line, logged);
        if (logged != null) {
            calls.track(key, call);
        }
    }
}
