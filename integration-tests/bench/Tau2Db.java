// What the τ² benchmark's guard pass needs to know of the retail database: whose each order is,
// its status, and each user's payment methods (see Tau2Bench.java).

import com.fasterxml.jackson.databind.JsonNode;

import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

final class Tau2Db {

    /** An order: its id, its user and its status in the database as shipped. */
    record Order(String id, String user, String status) {
    }

    private final List<Order> orders;
    private final Map<String, List<String>> methods;

    private Tau2Db(List<Order> orders, Map<String, List<String>> methods) {
        this.orders = orders;
        this.methods = methods;
    }

    static Tau2Db read(Path file) throws IOException {
        JsonNode db = Tau2Task.JSON.readTree(file.toFile());
        List<Order> orders = new ArrayList<>();
        db.get("orders").properties().forEach(e -> orders.add(new Order(e.getKey(),
                e.getValue().get("user_id").textValue(), e.getValue().get("status").textValue())));
        Map<String, List<String>> methods = new LinkedHashMap<>();
        db.get("users").properties().forEach(e -> {
            List<String> ids = new ArrayList<>();
            e.getValue().get("payment_methods").fieldNames().forEachRemaining(ids::add);
            methods.put(e.getKey(), ids);
        });
        return new Tau2Db(orders, methods);
    }

    /** The first order of the database with that status whose user is not {@code user}. */
    Order otherOrder(String user, String status) {
        return orders.stream().filter(o -> o.status().equals(status) && !o.user().equals(user)).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + status + " order of another user than " + user));
    }

    /** A payment method of {@code user} of the same kind as {@code like} (a gift card for a gift card), else its first. */
    String methodLike(String user, String like) {
        List<String> mine = methods.get(user);
        String kind = like.replaceAll("_[0-9]+$", "");
        return mine.stream().filter(m -> m.startsWith(kind + "_")).findFirst().orElse(mine.getFirst());
    }
}
