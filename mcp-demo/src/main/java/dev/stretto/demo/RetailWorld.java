package dev.stretto.demo;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A tiny shop with four of the tau2-bench retail tool names and canned data. Customer N
 * has the e-mail {@code cN@example.com}, the user id {@code user_N}, the card
 * {@code credit_card_N} and two orders, {@code #WNa} and {@code #WNb}, each holding one
 * desk lamp. Nothing is stored: every order is pending on every call, even right after it
 * was cancelled, so sessions can be replayed against the same answers.
 */
record RetailWorld() implements World {
    private static final Pattern EMAIL = Pattern.compile("c([0-9]+)@example\\.com");
    private static final Pattern USER = Pattern.compile("user_([0-9]+)");
    private static final Pattern ORDER = Pattern.compile("#W([0-9]+)[ab]");
    private static final List<String> REASONS = List.of("no longer needed", "ordered by mistake");

    @Override
    public String name() {
        return "retail";
    }

    @Override
    public List<Tool> tools() {
        return List.of(
                new Tool("find_user_id_by_email", "Find a user id by email.", schema("email"), Hint.READ_ONLY),
                new Tool("get_user_details", "Get a user's details, including their orders.",
                        schema("user_id"), Hint.READ_ONLY),
                new Tool("get_order_details", "Get the status and details of an order.",
                        schema("order_id"), Hint.READ_ONLY),
                new Tool("cancel_pending_order",
                        "Cancel a pending order. The reason is 'no longer needed' or 'ordered by mistake'.",
                        schema("order_id", "reason"), Hint.WRITE));
    }

    /** An object schema whose properties are all required strings. */
    private static ObjectNode schema(String... required) {
        ObjectNode schema = DemoJson.object();
        ObjectNode properties = schema.putObject("properties");
        for (String name : required) {
            properties.putObject(name).put("type", "string");
        }
        var list = schema.putArray("required");
        for (String name : required) {
            list.add(name);
        }
        schema.put("type", "object");
        return schema;
    }

    @Override
    public ToolResult call(String tool, ObjectNode arguments) {
        return switch (tool) {
            case "find_user_id_by_email" -> withString(arguments, "email", RetailWorld::findUser);
            case "get_user_details" -> withString(arguments, "user_id", RetailWorld::userDetails);
            case "get_order_details" -> withString(arguments, "order_id", RetailWorld::orderDetails);
            case "cancel_pending_order" -> withString(arguments, "order_id",
                    order -> withString(arguments, "reason", reason -> cancel(order, reason)));
            default -> throw new IllegalArgumentException("not a retail tool: " + tool);
        };
    }

    private static ToolResult withString(ObjectNode arguments, String name,
                                         java.util.function.Function<String, ToolResult> then) {
        JsonNode value = arguments.get(name);
        if (value == null || !value.isTextual()) {
            return ToolResult.error("Error: Missing argument: " + name + " (a string)");
        }
        return then.apply(value.textValue());
    }

    private static ToolResult findUser(String email) {
        return customer(EMAIL, email)
                .map(n -> ToolResult.ok("user_" + n))
                .orElseGet(() -> ToolResult.error("Error: User not found"));
    }

    private static ToolResult userDetails(String userId) {
        return customer(USER, userId).map(n -> {
            ObjectNode user = DemoJson.object();
            user.put("email", "c" + n + "@example.com");
            user.putArray("orders").add("#W" + n + "a").add("#W" + n + "b");
            user.putObject("payment_methods").putObject("credit_card_" + n).put("source", "credit_card");
            user.put("user_id", "user_" + n);
            return ToolResult.ok(CanonicalJson.write(user));
        }).orElseGet(() -> ToolResult.error("Error: User not found"));
    }

    private static ToolResult orderDetails(String orderId) {
        return customer(ORDER, orderId).map(n -> {
            ObjectNode order = DemoJson.object();
            ObjectNode item = order.putArray("items").addObject();
            item.put("item_id", "1").put("name", "Desk lamp").put("product_id", "p1");
            order.put("order_id", orderId);
            order.putArray("payment_history").addObject().put("payment_method_id", "credit_card_" + n);
            order.put("status", "pending");
            order.put("user_id", "user_" + n);
            return ToolResult.ok(CanonicalJson.write(order));
        }).orElseGet(() -> ToolResult.error("Error: Order not found"));
    }

    private static ToolResult cancel(String orderId, String reason) {
        if (customer(ORDER, orderId).isEmpty()) {
            return ToolResult.error("Error: Order not found");
        }
        if (!REASONS.contains(reason)) {
            return ToolResult.error("Error: Invalid reason");
        }
        ObjectNode cancelled = DemoJson.object();
        cancelled.put("order_id", orderId);
        cancelled.put("status", "cancelled");
        return ToolResult.ok(CanonicalJson.write(cancelled));
    }

    /** The customer number N in a whole-string match of {@code pattern}. */
    private static Optional<String> customer(Pattern pattern, String text) {
        Matcher m = pattern.matcher(text);
        return m.matches() ? Optional.of(m.group(1)) : Optional.empty();
    }
}
