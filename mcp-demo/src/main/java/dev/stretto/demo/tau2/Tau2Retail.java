package dev.stretto.demo.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Optional;

/**
 * τ²-bench's retail tools on one session's database, answering as τ²'s
 * {@code Environment.get_response} answers: a tool's result as τ² serialises it, or
 * {@code Error: <message>} with {@code error} set. Arguments are bound as Python binds keyword
 * arguments, with its messages for an unexpected or a missing one
 * ({@code RetailTools.get_user_details() missing 1 required positional argument: 'user_id'}).
 *
 * <p>One deliberate difference: τ² hands an argument of another JSON type (a number for an
 * order id, a string for a list of item ids) to Python as it is, with results that depend on
 * Python's duck typing; here such a call is an error,
 * {@code Error: argument 'order_id' must be a string}. Not thread-safe: a session's calls are
 * made one at a time.
 */
public final class Tau2Retail {

    /** What τ² says a tool does ({@code ToolType}). */
    public enum Kind {
        /** Reads the database. */
        READ,
        /** Changes the database. */
        WRITE,
        /** Neither: {@code calculate} and {@code transfer_to_human_agents}. */
        GENERIC
    }

    /**
     * A tool's parameter; every one is required, as in τ².
     *
     * @param name        its name
     * @param list        a list of strings rather than a string
     * @param description what τ²'s docstring says of it
     */
    public record Param(String name, boolean list, String description) {
    }

    /**
     * One of the tools.
     *
     * @param name        its name
     * @param kind        its kind
     * @param description the first paragraph of τ²'s docstring
     * @param params      its parameters, in τ²'s order
     */
    public record ToolSpec(String name, Kind kind, String description, List<Param> params) {
    }

    /**
     * An answer.
     *
     * @param text  the result's text
     * @param error whether it is an error
     */
    public record Answer(String text, boolean error) {
    }

