package dev.stretto.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.NullNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;

import java.util.List;
import java.util.Optional;

/**
 * The demo's MCP server logic, free of any transport: one incoming message in, one
 * {@link Inbound} decision out. It keeps no per-session state (the version a session agreed
 * is the transport's business), so one handler serves any number of sessions and threads.
 */
final class McpHandler {
    static final String SERVER_NAME = "stretto-mcp-demo";
    static final String SERVER_VERSION = "0.1.0";
    static final String INSTRUCTIONS = "A demo server for stretto-proxy: two tools that echo their arguments.";
    /** Oldest first; a client asking for another version gets the newest. */
    static final List<String> PROTOCOL_VERSIONS = List.of("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25");
    static final String NEWEST_PROTOCOL_VERSION = PROTOCOL_VERSIONS.getLast();

    static final int PARSE_ERROR = -32700;
    static final int INVALID_REQUEST = -32600;
    static final int METHOD_NOT_FOUND = -32601;
    static final int INVALID_PARAMS = -32602;

    /** Waits for a tool call's delay; tests hand in one they can step. */
    @FunctionalInterface
    interface Sleeper {
        void sleep(long millis) throws InterruptedException;
    }

    private final ToolBox tools;
    private final Sleeper sleeper;
    // Shared by an HTTP server's sessions: --rug-pull counts the server's listings.
    private final java.util.concurrent.atomic.AtomicInteger listings = new java.util.concurrent.atomic.AtomicInteger();

    McpHandler(ToolBox tools, Sleeper sleeper) {
        this.tools = tools;
        this.sleeper = sleeper;
    }

    McpHandler(ToolBox tools) {
        this(tools, Thread::sleep);
    }

    /**
     * A handler for one session: the same tools on the world as a new session sees it, so
     * that a world with a database gives each session its own copy.
     */
    McpHandler forSession() {
        return new McpHandler(tools.forSession(), sleeper);
    }

    /** Decides what to do with one message given as UTF-8 bytes. */
    Inbound receive(byte[] bytes, int off, int len) {
        JsonNode message;
        try {
            message = DemoJson.parse(bytes, off, len);
        } catch (DemoJson.MalformedJsonException e) {
            return new Inbound.Rejected(error(NullNode.instance, PARSE_ERROR, "Parse error"));
        }
        return receive(message);
    }

    /** Decides what to do with one parsed message. */
    Inbound receive(JsonNode message) {
        if (!message.isObject()) {
            return new Inbound.Rejected(error(NullNode.instance, INVALID_REQUEST, "Invalid Request"));
        }
        JsonNode id = message.get("id");
        JsonNode method = message.get("method");
        if (method == null) {
            if (id != null && (message.has("result") || message.has("error"))) {
                return new Inbound.Accepted();
            }
            return new Inbound.Rejected(error(id == null ? NullNode.instance : id, INVALID_REQUEST, "Invalid Request"));
        }
        if (!method.isTextual()) {
            return id == null
                    ? new Inbound.Rejected(error(NullNode.instance, INVALID_REQUEST, "Invalid Request"))
                    : new Inbound.Answer(error(id, INVALID_REQUEST, "Invalid Request"));
        }
        if (id == null) {
            return new Inbound.Accepted();
        }
        JsonNode params = message.get("params");
        return switch (method.textValue()) {
            case "initialize" -> initialize(id, params);
            case "ping" -> new Inbound.Answer(result(id, DemoJson.object()));
            case "tools/list" -> new Inbound.Answer(result(id, toolList()));
            case "tools/call" -> toolCall(id, params);
            default -> new Inbound.Answer(error(id, METHOD_NOT_FOUND, "Method not found: " + method.textValue()));
        };
    }

    private Inbound initialize(JsonNode id, JsonNode params) {
        JsonNode asked = params == null ? null : params.get("protocolVersion");
        String version = asked != null && asked.isTextual() && PROTOCOL_VERSIONS.contains(asked.textValue())
                ? asked.textValue()
                : NEWEST_PROTOCOL_VERSION;
        ObjectNode result = DemoJson.object();
        result.putObject("capabilities").putObject("tools").put("listChanged", false);
        result.put("instructions", INSTRUCTIONS);
        result.put("protocolVersion", version);
        result.putObject("serverInfo").put("name", SERVER_NAME).put("version", SERVER_VERSION);
        return new Inbound.Initialize(result(id, result), version);
    }

    private ObjectNode toolList() {
        ObjectNode result = DemoJson.object();
        var list = result.putArray("tools");
        tools.listed(listings.incrementAndGet()).forEach(tool -> list.add(tool.toJson()));
        return result;
    }

    private Inbound toolCall(JsonNode id, JsonNode params) {
        JsonNode name = params == null ? null : params.get("name");
        if (name == null || !name.isTextual()) {
            return new Inbound.Answer(error(id, INVALID_PARAMS,
                    "Invalid params: tools/call needs \"name\", a string"));
        }
        String toolName = name.textValue();
        Optional<Tool> tool = tools.find(toolName);
        if (tool.isEmpty()) {
            String answer = error(id, INVALID_PARAMS, "Unknown tool: " + toolName);
            return new Inbound.ToolCall(toolName, 0, () -> answer);
        }
        JsonNode given = params.get("arguments");
        ObjectNode arguments;
        if (given == null || given.isNull()) {
            arguments = DemoJson.object();
        } else if (given instanceof ObjectNode object) {
            arguments = object;
        } else {
            return new Inbound.Answer(error(id, INVALID_PARAMS,
                    "Invalid params: \"arguments\" must be an object"));
        }
        World world = tools.world();
        long delay = world.delayMillis(arguments);
        return new Inbound.ToolCall(toolName, delay, () -> {
            if (delay > 0) {
                sleeper.sleep(delay);
            }
            ToolResult answer;
            // A world with a database answers one call at a time, in the order they come.
            synchronized (world) {
                answer = world.call(toolName, arguments);
            }
            return result(id, answer.toJson());
        });
    }

    static String result(JsonNode id, JsonNode result) {
        ObjectNode message = DemoJson.object();
        message.set("id", id);
        message.put("jsonrpc", "2.0");
        message.set("result", result);
        return CanonicalJson.write(message);
    }

    static String error(JsonNode id, int code, String text) {
        ObjectNode message = DemoJson.object();
        message.putObject("error").put("code", code).put("message", text);
        message.set("id", id);
        message.put("jsonrpc", "2.0");
        return CanonicalJson.write(message);
    }

    /** A {@code notifications/message} log notification at level info. */
    static String logMessage(String data) {
        ObjectNode message = DemoJson.object();
        message.put("jsonrpc", "2.0");
        message.put("method", "notifications/message");
        message.putObject("params").put("data", data).put("level", "info");
        return CanonicalJson.write(message);
    }

    /** An error the transport itself raises (HTTP status problems), without a request id. */
    static String transportError(String text) {
        return error(JsonNodeFactory.instance.nullNode(), -32000, text);
    }
}
