package dev.stretto.demo.tau2;

import java.util.Map;

/** τ²'s {@code OrderItem}: a product's variant as it was ordered, at its price then. */
record OrderItem(String name, String productId, String itemId, double price, Map<String, String> options) {

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("name").string(name);
        w.key("product_id").string(productId);
        w.key("item_id").string(itemId);
        w.key("price").number(price);
        w.key("options");
        Product.writeStrings(w, options);
        w.endObject();
    }
}
