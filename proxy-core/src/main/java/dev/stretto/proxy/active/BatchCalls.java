package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;

/**
 * A batch of the host's holding calls, with policy checks: each call is checked against the
 * session before the batch, in order, up to the first refusal. The batch goes to the server,
 * as it came, only when every call in it passes; otherwise none of it does, and the host gets
 * one answer for each of its requests, in order, as one batch: a call the checks refused, its
 * refusal; a call that would have passed, that it was not run; a call that could not be read as
 * every server reads it, or whose id is in flight already, its JSON-RPC error (none for one
 * without an id); any other request, that it was not sent. Notifications and responses get
 * nothing, as JSON-RPC has it. Actor thread only.
 */
final class BatchCalls {
    private final Ledger ledger;
    private final CallTable calls;
    private final CheckChain checks;
    private final Sides sides;

    BatchCalls(Ledger ledger, CallTable calls, CheckChain checks, Sides sides) {
        this.ledger = ledger;
        this.calls = calls;
        this.checks = checks;
        this.sides = sides;
    }

    /** Takes the batch {@code line}, read as {@code batch}; the conversation is read already. */
    void take(Line line, CallReader.Batch batch) {
        List<CallReader.Element> elements = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<ToolCall> toCheck = new ArrayList<>();
        boolean anyRefused = false;
        for (CallReader.Element e : batch.elements()) {
            CallReader.Element element = e;
            if (e.reading() instanceof CallReader.Call c) {
                String flight = IdKey.flight(c.id());
                if (calls.inFlight(flight) || !ids.add(flight)) {
                    element = new CallReader.Element(e.message(), new CallReader.Refused(CallTable.SAME_ID));
                } else {
                    toCheck.add(c.call());
                }
            } else if (CallTable.isRequest(e.message()) && calls.callInFlight(IdKey.flight(e.message().get("id")))) {
                element = new CallReader.Element(e.message(), new CallReader.Refused(CallTable.SAME_ID));
            }
            anyRefused |= element.reading() instanceof CallReader.Refused;
            elements.add(element);
        }
        CheckChain.Pending<List<CallCheck.Outcome>> outcomes = anyRefused ? checks.decided(List.of())
                : checks.checkEach(toCheck);
        long t = ledger.record(Source.CLIENT, line);
        JsonNode logged = ProxyLines.logged(line.bytes());
        if (logged != null) {
            ledger.episode(t, Source.CLIENT, logged);
            calls.trackCalls(logged);
        }
        List<String> callIds = new ArrayList<>();
        for (CallReader.Element e : elements) {
            if (e.reading() instanceof CallReader.Call c) {
                callIds.add(IdKey.flight(c.id()));
            }
        }
        callIds.forEach(f -> calls.sent(f, true));
        boolean refusedAlready = anyRefused;
        outcomes.then(done -> {
            if (!refusedAlready && done.stream().noneMatch(o -> o instanceof CallCheck.Refused)) {
                for (CallReader.Element e : elements) {
                    if (!(e.reading() instanceof CallReader.Call) && CallTable.isRequest(e.message())) {
                        calls.sent(IdKey.flight(e.message().get("id")), false);
                    }
                }
                // The batch was recorded when it was taken; the log's latest mark covers it.
                sides.toServer(line);
                return;
            }
            callIds.forEach(calls::answered);
            ArrayNode answers = answers(elements, done);
            if (!answers.isEmpty()) {
                sides.answer(answers);
            }
        });
    }

    /**
     * The answers to a batch refused whole, and a line on stderr for each refusal.
     *
     * @param elements the batch's elements, as read
     * @param outcomes the checks' outcomes of its calls, in order, up to the first refusal
     */
    static ArrayNode answers(List<CallReader.Element> elements, List<CallCheck.Outcome> outcomes) {
        ArrayNode answers = JsonNodeFactory.instance.arrayNode();
        int checked = 0;
        for (CallReader.Element e : elements) {
            if (e.reading() instanceof CallReader.Call c) {
                CallCheck.Outcome o = checked < outcomes.size() ? outcomes.get(checked) : null;
                checked++;
                String name = c.call().name();
                if (o instanceof CallCheck.Refused r) {
                    Logger.info("refused {}: {}", name, r.reason());
                    answers.add(ProxyLines.toolResult(c.id(), r.message(), true));
                } else {
                    answers.add(ProxyLines.toolResult(c.id(), "Refused by the policy check, so " + name + " was not run"
                            + " and nothing changed: it came in a batch with a call that was refused, and nothing in"
                            + " the batch was sent.", true));
                }
            } else if (e.reading() instanceof CallReader.Refused r) {
                Logger.info("refused a tools/call: {}", r.refusal().reason());
                if (r.refusal().id() != null) {
                    answers.add(ProxyLines.error(r.refusal().id(), r.refusal().code(), r.refusal().message()));
                }
            } else if (CallTable.isRequest(e.message())) {
                answers.add(ProxyLines.error(e.message().get("id"), CallReader.INVALID_REQUEST, "Not sent: it came in a"
                        + " batch with a call the policy check refused, and nothing in the batch was sent."));
            }
        }
        return answers;
    }
}
