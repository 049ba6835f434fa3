package dev.stretto.demo.tau2;

import java.util.Map;

/** τ²'s {@code Product}: a product type and its variants by item id, in the database's order. */
record Product(String name, String productId, Map<String, Variant> variants) {

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("name").string(name);
        w.key("product_id").string(productId);
        w.key("variants").beginObject();
        variants.forEach((id, v) -> {
            w.key(id);
            v.write(w);
        });
        w.endObject();
        w.endObject();
    }

    /** A {@code Dict[str, str]} in its own order. */
    static void writeStrings(PyJsonWriter w, Map<String, String> map) {
        w.beginObject();
        map.forEach((k, v) -> w.key(k).string(v));
        w.endObject();
    }
}
