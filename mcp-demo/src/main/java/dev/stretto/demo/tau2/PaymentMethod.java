package dev.stretto.demo.tau2;

/**
 * τ²'s {@code PaymentMethod}, a union told apart by {@code source}. Only a gift card has a
 * balance, which refunds and payments change.
 */
sealed interface PaymentMethod {

    String id();

    void write(PyJsonWriter w);

    /** {@code CreditCard}. */
    record CreditCard(String id, String brand, String lastFour) implements PaymentMethod {
        @Override
        public void write(PyJsonWriter w) {
            w.beginObject();
            w.key("source").string("credit_card");
            w.key("id").string(id);
            w.key("brand").string(brand);
            w.key("last_four").string(lastFour);
            w.endObject();
        }
    }

    /** {@code Paypal}. */
    record Paypal(String id) implements PaymentMethod {
        @Override
        public void write(PyJsonWriter w) {
            w.beginObject();
            w.key("source").string("paypal");
            w.key("id").string(id);
            w.endObject();
        }
    }

    /** {@code GiftCard}. */
    record GiftCard(String id, double balance) implements PaymentMethod {
        GiftCard withBalance(double newBalance) {
            return new GiftCard(id, newBalance);
        }

        @Override
        public void write(PyJsonWriter w) {
            w.beginObject();
            w.key("source").string("gift_card");
            w.key("id").string(id);
            w.key("balance").number(balance);
            w.endObject();
        }
    }
}
