package dev.stretto.proxy.guard;

import static dev.stretto.proxy.guard.CallArgs.array;
import static dev.stretto.proxy.guard.CallArgs.field;
import static dev.stretto.proxy.guard.CallArgs.text;
import static dev.stretto.proxy.guard.CallArgs.texts;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.episode.ToolCall;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The guards of τ²-bench's retail domain: its policy's rules that a proxy can check from the
 * call and what the session has shown. Every rule is enforced except {@code retail.confirmed},
 * whose word list is only logged.
 *
 * <p>One user per conversation: the policy says to "deny any requests for tasks related to any
 * other user". The user is the first one the session authenticated (by email, or by name and
 * zip code); every write is checked for whose user, order and payment method it touches, and
 * one of another user's fails, even of a user authenticated later.
 */
public final class RetailGuards implements GuardDomain {

    static final String CANCEL = "cancel_pending_order";
    static final String MODIFY_ADDRESS = "modify_pending_order_address";
    static final String MODIFY_ITEMS = "modify_pending_order_items";
    static final String MODIFY_PAYMENT = "modify_pending_order_payment";
    static final String MODIFY_USER_ADDRESS = "modify_user_address";
    static final String RETURN = "return_delivered_order_items";
    static final String EXCHANGE = "exchange_delivered_order_items";

    /** Every write of the domain. */
    static final Set<String> WRITES = Set.of(CANCEL, MODIFY_ADDRESS, MODIFY_ITEMS, MODIFY_PAYMENT,
            MODIFY_USER_ADDRESS, RETURN, EXCHANGE);
    /** The writes on an order: all but {@code modify_user_address}. */
    static final Set<String> ORDER_WRITES = Set.of(CANCEL, MODIFY_ADDRESS, MODIFY_ITEMS, MODIFY_PAYMENT, RETURN,
            EXCHANGE);

    static final Set<String> REASONS = Set.of("no longer needed", "ordered by mistake");

    private static final List<Rule> RULES = List.of(
            Rule.enforced("retail.authenticated", WRITES, RetailGuards::authenticated),
            Rule.enforced("retail.own_order", ORDER_WRITES, RetailGuards::ownOrder),
            Rule.enforced("retail.own_user", Set.of(MODIFY_USER_ADDRESS), RetailGuards::ownUser),
            Rule.enforced("retail.status_checked", ORDER_WRITES, RetailGuards::statusChecked),
            Rule.enforced("retail.pending", Set.of(CANCEL, MODIFY_ADDRESS, MODIFY_ITEMS, MODIFY_PAYMENT),
                    RetailGuards::pending),
            Rule.enforced("retail.delivered", Set.of(RETURN, EXCHANGE), RetailGuards::delivered),
            Rule.enforced("retail.cancel_reason", Set.of(CANCEL), RetailGuards::cancelReason),
            Rule.enforced("retail.items_in_order", Set.of(MODIFY_ITEMS, RETURN, EXCHANGE), RetailGuards::itemsInOrder),
            Rule.enforced("retail.same_product", Set.of(MODIFY_ITEMS, EXCHANGE), RetailGuards::sameProduct),
            Rule.enforced("retail.once", Set.of(MODIFY_ITEMS, EXCHANGE), RetailGuards::once),
            Rule.enforced("retail.own_payment", Set.of(MODIFY_ITEMS, MODIFY_PAYMENT, RETURN, EXCHANGE),
                    RetailGuards::ownPayment),
            Rule.enforced("retail.refund_method", Set.of(RETURN), RetailGuards::refundMethod),
            Rule.loggedOnly("retail.confirmed", WRITES, Confirmation::check));

    private static final String NO_ORDER = "the call names no order";
    private static final String NOT_LOOKED_UP = "the order was not looked up";

    @Override
    public String name() {
        return "retail";
    }

    @Override
    public List<Rule> rules() {
        return RULES;
    }

    static Verdict authenticated(ToolCall call, Facts facts) {
        return facts.authenticatedUsers().isEmpty()
                ? Verdict.fail("the user has not been authenticated by email or by name and zip code")
                : Verdict.pass();
    }

