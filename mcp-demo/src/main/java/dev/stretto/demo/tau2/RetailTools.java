package dev.stretto.demo.tau2;

import dev.stretto.trace.json.CanonicalJson;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/**
 * τ²-bench's retail tools ({@code RetailTools} in tau2's {@code domains/retail/tools.py}),
 * ported line for line onto one session's {@link RetailDb}: the same checks in the same order,
 * the same messages, and the same changes made before a check fails part way (a refund
 * credited to a gift card stays credited when a later payment method is missing, as in
 * Python). Each tool returns its result as τ² serialises it; a failure is a {@link ToolError}.
 *
 * <p>τ²'s quirks are kept, since the benchmark compares with τ²'s own answers: an order's status
 * is {@code "pending" in status} for address and payment changes but exactly {@code pending}
 * for cancelling and item changes; {@code modify_pending_order_items} gives every item it
 * changes the price and options of the last new variant (the loop variable leaks in Python);
 * its price difference is not rounded, an exchange's is; a difference over no items at all is
 * the integer 0.
 */
final class RetailTools {
    /** Python orders strings by code point. */
    private static final Comparator<String> CODE_POINTS = CanonicalJson::compareCodePoints;

    private final RetailDb db;

    RetailTools(RetailDb db) {
        this.db = db;
    }

    // --- the private helpers of tools.py ------------------------------------------------

    private Order getOrder(String orderId) {
        Order order = db.orders.get(orderId);
        if (order == null) {
            throw new ToolError("Order not found");
        }
        return order;
    }

    private User getUser(String userId) {
        User user = db.users.get(userId);
        if (user == null) {
            throw new ToolError("User not found");
        }
        return user;
    }

    private Product getProduct(String productId) {
        Product product = db.products.get(productId);
        if (product == null) {
            throw new ToolError("Product not found");
        }
        return product;
    }

    private Variant getVariant(String productId, String variantId) {
        Variant variant = getProduct(productId).variants().get(variantId);
        if (variant == null) {
            throw new ToolError("Variant not found");
        }
        return variant;
    }

    private PaymentMethod getPaymentMethod(String userId, String paymentMethodId) {
        PaymentMethod method = getUser(userId).paymentMethods().get(paymentMethodId);
        if (method == null) {
            throw new ToolError("Payment method not found");
        }
        return method;
    }

    /** Adds {@code delta} to a gift card's balance, rounded to cents, in the user's record. */
    private void credit(String userId, PaymentMethod.GiftCard card, double delta) {
        double balance = PyFloats.round(card.balance() + delta, 2);
        db.users.put(userId, getUser(userId).withPaymentMethod(card.withBalance(balance)));
    }

    private static int count(List<String> list, String value) {
        int n = 0;
        for (String s : list) {
            if (s.equals(value)) {
                n++;
            }
        }
        return n;
    }

    private static List<String> itemIds(Order order) {
        return order.items().stream().map(OrderItem::itemId).toList();
    }

    private static int firstItem(List<OrderItem> items, String itemId) {
        for (int i = 0; i < items.size(); i++) {
            if (items.get(i).itemId().equals(itemId)) {
                return i;
            }
        }
        return -1;
    }

    private static List<String> sorted(List<String> values) {
        List<String> copy = new ArrayList<>(values);
        copy.sort(CODE_POINTS);
        return List.copyOf(copy);
    }

    private static String dump(Order order) {
        PyJsonWriter w = new PyJsonWriter();
        order.write(w);
        return w.text();
    }

    private static String dump(User user) {
        PyJsonWriter w = new PyJsonWriter();
        user.write(w);
        return w.text();
    }

    // --- the tools ----------------------------------------------------------------------

    String calculate(String expression) {
        return PyExpression.calculate(expression);
    }

    String cancelPendingOrder(String orderId, String reason) {
        Order order = getOrder(orderId);
        if (!order.status().equals("pending")) {
            throw new ToolError("Non-pending order cannot be cancelled");
        }
        if (!reason.equals("no longer needed") && !reason.equals("ordered by mistake")) {
            throw new ToolError("Invalid reason");
        }
        List<OrderPayment> refunds = new ArrayList<>();
        for (OrderPayment payment : order.paymentHistory()) {
            refunds.add(new OrderPayment("refund", payment.amount(), payment.paymentMethodId()));
            User user = getUser(order.userId());
            if (getPaymentMethod(user.userId(), payment.paymentMethodId()) instanceof PaymentMethod.GiftCard card) {
                credit(user.userId(), card, payment.amount());
            }
        }
        Order cancelled = order.with(b -> {
            b.status = "cancelled";
            b.cancelReason = reason;
            List<OrderPayment> history = new ArrayList<>(b.paymentHistory);
            history.addAll(refunds);
            b.paymentHistory = history;
        });
        db.orders.put(orderId, cancelled);
        return dump(cancelled);
    }

