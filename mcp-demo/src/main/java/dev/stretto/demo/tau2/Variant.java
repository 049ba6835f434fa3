package dev.stretto.demo.tau2;

import java.util.Map;

/** τ²'s {@code Variant}: one item of a product, with its options, availability and price. */
record Variant(String itemId, Map<String, String> options, boolean available, double price) {

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("item_id").string(itemId);
        w.key("options");
        Product.writeStrings(w, options);
        w.key("available").bool(available);
        w.key("price").number(price);
        w.endObject();
    }
}