    /** The looked-up order the call names, or null. */
    private static JsonNode order(ToolCall call, Facts facts) {
        String id = text(call, "order_id");
        return id == null ? null : facts.orders().get(id);
    }

    /** Why {@link #order} found none: the call names no order, or it was not looked up. */
    private static Verdict orderUnknown(ToolCall call) {
        return Verdict.unknown(text(call, "order_id") == null ? NO_ORDER : NOT_LOOKED_UP);
    }

    /** The user the conversation is about: the first one authenticated, or null. */
    private static String theUser(Facts facts) {
        return facts.authenticatedUsers().stream().findFirst().orElse(null);
    }

    static Verdict ownOrder(ToolCall call, Facts facts) {
        JsonNode order = order(call, facts);
        if (order == null) {
            return orderUnknown(call);
        }
        String me = theUser(facts);
        if (me == null) {
            return Verdict.unknown("nobody has been authenticated");
        }
        String user = field(order, "user_id");
        if (user == null) {
            return Verdict.unknown("the order's user is not known");
        }
        return user.equals(me) ? Verdict.pass()
                : Verdict.fail("the order belongs to " + user + ", not the authenticated user");
    }

    static Verdict ownUser(ToolCall call, Facts facts) {
        return CallArgs.forTheUser(call, theUser(facts), "nobody has been authenticated", "the authenticated user");
    }

    static Verdict statusChecked(ToolCall call, Facts facts) {
        String id = text(call, "order_id");
        if (id == null) {
            return Verdict.unknown(NO_ORDER);
        }
        return facts.orders().containsKey(id) ? Verdict.pass() : Verdict.fail("the order's status was not checked first");
    }

    static Verdict pending(ToolCall call, Facts facts) {
        String status = field(order(call, facts), "status");
        if (status == null) {
            return statusUnknown(call, facts);
        }
        // Address and payment changes are allowed on an order whose items were modified.
        boolean ok = call.name().equals(MODIFY_ADDRESS) || call.name().equals(MODIFY_PAYMENT)
                ? status.contains("pending") : status.equals("pending");
        return ok ? Verdict.pass() : Verdict.fail("the order is " + status + ", not pending");
    }

    static Verdict delivered(ToolCall call, Facts facts) {
        String status = field(order(call, facts), "status");
        if (status == null) {
            return statusUnknown(call, facts);
        }
        return status.equals("delivered") ? Verdict.pass() : Verdict.fail("the order is " + status + ", not delivered");
    }

    private static Verdict statusUnknown(ToolCall call, Facts facts) {
        return order(call, facts) != null ? Verdict.unknown("the order's status is not known") : orderUnknown(call);
    }

    static Verdict cancelReason(ToolCall call, Facts facts) {
        JsonNode reason = call.arguments().get("reason");
        if (reason == null || reason.isNull() || reason.isTextual() && reason.textValue().isBlank()) {
            return Verdict.fail("no reason given");
        }
        String r = reason.isTextual() ? reason.textValue() : dev.stretto.trace.json.CanonicalJson.write(reason);
        return REASONS.contains(r) ? Verdict.pass() : Verdict.fail("'" + r + "' is not an accepted reason");
    }

    static Verdict itemsInOrder(ToolCall call, Facts facts) {
        JsonNode items = array(call, "item_ids");
        if (items == null) {
            return Verdict.unknown("the call names no items");
        }
        JsonNode order = order(call, facts);
        if (order == null) {
            return orderUnknown(call);
        }
        JsonNode orderItems = order.get("items");
        if (orderItems == null || !orderItems.isArray()) {
            return Verdict.unknown("the order's items are not known");
        }
        // A multiset: an item may be named as often as the order holds it.
        List<String> left = new ArrayList<>();
        for (JsonNode item : orderItems) {
            String itemId = field(item, "item_id");
            if (itemId != null) {
                left.add(itemId);
            }
        }
        for (String wanted : texts(items)) {
            if (!left.remove(wanted)) {
                return Verdict.fail("item " + wanted + " is not in the order");
            }
        }
        return Verdict.pass();
    }