    /** Every tool, in the order τ²'s toolkit lists them. */
    public static final List<ToolSpec> TOOLS = List.of(
            new ToolSpec("calculate", Kind.GENERIC,
                    "Calculate the result of a mathematical expression.",
                    List.of(new Param("expression", false, "The mathematical expression to calculate, such as '2 + 2'. The expression can contain numbers, operators (+, -, *, /), parentheses, and spaces."))),
            new ToolSpec("cancel_pending_order", Kind.WRITE,
                    "Cancel a pending order. If the order is already processed or delivered, it cannot be cancelled. The agent needs to explain the cancellation detail and ask for explicit user confirmation (yes/no) to proceed. If the user confirms, the order status will be changed to 'cancelled' and the payment will be refunded. The refund will be added to the user's gift card balance immediately if the payment was made using a gift card, otherwise the refund would take 5-7 business days to process. The function returns the order details after the cancellation.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."),
                            new Param("reason", false, "The reason for cancellation, which should be either 'no longer needed' or 'ordered by mistake'."))),
            new ToolSpec("exchange_delivered_order_items", Kind.WRITE,
                    "Exchange items in a delivered order to new items of the same product type. For a delivered order, return or exchange can be only done once by the agent. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."),
                            new Param("item_ids", true, "The item ids to be exchanged, each such as '1008292230'. There could be duplicate items in the list."),
                            new Param("new_item_ids", true, "The item ids to be exchanged for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product."),
                            new Param("payment_method_id", false, "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details."))),
            new ToolSpec("find_user_id_by_name_zip", Kind.READ,
                    "Find user id by first name, last name, and zip code. If the user is not found, the function will return an error message. By default, find user id by email, and only call this function if the user is not found by email or cannot remember email.",
                    List.of(new Param("first_name", false, "The first name of the customer, such as 'John'."),
                            new Param("last_name", false, "The last name of the customer, such as 'Doe'."),
                            new Param("zip", false, "The zip code of the customer, such as '12345'."))),
            new ToolSpec("find_user_id_by_email", Kind.READ,
                    "Find user id by email. If the user is not found, the function will return an error message.",
                    List.of(new Param("email", false, "The email of the user, such as 'something@example.com'."))),
            new ToolSpec("get_order_details", Kind.READ,
                    "Get the status and details of an order.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."))),
            new ToolSpec("get_product_details", Kind.READ,
                    "Get the inventory details of a product.",
                    List.of(new Param("product_id", false, "The product id, such as '6086499569'. Be careful the product id is different from the item id."))),
            new ToolSpec("get_item_details", Kind.READ,
                    "Get the inventory details of an item.",
                    List.of(new Param("item_id", false, "The item id, such as '6086499569'. Be careful the item id is different from the product id."))),
            new ToolSpec("get_user_details", Kind.READ,
                    "Get the details of a user, including their orders.",
                    List.of(new Param("user_id", false, "The user id, such as 'sara_doe_496'."))),
            new ToolSpec("list_all_product_types", Kind.READ,
                    "List the name and product id of all product types. Each product type has a variety of different items with unique item ids and options. There are only 50 product types in the store.",
                    List.of()),
            new ToolSpec("modify_pending_order_address", Kind.WRITE,
                    "Modify the shipping address of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."),
                            new Param("address1", false, "The first line of the address, such as '123 Main St'."),
                            new Param("address2", false, "The second line of the address, such as 'Apt 1' or ''."),
                            new Param("city", false, "The city, such as 'San Francisco'."),
                            new Param("state", false, "The state, such as 'CA'."),
                            new Param("country", false, "The country, such as 'USA'."),
                            new Param("zip", false, "The zip code, such as '12345'."))),
            new ToolSpec("modify_pending_order_items", Kind.WRITE,
                    "Modify items in a pending order to new items of the same product type. For a pending order, this function can only be called once. The agent needs to explain the exchange detail and ask for explicit user confirmation (yes/no) to proceed.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."),
                            new Param("item_ids", true, "The item ids to be modified, each such as '1008292230'. There could be duplicate items in the list."),
                            new Param("new_item_ids", true, "The item ids to be modified for, each such as '1008292230'. There could be duplicate items in the list. Each new item id should match the item id in the same position and be of the same product."),
                            new Param("payment_method_id", false, "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details."))),
            new ToolSpec("modify_pending_order_payment", Kind.WRITE,
                    "Modify the payment method of a pending order. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."),
                            new Param("payment_method_id", false, "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details."))),
            new ToolSpec("modify_user_address", Kind.WRITE,
                    "Modify the default address of a user. The agent needs to explain the modification detail and ask for explicit user confirmation (yes/no) to proceed.",
                    List.of(new Param("user_id", false, "The user id, such as 'sara_doe_496'."),
                            new Param("address1", false, "The first line of the address, such as '123 Main St'."),
                            new Param("address2", false, "The second line of the address, such as 'Apt 1' or ''."),
                            new Param("city", false, "The city, such as 'San Francisco'."),
                            new Param("state", false, "The state, such as 'CA'."),
                            new Param("country", false, "The country, such as 'USA'."),
                            new Param("zip", false, "The zip code, such as '12345'."))),
            new ToolSpec("return_delivered_order_items", Kind.WRITE,
                    "Return some items of a delivered order. The order status will be changed to 'return requested'. The agent needs to explain the return detail and ask for explicit user confirmation (yes/no) to proceed. The user will receive follow-up email for how and where to return the item.",
                    List.of(new Param("order_id", false, "The order id, such as '#W0000000'. Be careful there is a '#' symbol at the beginning of the order id."),
                            new Param("item_ids", true, "The item ids to be returned, each such as '1008292230'. There could be duplicate items in the list."),
                            new Param("payment_method_id", false, "The payment method id to pay or receive refund for the item price difference, such as 'gift_card_0000000' or 'credit_card_0000000'. These can be looked up from the user or order details."))),
            new ToolSpec("transfer_to_human_agents", Kind.GENERIC,
                    "Transfer the user to a human agent, with a summary of the user's issue. Only transfer if - the user explicitly asks for a human agent - given the policy and the available tools, you cannot solve the user's issue.",
                    List.of(new Param("summary", false, "A summary of the user's issue."))));

    private final RetailTools tools;

    /**
     * The tools on {@code db}, which the calls change.
     *
     * @param db the session's database (a {@link RetailDb#copy()})
     */
    public Tau2Retail(RetailDb db) {
        this.tools = new RetailTools(db);
    }

    /**
     * {@return the tool of that name, if there is one}
     *
     * @param name the tool's name
     */
    public static Optional<ToolSpec> tool(String name) {
        return TOOLS.stream().filter(t -> t.name().equals(name)).findFirst();
    }

    /**
     * Calls a tool.
     *
     * @param name      the tool
     * @param arguments its arguments
     * @return the answer, an error one when the tool fails (or does not exist)
     */
    public Answer call(String name, ObjectNode arguments) {
        try {
            ToolSpec spec = tool(name).orElseThrow(() -> new ToolError("Tool '" + name + "' not found."));
            return new Answer(dispatch(spec, new Args(spec, arguments)), false);
        } catch (ToolError e) {
            return new Answer("Error: " + e.getMessage(), true);
        }
    }

    private String dispatch(ToolSpec spec, Args a) {
        return switch (spec.name()) {
            case "calculate" -> tools.calculate(a.text(0));
            case "cancel_pending_order" -> tools.cancelPendingOrder(a.text(0), a.text(1));
            case "exchange_delivered_order_items" ->
                    tools.exchangeDeliveredOrderItems(a.text(0), a.list(1), a.list(2), a.text(3));
            case "find_user_id_by_name_zip" -> tools.findUserIdByNameZip(a.text(0), a.text(1), a.text(2));
            case "find_user_id_by_email" -> tools.findUserIdByEmail(a.text(0));
            case "get_order_details" -> tools.getOrderDetails(a.text(0));
            case "get_product_details" -> tools.getProductDetails(a.text(0));
            case "get_item_details" -> tools.getItemDetails(a.text(0));
            case "get_user_details" -> tools.getUserDetails(a.text(0));
            case "list_all_product_types" -> tools.listAllProductTypes();
            case "modify_pending_order_address" -> tools.modifyPendingOrderAddress(a.text(0), a.address(1));
            case "modify_pending_order_items" ->
                    tools.modifyPendingOrderItems(a.text(0), a.list(1), a.list(2), a.text(3));
            case "modify_pending_order_payment" -> tools.modifyPendingOrderPayment(a.text(0), a.text(1));
            case "modify_user_address" -> tools.modifyUserAddress(a.text(0), a.address(1));
            case "return_delivered_order_items" -> tools.returnDeliveredOrderItems(a.text(0), a.list(1), a.text(2));
            case "transfer_to_human_agents" -> tools.transferToHumanAgents(a.text(0));
            default -> throw new IllegalStateException(spec.name());
        };
    }

    /** A call's arguments bound to a tool's parameters, as Python binds keyword arguments. */
    private static final class Args {
        private final ToolSpec spec;
        private final List<JsonNode> values = new ArrayList<>();

        Args(ToolSpec spec, ObjectNode arguments) {
            this.spec = spec;
            String self = "RetailTools." + spec.name() + "()";
            for (Iterator<String> names = arguments.fieldNames(); names.hasNext(); ) {
                String given = names.next();
                if (spec.params().stream().noneMatch(p -> p.name().equals(given))) {
                    throw new ToolError(self + " got an unexpected keyword argument '" + given + "'");
                }
            }
            List<String> missing = new ArrayList<>();
            for (Param p : spec.params()) {
                JsonNode value = arguments.get(p.name());
                if (value == null) {
                    missing.add("'" + p.name() + "'");
                }
                values.add(value);
            }
            if (!missing.isEmpty()) {
                throw new ToolError(self + " missing " + missing.size() + " required positional argument"
                        + (missing.size() == 1 ? "" : "s") + ": " + pythonList(missing));
            }
        }

        /** {@code 'a'}, {@code 'a' and 'b'}, {@code 'a', 'b', and 'c'}: as Python names them. */
        private static String pythonList(List<String> names) {
            if (names.size() == 1) {
                return names.getFirst();
            }
            if (names.size() == 2) {
                return names.get(0) + " and " + names.get(1);
            }
            return String.join(", ", names.subList(0, names.size() - 1)) + ", and " + names.getLast();
        }

        String text(int i) {
            JsonNode v = values.get(i);
            if (!v.isTextual()) {
                throw new ToolError("argument '" + spec.params().get(i).name() + "' must be a string");
            }
            return v.textValue();
        }

        List<String> list(int i) {
            JsonNode v = values.get(i);
            List<String> out = new ArrayList<>();
            if (v.isArray()) {
                for (JsonNode s : v) {
                    if (!s.isTextual()) {
                        out = null;
                        break;
                    }
                    out.add(s.textValue());
                }
            }
            if (!v.isArray() || out == null) {
                throw new ToolError("argument '" + spec.params().get(i).name() + "' must be a list of strings");
            }
            return List.copyOf(out);
        }

        /** The six address parameters from {@code i} on, in τ²'s order (address1, address2, city, state, country, zip). */
        Address address(int i) {
            return new Address(text(i), text(i + 1), text(i + 2), text(i + 4), text(i + 3), text(i + 5));
        }
    }
}
