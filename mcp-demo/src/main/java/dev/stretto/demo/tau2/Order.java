package dev.stretto.demo.tau2;

import java.util.List;

/**
 * τ²'s {@code Order}. The optional fields are null until a write sets them, and are written as
 * {@code null} then, as {@code model_dump} does. {@code exchangePriceDifference} is a Python
 * number: a {@link Double}, or the {@link Long} 0 when an exchange named no items.
 */
record Order(String orderId, String userId, Address address, List<OrderItem> items, String status,
             List<Fulfillment> fulfillments, List<OrderPayment> paymentHistory, String cancelReason,
             List<String> exchangeItems, List<String> exchangeNewItems, String exchangePaymentMethodId,
             Number exchangePriceDifference, List<String> returnItems, String returnPaymentMethodId) {

    Order with(Change change) {
        Builder b = new Builder(this);
        change.apply(b);
        return b.build();
    }

    /** Changes some fields of a copy. */
    @FunctionalInterface
    interface Change {
        void apply(Builder b);
    }

    /** The fields of an order being changed. */
    static final class Builder {
        String orderId;
        String userId;
        Address address;
        List<OrderItem> items;
        String status;
        List<Fulfillment> fulfillments;
        List<OrderPayment> paymentHistory;
        String cancelReason;
        List<String> exchangeItems;
        List<String> exchangeNewItems;
        String exchangePaymentMethodId;
        Number exchangePriceDifference;
        List<String> returnItems;
        String returnPaymentMethodId;

        Builder(Order o) {
            orderId = o.orderId;
            userId = o.userId;
            address = o.address;
            items = o.items;
            status = o.status;
            fulfillments = o.fulfillments;
            paymentHistory = o.paymentHistory;
            cancelReason = o.cancelReason;
            exchangeItems = o.exchangeItems;
            exchangeNewItems = o.exchangeNewItems;
            exchangePaymentMethodId = o.exchangePaymentMethodId;
            exchangePriceDifference = o.exchangePriceDifference;
            returnItems = o.returnItems;
            returnPaymentMethodId = o.returnPaymentMethodId;
        }

        Order build() {
            return new Order(orderId, userId, address, List.copyOf(items), status, fulfillments,
                    List.copyOf(paymentHistory), cancelReason, exchangeItems, exchangeNewItems,
                    exchangePaymentMethodId, exchangePriceDifference, returnItems, returnPaymentMethodId);
        }
    }

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("order_id").string(orderId);
        w.key("user_id").string(userId);
        w.key("address");
        address.write(w);
        w.key("items").beginArray();
        items.forEach(i -> i.write(w));
        w.endArray();
        w.key("status").string(status);
        w.key("fulfillments").beginArray();
        fulfillments.forEach(f -> f.write(w));
        w.endArray();
        w.key("payment_history").beginArray();
        paymentHistory.forEach(p -> p.write(w));
        w.endArray();
        w.key("cancel_reason").string(cancelReason);
        w.key("exchange_items").strings(exchangeItems);
        w.key("exchange_new_items").strings(exchangeNewItems);
        w.key("exchange_payment_method_id").string(exchangePaymentMethodId);
        w.key("exchange_price_difference").number(exchangePriceDifference);
        w.key("return_items").strings(returnItems);
        w.key("return_payment_method_id").string(returnPaymentMethodId);
        w.endObject();
    }
}
