package dev.stretto.demo.tau2;

/** τ²'s {@code OrderPayment}: a payment or a refund of an order. */
record OrderPayment(String transactionType, double amount, String paymentMethodId) {

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("transaction_type").string(transactionType);
        w.key("amount").number(amount);
        w.key("payment_method_id").string(paymentMethodId);
        w.endObject();
    }
}