    String exchangeDeliveredOrderItems(String orderId, List<String> itemIds, List<String> newItemIds,
                                       String paymentMethodId) {
        Order order = getOrder(orderId);
        if (!order.status().equals("delivered")) {
            throw new ToolError("Non-delivered order cannot be exchanged");
        }
        List<String> all = itemIds(order);
        for (String itemId : itemIds) {
            if (count(itemIds, itemId) > count(all, itemId)) {
                throw new ToolError("Number of " + itemId + " not found.");
            }
        }
        if (itemIds.size() != newItemIds.size()) {
            throw new ToolError("The number of items to be exchanged should match.");
        }
        double diff = 0;
        for (int k = 0; k < itemIds.size(); k++) {
            int at = firstItem(order.items(), itemIds.get(k));
            if (at < 0) {
                throw new ToolError("Item " + itemIds.get(k) + " not found");
            }
            OrderItem item = order.items().get(at);
            Variant variant = getVariant(item.productId(), newItemIds.get(k));
            if (!variant.available()) {
                throw new ToolError("New item " + newItemIds.get(k) + " not found or available");
            }
            diff += variant.price() - item.price();
        }
        // Python's diff starts as the integer 0 and stays one when no item is named.
        Number difference = itemIds.isEmpty() ? (Number) 0L : (Number) PyFloats.round(diff, 2);
        PaymentMethod method = getPaymentMethod(order.userId(), paymentMethodId);
        if (method instanceof PaymentMethod.GiftCard card && card.balance() < difference.doubleValue()) {
            throw new ToolError("Insufficient gift card balance to pay for the price difference");
        }
        Order changed = order.with(b -> {
            b.status = "exchange requested";
            b.exchangeItems = sorted(itemIds);
            b.exchangeNewItems = sorted(newItemIds);
            b.exchangePaymentMethodId = paymentMethodId;
            b.exchangePriceDifference = difference;
        });
        db.orders.put(orderId, changed);
        return dump(changed);
    }

    String findUserIdByNameZip(String firstName, String lastName, String zip) {
        for (Map.Entry<String, User> e : db.users.entrySet()) {
            User u = e.getValue();
            if (lower(u.firstName()).equals(lower(firstName)) && lower(u.lastName()).equals(lower(lastName))
                    && u.address().zip().equals(zip)) {
                return e.getKey();
            }
        }
        throw new ToolError("User not found");
    }

    String findUserIdByEmail(String email) {
        for (Map.Entry<String, User> e : db.users.entrySet()) {
            if (lower(e.getValue().email()).equals(lower(email))) {
                return e.getKey();
            }
        }
        throw new ToolError("User not found");
    }

    private static String lower(String s) {
        return s.toLowerCase(Locale.ROOT);
    }

    String getOrderDetails(String orderId) {
        return dump(getOrder(orderId));
    }

    String getProductDetails(String productId) {
        PyJsonWriter w = new PyJsonWriter();
        getProduct(productId).write(w);
        return w.text();
    }

    String getItemDetails(String itemId) {
        for (Product product : db.products.values()) {
            Variant variant = product.variants().get(itemId);
            if (variant != null) {
                PyJsonWriter w = new PyJsonWriter();
                variant.write(w);
                return w.text();
            }
        }
        throw new ToolError("Item not found");
    }

    String getUserDetails(String userId) {
        return dump(getUser(userId));
    }

    String listAllProductTypes() {
        Map<String, String> byName = new TreeMap<>(CODE_POINTS);
        for (Product product : db.products.values()) {
            byName.put(product.name(), product.productId());
        }
        PyJsonWriter w = new PyJsonWriter();
        Product.writeStrings(w, byName);
        return w.text();
    }

    String modifyPendingOrderAddress(String orderId, Address address) {
        Order order = getOrder(orderId);
        if (!order.status().contains("pending")) {
            throw new ToolError("Non-pending order cannot be modified");
        }
        Order changed = order.with(b -> b.address = address);
        db.orders.put(orderId, changed);
        return dump(changed);
    }