    static Verdict sameProduct(ToolCall call, Facts facts) {
        JsonNode olds = array(call, "item_ids");
        JsonNode news = array(call, "new_item_ids");
        if (olds == null || news == null) {
            return Verdict.unknown("the call names no items");
        }
        if (olds.size() != news.size()) {
            return Verdict.fail("the call replaces " + olds.size() + " items with " + news.size());
        }
        JsonNode order = order(call, facts);
        if (order == null) {
            return orderUnknown(call);
        }
        List<String> oldIds = texts(olds);
        List<String> newIds = texts(news);
        for (int i = 0; i < oldIds.size(); i++) {
            String productId = productOf(order, oldIds.get(i));
            if (productId == null) {
                return Verdict.unknown("the product of item " + oldIds.get(i) + " is not known");
            }
            JsonNode product = facts.products().get(productId);
            if (product == null) {
                return Verdict.unknown("product " + productId + " was not looked up");
            }
            JsonNode variants = product.get("variants");
            String newId = newIds.get(i);
            if (variants == null || !variants.isObject() || !variants.has(newId)) {
                return Verdict.fail("item " + newId + " is not a variant of the same product");
            }
            JsonNode available = variants.get(newId).get("available");
            if (available != null && available.isBoolean() && !available.booleanValue()) {
                return Verdict.fail("item " + newId + " is not available");
            }
            if (newId.equals(oldIds.get(i))) {
                return Verdict.fail("item " + newId + " is the item it replaces");
            }
        }
        return Verdict.pass();
    }

    private static String productOf(JsonNode order, String itemId) {
        JsonNode items = order.get("items");
        if (items != null && items.isArray()) {
            for (JsonNode item : items) {
                if (itemId.equals(field(item, "item_id"))) {
                    return field(item, "product_id");
                }
            }
        }
        return null;
    }

    static Verdict once(ToolCall call, Facts facts) {
        String id = text(call, "order_id");
        if (id == null) {
            return Verdict.unknown(NO_ORDER);
        }
        for (Facts.Write w : facts.pastWrites()) {
            if ((w.tool().equals(MODIFY_ITEMS) || w.tool().equals(EXCHANGE)) && id.equals(field(w.arguments(), "order_id"))) {
                return Verdict.fail("the order's items were already changed once");
            }
        }
        return Verdict.pass();
    }

    static Verdict ownPayment(ToolCall call, Facts facts) {
        String method = text(call, "payment_method_id");
        if (method == null) {
            return Verdict.unknown("the call names no payment method");
        }
        String me = theUser(facts);
        JsonNode mine = me == null ? null : facts.users().get(me);
        if (mine != null) {
            return hasMethod(mine, method) ? Verdict.pass() : Verdict.fail("payment method " + method + " is not the user's");
        }
        // Without the user's own details, a method known to be another user's still fails.
        for (Map.Entry<String, JsonNode> other : facts.users().entrySet()) {
            if (!other.getKey().equals(me) && hasMethod(other.getValue(), method)) {
                return Verdict.fail("payment method " + method + " is " + other.getKey() + "'s, not the user's");
            }
        }
        return Verdict.unknown("the user's details were not looked up");
    }

    private static boolean hasMethod(JsonNode userDetails, String method) {
        JsonNode methods = userDetails.get("payment_methods");
        return methods != null && methods.isObject() && methods.has(method);
    }

    static Verdict refundMethod(ToolCall call, Facts facts) {
        String method = text(call, "payment_method_id");
        if (method == null) {
            return Verdict.unknown("the call names no payment method");
        }
        if (method.startsWith("gift_card")) {
            return Verdict.pass();
        }
        JsonNode order = order(call, facts);
        if (order == null) {
            return orderUnknown(call);
        }
        JsonNode history = order.get("payment_history");
        String original = history != null && history.isArray() && !history.isEmpty()
                ? field(history.get(0), "payment_method_id") : null;
        if (original == null) {
            return Verdict.unknown("the order's payment history is not known");
        }
        return original.equals(method) ? Verdict.pass()
                : Verdict.fail("refunds go to the original payment method " + original + " or a gift card, not "
                        + method);
    }
}
