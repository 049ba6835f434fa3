package dev.stretto.proxy.flow.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;

/**
 * The outputs code features are read from: each step's result parsed strictly as JSON
 * (error results too); a result that is not JSON, such as a bare {@code user_1}, is none.
 */
public final class ToolOutputs {

    private ToolOutputs() {
    }

    /** One parsed output per step, null where there is none. */
    public static List<JsonNode> of(List<AgentStep> steps) {
        List<JsonNode> outputs = new ArrayList<>(steps.size());
        for (AgentStep s : steps) {
            outputs.add(s.isRespond() || s.result() == null ? null : parse(s.result()));
        }
        return outputs;
    }

    private static JsonNode parse(String text) {
        try {
            return CanonicalJson.parse(text);
        } catch (IllegalArgumentException notJson) {
            return null;
        }
    }
}
