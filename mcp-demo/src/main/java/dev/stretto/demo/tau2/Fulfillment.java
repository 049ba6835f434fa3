package dev.stretto.demo.tau2;

import java.util.List;

/** τ²'s {@code OrderFullfilment}: tracking ids and the items they carry. */
record Fulfillment(List<String> trackingId, List<String> itemIds) {

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("tracking_id").strings(trackingId);
        w.key("item_ids").strings(itemIds);
        w.endObject();
    }
}
