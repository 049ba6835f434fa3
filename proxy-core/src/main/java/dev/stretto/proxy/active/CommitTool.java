package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * The {@code stretto_commit} tool of {@code --commit}: its definition as {@code tools/list}
 * answers list it, the sentence added to the server's {@code instructions}, what input it
 * takes, and how its result reads. The run itself is {@link CommitRun}.
 */
final class CommitTool {

    static final String NAME = Timeline.COMMIT_TOOL;

    /** The tool as listed, exactly as the reference lists it (written with sorted keys). */
    static final JsonNode DEFINITION = CanonicalJson.parse("""
            {"name":"stretto_commit",
             "description":"Make several changes in one call, in order, once the user has confirmed all of them. \
            Each call is checked against the policy first; the first call that is refused or fails stops the rest. \
            Returns each call's result.",
             "inputSchema":{"type":"object","properties":{"calls":{"type":"array","minItems":1,"items":{"type":"object",\
            "properties":{"name":{"type":"string","description":"One of the other tools."},"arguments":{"type":"object"}},\
            "required":["name","arguments"]}}},"required":["calls"]},
             "annotations":{"readOnlyHint":false,"destructiveHint":true}}""");

    /**
     * Appended to the server's {@code instructions} in the initialize answer (the reference's
     * own sentence is not known; this one is ours).
     */
    static final String INSTRUCTIONS = "Once the user has confirmed several changes, make them in one stretto_commit"
            + " call: it runs them in order and stops at the first that is refused or fails.";

    /** The answer to input the tool does not take; nothing is run then. */
    static final String INVALID = "stretto_commit takes {\"calls\": [{\"name\": tool, \"arguments\": {...}}, ...]},"
            + " one or more calls of the server's tools; nothing was run.";

    /**
     * One call a commit makes.
     *
     * @param name      the tool
     * @param arguments its arguments ({@code {}} when the input gave none)
     */
    record Planned(String name, JsonNode arguments) {

        /** How the result text names the call: {@code <name> <arguments as compact sorted JSON>}. */
        String label() {
            return name + " " + CanonicalJson.write(arguments);
        }
    }

    private CommitTool() {
    }

    /**
     * The calls a commit's {@code params} ask for, in order; empty when the input is not what
     * the tool takes: no {@code calls} array, an empty one, an entry without a string {@code
     * name}, one naming {@code stretto_commit}, or one whose {@code arguments} is not an object.
     */
    static Optional<List<Planned>> plan(JsonNode params) {
        JsonNode calls = params == null ? null : params.path("arguments").get("calls");
        if (calls == null || !calls.isArray() || calls.isEmpty()) {
            return Optional.empty();
        }
        List<Planned> planned = new ArrayList<>();
        for (JsonNode c : calls) {
            JsonNode name = c.get("name");
            JsonNode args = c.get("arguments");
            if (!c.isObject() || name == null || !name.isTextual() || name.textValue().equals(NAME)) {
                return Optional.empty();
            }
            if (args == null) {
                args = JsonNodeFactory.instance.objectNode();
            } else if (!args.isObject()) {
                return Optional.empty();
            }
            planned.add(new Planned(name.textValue(), args));
        }
        return Optional.of(planned);
    }

    /**
     * A {@code tools/list} answer with {@code stretto_commit} appended to {@code result.tools},
     * or null to forward the answer as it is: an error, no tool list, a page that is not the
     * last ({@code nextCursor}: the tool is listed once, on the last page), or a server that
     * lists a tool of that name itself.
     */
    static JsonNode withTool(JsonNode response) {
        JsonNode result = response == null ? null : response.get("result");
        if (result == null || !result.isObject() || !(result.get("tools") instanceof ArrayNode tools)
                || result.hasNonNull("nextCursor")) {
            return null;
        }
        for (JsonNode t : tools) {
            if (NAME.equals(t.path("name").textValue())) {
                return null;
            }
        }
        ObjectNode copy = response.deepCopy();
        ((ArrayNode) copy.get("result").get("tools")).add(DEFINITION.deepCopy());
        return copy;
    }

    /**
     * An initialize answer with {@link #INSTRUCTIONS} after the server's own instructions (or
     * as the only ones), or null to forward it as it is (an error).
     */
    static JsonNode withInstructions(JsonNode response) {
        JsonNode result = response == null ? null : response.get("result");
        if (result == null || !result.isObject()) {
            return null;
        }
        ObjectNode copy = response.deepCopy();
        ObjectNode r = (ObjectNode) copy.get("result");
        JsonNode own = r.get("instructions");
        String text = own != null && own.isTextual() && !own.textValue().isBlank()
                ? own.textValue().stripTrailing() + " " + INSTRUCTIONS : INSTRUCTIONS;
        r.put("instructions", text);
        return copy;
    }

    static String succeeded(Planned p, String text) {
        return p.label() + ":\n" + text;
    }

    static String failed(Planned p, String text) {
        return p.label() + " (error):\n" + text;
    }

    static String refused(Planned p, String reason) {
        return p.label() + " was refused by the policy check: " + reason;
    }

    static String noAnswer(Planned p) {
        return p.label() + " got no answer from the server";
    }

    static String notRun(Planned p) {
        return p.label() + " was not run";
    }
}
