package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.proxy.logging.Logger;
import java.util.List;

/**
 * What the host gets for a batch that was refused whole: one answer per request in it, in
 * order, as one batch. A call the checks refused gets its refusal; a call that would have
 * passed, that it was not run; a call that could not be read as every server reads it, its
 * JSON-RPC error (none for one without an id); any other request, that it was not sent.
 * Notifications and responses get nothing, as JSON-RPC has it.
 */
final class BatchRefusal {

    private BatchRefusal() {
    }

    /**
     * The answers, and a line on stderr for each refusal.
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
            } else if (isRequest(e.message())) {
                answers.add(ProxyLines.error(e.message().get("id"), CallReader.INVALID_REQUEST, "Not sent: it came in a"
                        + " batch with a call the policy check refused, and nothing in the batch was sent."));
            }
        }
        return answers;
    }

    /** A message with a method and an id: a request, whose answer the host waits for. */
    static boolean isRequest(JsonNode m) {
        JsonNode id = m.get("id");
        return m.isObject() && m.path("method").isTextual() && id != null && !id.isNull();
    }
}
