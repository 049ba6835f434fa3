package dev.stretto.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;

import java.util.List;

/**
 * The default world: {@code lookup} (read-only) and {@code update} (a write), which both
 * store nothing and answer with their own arguments. {@code "fail": true} turns the answer
 * into an error result and {@code "delay_ms": n} makes the call wait first, so that a
 * client can try failures and parallel calls.
 */
record EchoWorld() implements World {
    /** The longest a call may be asked to wait. */
    static final long MAX_DELAY_MS = 10_000;

    @Override
    public String name() {
        return "echo";
    }

    @Override
    public List<Tool> tools() {
        return List.of(
                new Tool("lookup", "Look something up. Stores nothing and answers with its arguments.",
                        schema(), Hint.READ_ONLY),
                new Tool("update", "Update something. Stores nothing and answers with its arguments.",
                        schema(), Hint.WRITE));
    }

    private static ObjectNode schema() {
        ObjectNode properties = DemoJson.object();
        properties.putObject("delay_ms").put("type", "integer").put("minimum", 0).put("maximum", MAX_DELAY_MS)
                .put("description", "Milliseconds to wait before answering (at most 10000).");
        properties.putObject("fail").put("type", "boolean")
                .put("description", "When true, the call answers with an error result.");
        properties.putObject("text").put("type", "string")
                .put("description", "Any text; it comes back in the answer.");
        ObjectNode schema = DemoJson.object();
        schema.set("properties", properties);
        schema.put("type", "object");
        return schema;
    }

    @Override
    public ToolResult call(String tool, ObjectNode arguments) {
        String echoed = CanonicalJson.write(arguments);
        JsonNode fail = arguments.get("fail");
        if (fail != null && fail.isBoolean() && fail.booleanValue()) {
            return ToolResult.error(tool + " failed, as asked: " + echoed);
        }
        return ToolResult.ok(echoed);
    }

    /** A non-negative integer {@code delay_ms}, capped at ten seconds; anything else means no wait. */
    @Override
    public long delayMillis(ObjectNode arguments) {
        JsonNode delay = arguments.get("delay_ms");
        if (delay == null || !delay.isIntegralNumber() || delay.bigIntegerValue().signum() <= 0) {
            return 0;
        }
        return delay.canConvertToLong() ? Math.min(delay.longValue(), MAX_DELAY_MS) : MAX_DELAY_MS;
    }
}