    String modifyPendingOrderItems(String orderId, List<String> itemIds, List<String> newItemIds,
                                   String paymentMethodId) {
        Order order = getOrder(orderId);
        if (!order.status().equals("pending")) {
            throw new ToolError("Non-pending order cannot be modified");
        }
        List<String> all = itemIds(order);
        for (String itemId : itemIds) {
            if (count(itemIds, itemId) > count(all, itemId)) {
                throw new ToolError(itemId + " not found");
            }
        }
        if (itemIds.size() != newItemIds.size()) {
            throw new ToolError("The number of items to be exchanged should match");
        }
        double diff = 0;
        Variant variant = null;
        for (int k = 0; k < itemIds.size(); k++) {
            if (itemIds.get(k).equals(newItemIds.get(k))) {
                throw new ToolError("The new item id should be different from the old item id");
            }
            int at = firstItem(order.items(), itemIds.get(k));
            if (at < 0) {
                throw new ToolError("Item " + itemIds.get(k) + " not found");
            }
            OrderItem item = order.items().get(at);
            variant = getVariant(item.productId(), newItemIds.get(k));
            if (!variant.available()) {
                throw new ToolError("New item " + newItemIds.get(k) + " not found or available");
            }
            diff += variant.price() - item.price();
        }
        PaymentMethod method = getPaymentMethod(order.userId(), paymentMethodId);
        if (method instanceof PaymentMethod.GiftCard card && card.balance() < diff) {
            throw new ToolError("Insufficient gift card balance to pay for the new item");
        }
        double difference = diff;
        List<OrderPayment> history = new ArrayList<>(order.paymentHistory());
        history.add(new OrderPayment(difference > 0 ? "payment" : "refund", Math.abs(difference), paymentMethodId));
        order = order.with(b -> b.paymentHistory = history);
        db.orders.put(orderId, order);
        if (method instanceof PaymentMethod.GiftCard card) {
            credit(order.userId(), card, -difference);
        }
        List<OrderItem> items = new ArrayList<>(order.items());
        for (int k = 0; k < itemIds.size(); k++) {
            int at = firstItem(items, itemIds.get(k));
            if (at < 0) {
                throw new ToolError("Item " + itemIds.get(k) + " not found");
            }
            OrderItem item = items.get(at);
            // tools.py's quirk: `variant` is the loop variable of the price check, so every
            // changed item gets the last new variant's price and options.
            items.set(at, new OrderItem(item.name(), item.productId(), newItemIds.get(k), variant.price(),
                    variant.options()));
            List<OrderItem> sofar = List.copyOf(items);
            db.orders.put(orderId, db.orders.get(orderId).with(b -> b.items = sofar));
        }
        Order changed = db.orders.get(orderId).with(b -> b.status = "pending (item modified)");
        db.orders.put(orderId, changed);
        return dump(changed);
    }

    String modifyPendingOrderPayment(String orderId, String paymentMethodId) {
        Order order = getOrder(orderId);
        if (!order.status().contains("pending")) {
            throw new ToolError("Non-pending order cannot be modified");
        }
        PaymentMethod method = getPaymentMethod(order.userId(), paymentMethodId);
        List<OrderPayment> history = order.paymentHistory();
        if (history.size() != 1 || !history.getFirst().transactionType().equals("payment")) {
            throw new ToolError("There should be exactly one payment for a pending order");
        }
        OrderPayment original = history.getFirst();
        if (original.paymentMethodId().equals(paymentMethodId)) {
            throw new ToolError("The new payment method should be different from the current one");
        }
        double amount = original.amount();
        if (method instanceof PaymentMethod.GiftCard card && card.balance() < amount) {
            throw new ToolError("Insufficient gift card balance to pay for the order");
        }
        List<OrderPayment> extended = new ArrayList<>(history);
        extended.add(new OrderPayment("payment", amount, paymentMethodId));
        extended.add(new OrderPayment("refund", amount, original.paymentMethodId()));
        Order changed = order.with(b -> b.paymentHistory = extended);
        db.orders.put(orderId, changed);
        if (method instanceof PaymentMethod.GiftCard card) {
            credit(order.userId(), card, -amount);
        }
        if (getPaymentMethod(order.userId(), original.paymentMethodId()) instanceof PaymentMethod.GiftCard old) {
            credit(order.userId(), old, amount);
        }
        return dump(changed);
    }

    String modifyUserAddress(String userId, Address address) {
        User changed = getUser(userId).withAddress(address);
        db.users.put(userId, changed);
        return dump(changed);
    }

    String returnDeliveredOrderItems(String orderId, List<String> itemIds, String paymentMethodId) {
        Order order = getOrder(orderId);
        if (!order.status().equals("delivered")) {
            throw new ToolError("Non-delivered order cannot be returned");
        }
        User user = getUser(order.userId());
        PaymentMethod method = getPaymentMethod(user.userId(), paymentMethodId);
        if (!(method instanceof PaymentMethod.GiftCard)) {
            if (order.paymentHistory().isEmpty()) {
                throw new ToolError("list index out of range");
            }
            if (!paymentMethodId.equals(order.paymentHistory().getFirst().paymentMethodId())) {
                throw new ToolError("Payment method should be the original payment method");
            }
        }
        List<String> all = itemIds(order);
        for (String itemId : itemIds) {
            if (count(itemIds, itemId) > count(all, itemId)) {
                throw new ToolError("Some item not found");
            }
        }
        Order changed = order.with(b -> {
            b.status = "return requested";
            b.returnItems = sorted(itemIds);
            b.returnPaymentMethodId = paymentMethodId;
        });
        db.orders.put(orderId, changed);
        return dump(changed);
    }

    String transferToHumanAgents(String summary) {
        return "Transfer successful";
    }
}
