package dev.stretto.proxy.flow.run;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.TimelineBuilder;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Source;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.List;
import java.util.Optional;
import java.util.Random;

/**
 * A long retail-like session made up from a seed, fed line by line to a {@link TimelineBuilder}
 * as the actor feeds it, with a flow run after each agent call whose answer has a result,
 * driven as {@code FlowHook} drives it: decide on the episode so far cut at the run's call,
 * send each lookup as the proxy's own request and feed back the world's answer. The agent
 * finds customers, reads users, orders and products (some answers fail), cancels orders,
 * pipelines a second call now and then, and the conversation says things (mentioning emails
 * and orders) between calls.
 */
final class GeneratedSession {

    private static final JsonNodeFactory JSON = JsonNodeFactory.instance;
    private static final LogHeader HEADER = LogHeader.of("20260101T000000.000Z-7", 1767225600000L, List.of("server"),
            "retail", null, null);

    /** What a decision is given and what it answers, for the caller to time or compare. */
    interface Decider {
        /** Decides the run's next step on {@code cut}. */
        RunStep decide(FlowRun run, EpisodeCut cut);
    }

    /** Called for every run started, with the server's answer that started it. */
    interface Runs {
        /** Starts the run after an agent's call (as {@link FlowSession#startRun}), or null when none may start. */
        FlowRun start(JsonNode after, String tool, JsonNode response);

        /** The lookup's answer reached the run. */
        void answered(FlowRun run, String id, JsonNode response);
    }

    private final Random random;
    private final int customers;
    private final TimelineBuilder timeline = new TimelineBuilder(HEADER);
    private long tMs;
    private int nextId = 1;
    private int lookups;
    private long lastCutNs;

    GeneratedSession(long seed, int customers) {
        this.random = new Random(seed);
        this.customers = customers;
    }

    /** Plays {@code calls} agent calls, the runs after them decided by {@code decider}. */
    void play(int calls, Runs runs, Decider decider) {
        Deque<ObjectNode> sent = new ArrayDeque<>();
        for (int i = 0; i < calls; i++) {
            tMs += random.nextInt(random.nextInt(10) == 0 ? 40 : 1500);
            if (random.nextInt(4) == 0) {
                say(random.nextInt(3) > 0 ? "user" : "assistant");
            }
            ObjectNode call = agentCall();
            timeline.add(tMs, Source.CLIENT, call);
            sent.add(call);
            if (sent.size() < 2 && random.nextInt(5) == 0 && i + 1 < calls) {
                continue; // a second call goes out before the first is answered
            }
            while (!sent.isEmpty()) {
                ObjectNode answered = random.nextBoolean() ? sent.pollFirst() : sent.pollLast();
                tMs += random.nextInt(30);
                JsonNode params = answered.get("params");
                JsonNode response = world(answered.get("id"), params.get("name").textValue(), params.get("arguments"));
                timeline.add(tMs, Source.SERVER, response);
                if (response.has("result")) {
                    FlowRun run = runs.start(answered.get("id"), params.get("name").textValue(), response);
                    if (run != null) {
                        drive(run, runs, decider);
                    }
                }
            }
        }
    }

    private void drive(FlowRun run, Runs runs, Decider decider) {
        RunStep step = decide(run, decider);
        while (step instanceof RunStep.Lookup lookup) {
            String id = "stretto-" + ++lookups;
            ObjectNode request = JSON.objectNode();
            request.put("id", id);
            request.put("jsonrpc", "2.0");
            request.put("method", "tools/call");
            request.putObject("params").put("name", lookup.tool()).set("arguments", lookup.arguments().deepCopy());
            tMs += 1 + random.nextInt(20);
            timeline.add(tMs, Source.PROXY, request);
            JsonNode response = world(request.get("id"), lookup.tool(), lookup.arguments());
            tMs += random.nextInt(20);
            timeline.add(tMs, Source.SERVER, response);
            runs.answered(run, id, response);
            step = decide(run, decider);
        }
    }

    private RunStep decide(FlowRun run, Decider decider) {
        long t0 = System.nanoTime();
        Optional<EpisodeCut> cut = EpisodeCut.afterCall(timeline.episode(), run.cutAt());
        lastCutNs = System.nanoTime() - t0;
        return cut.isPresent() ? decider.decide(run, cut.get()) : run.abandon();
    }

    /** How long the episode so far took to cut for the latest decision, in ns. */
    long lastCutNs() {
        return lastCutNs;
    }

    private void say(String role) {
        ObjectNode line = JSON.objectNode();
        line.put("role", role);
        int c = random.nextInt(customers);
        line.put("content", switch (random.nextInt(3)) {
            case 0 -> "My email is C" + c + "@Example.com, please help.";
            case 1 -> "It is about order #W" + c + (random.nextBoolean() ? "a" : "b") + ".";
            default -> "Thanks, that is all for now.";
        });
        timeline.add(tMs, Source.CONTEXT, line);
    }

    private ObjectNode agentCall() {
        int c = random.nextInt(customers);
        String order = "#W" + c + (random.nextBoolean() ? "a" : "b");
        ObjectNode args = JSON.objectNode();
        String tool = switch (random.nextInt(6)) {
            case 0, 1 -> {
                args.put("email", "c" + c + "@example.com");
                yield "find_user_id_by_email";
            }
            case 2 -> {
                args.put("user_id", "user_" + c);
                yield "get_user_details";
            }
            case 3 -> {
                args.put("order_id", order);
                yield "get_order_details";
            }
            case 4 -> {
                args.put("product_id", "p" + random.nextInt(customers));
                yield "get_product_details";
            }
            default -> {
                args.put("order_id", order);
                args.put("reason", "no longer needed");
                yield "cancel_pending_order";
            }
        };
        ObjectNode call = JSON.objectNode();
        call.set("id", random.nextInt(8) == 0 ? JSON.textNode("req-" + nextId++) : JSON.numberNode(nextId++));
        call.put("jsonrpc", "2.0");
        call.put("method", "tools/call");
        call.putObject("params").put("name", tool).set("arguments", args);
        return call;
    }

    /** The world's answer to {@code tool(arguments)}: a result (sometimes an error result), or a JSON-RPC error. */
    private JsonNode world(JsonNode id, String tool, JsonNode arguments) {
        ObjectNode response = JSON.objectNode();
        response.set("id", id);
        response.put("jsonrpc", "2.0");
        int roll = random.nextInt(20);
        if (roll == 0) {
            response.putObject("error").put("code", -32603).put("message", "internal error");
            return response;
        }
        String text = roll == 1 ? "Error: not found" : switch (tool) {
            case "find_user_id_by_email" -> "user_" + digits(arguments.path("email").asText());
            case "get_user_details" -> {
                String n = digits(arguments.path("user_id").asText());
                yield "{\"email\":\"c" + n + "@example.com\",\"orders\":[\"#W" + n + "a\",\"#W" + n + "b\"],"
                        + "\"payment_methods\":{\"credit_card_" + n + "\":{\"source\":\"credit_card\"}},"
                        + "\"user_id\":\"user_" + n + "\"}";
            }
            case "get_order_details" -> {
                String order = arguments.path("order_id").asText();
                String n = digits(order);
                yield "{\"items\":[{\"product_id\":\"p" + n + "\"},{\"product_id\":\"p" + (n.isEmpty() ? "" : n + "1")
                        + "\"}],\"order_id\":\"" + order + "\",\"status\":\"pending\",\"user_id\":\"user_" + n + "\"}";
            }
            case "get_product_details" -> "{\"name\":\"lamp\",\"product_id\":\"" + arguments.path("product_id").asText()
                    + "\",\"variants\":{\"v1\":{\"available\":true,\"price\":12.5}}}";
            default -> "{\"order_id\":\"" + arguments.path("order_id").asText() + "\",\"status\":\"cancelled\"}";
        };
        ObjectNode result = response.putObject("result");
        ObjectNode item = result.putArray("content").addObject();
        item.put("text", text);
        item.put("type", "text");
        result.put("isError", roll == 1);
        return response;
    }

    private static String digits(String s) {
        return s.replaceAll("[^0-9]", "");
    }
}
