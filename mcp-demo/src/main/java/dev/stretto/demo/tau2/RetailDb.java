package dev.stretto.demo.tau2;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * τ²-bench's retail database ({@code RetailDB}): products, users and orders by id, in the
 * file's order, which τ²'s searches follow. One is read once; each session works on its own
 * {@link #copy()}, which costs two map copies since every record is immutable and a write
 * replaces the records it changes.
 */
public final class RetailDb {
    /** Where the database this build ships (testdata/tau2-retail/db.json) is on the class path. */
    static final String BUNDLED = "/dev/stretto/demo/tau2/db.json";

    final Map<String, Product> products;
    final Map<String, User> users;
    final Map<String, Order> orders;

    private RetailDb(Map<String, Product> products, Map<String, User> users, Map<String, Order> orders) {
        this.products = products;
        this.users = users;
        this.orders = orders;
    }

    /** {@return a copy to change: what one session starts from} */
    public RetailDb copy() {
        return new RetailDb(products, new LinkedHashMap<>(users), new LinkedHashMap<>(orders));
    }

    /**
     * Reads a database in τ²'s {@code db.json} format.
     *
     * @param file the file
     * @return the database
     * @throws IOException if the file cannot be read
     * @throws IllegalArgumentException if it is not JSON of that shape; the message says where
     */
    public static RetailDb read(Path file) throws IOException {
        try (InputStream in = Files.newInputStream(file)) {
            return read(in);
        }
    }

    /** {@return the database this build ships: τ²-bench's own, as testdata/tau2-retail has it} */
    public static RetailDb bundled() {
        try (InputStream in = RetailDb.class.getResourceAsStream(BUNDLED)) {
            if (in == null) {
                throw new IllegalStateException("the build has no " + BUNDLED);
            }
            return read(in);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static RetailDb read(InputStream in) throws IOException {
        JsonNode root;
        try {
            root = CanonicalJson.mapper().readTree(in);
        } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
            throw new IllegalArgumentException("not JSON: " + e.getOriginalMessage());
        }
        Reader r = new Reader();
        Map<String, Product> products = new LinkedHashMap<>();
        r.entries(root, "products").forEach((id, p) -> products.put(id, r.product(p, "products." + id)));
        Map<String, User> users = new LinkedHashMap<>();
        r.entries(root, "users").forEach((id, u) -> users.put(id, r.user(u, "users." + id)));
        Map<String, Order> orders = new LinkedHashMap<>();
        r.entries(root, "orders").forEach((id, o) -> orders.put(id, r.order(o, "orders." + id)));
        return new RetailDb(Collections.unmodifiableMap(products), users, orders);
    }

    /** Reads the records, checking each field as τ²'s pydantic models do. */
    private static final class Reader {

        Map<String, JsonNode> entries(JsonNode parent, String field) {
            JsonNode node = parent.get(field);
            if (node == null || !node.isObject()) {
                throw bad(field, "an object");
            }
            Map<String, JsonNode> out = new LinkedHashMap<>();
            node.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
            return out;
        }

        Product product(JsonNode p, String at) {
            Map<String, Variant> variants = new LinkedHashMap<>();
            entries(object(p, at), "variants").forEach((id, v) -> {
                String vat = at + ".variants." + id;
                variants.put(id, new Variant(text(v, "item_id", vat), strings(v, "options", vat),
                        bool(v, "available", vat), number(v, "price", vat)));
            });
            return new Product(text(p, "name", at), text(p, "product_id", at), Collections.unmodifiableMap(variants));
        }

        User user(JsonNode u, String at) {
            JsonNode name = object(field(u, "name", at), at + ".name");
            Map<String, PaymentMethod> methods = new LinkedHashMap<>();
            entries(object(u, at), "payment_methods").forEach((id, m) -> methods.put(id, method(m,
                    at + ".payment_methods." + id)));
            return new User(text(u, "user_id", at), text(name, "first_name", at + ".name"),
                    text(name, "last_name", at + ".name"), address(field(u, "address", at), at + ".address"),
                    text(u, "email", at), Collections.unmodifiableMap(methods), textList(u, "orders", at));
        }

        PaymentMethod method(JsonNode m, String at) {
            String source = text(m, "source", at);
            return switch (source) {
                case "credit_card" -> new PaymentMethod.CreditCard(text(m, "id", at), text(m, "brand", at),
                        text(m, "last_four", at));
                case "paypal" -> new PaymentMethod.Paypal(text(m, "id", at));
                case "gift_card" -> new PaymentMethod.GiftCard(text(m, "id", at), number(m, "balance", at));
                default -> throw bad(at + ".source", "credit_card, paypal or gift_card");
            };
        }

        Address address(JsonNode a, String at) {
            object(a, at);
            return new Address(text(a, "address1", at), text(a, "address2", at), text(a, "city", at),
                    text(a, "country", at), text(a, "state", at), text(a, "zip", at));
        }

        Order order(JsonNode o, String at) {
            object(o, at);
            List<OrderItem> items = new ArrayList<>();
            for (JsonNode i : array(o, "items", at)) {
                items.add(new OrderItem(text(i, "name", at + ".items"), text(i, "product_id", at + ".items"),
                        text(i, "item_id", at + ".items"), number(i, "price", at + ".items"),
                        strings(i, "options", at + ".items")));
            }
            List<Fulfillment> fulfillments = new ArrayList<>();
            for (JsonNode f : array(o, "fulfillments", at)) {
                fulfillments.add(new Fulfillment(textList(f, "tracking_id", at + ".fulfillments"),
                        textList(f, "item_ids", at + ".fulfillments")));
            }
            List<OrderPayment> payments = new ArrayList<>();
            for (JsonNode p : array(o, "payment_history", at)) {
                payments.add(new OrderPayment(text(p, "transaction_type", at + ".payment_history"),
                        number(p, "amount", at + ".payment_history"),
                        text(p, "payment_method_id", at + ".payment_history")));
            }
            JsonNode difference = o.get("exchange_price_difference");
            return new Order(text(o, "order_id", at), text(o, "user_id", at), address(field(o, "address", at),
                    at + ".address"), List.copyOf(items), text(o, "status", at), List.copyOf(fulfillments),
                    List.copyOf(payments), optionalText(o, "cancel_reason", at),
                    optionalTextList(o, "exchange_items", at), optionalTextList(o, "exchange_new_items", at),
                    optionalText(o, "exchange_payment_method_id", at),
                    difference == null || difference.isNull() ? null : number(o, "exchange_price_difference", at),
                    optionalTextList(o, "return_items", at), optionalText(o, "return_payment_method_id", at));
        }

        JsonNode object(JsonNode node, String at) {
            if (node == null || !node.isObject()) {
                throw bad(at, "an object");
            }
            return node;
        }

        JsonNode field(JsonNode parent, String name, String at) {
            JsonNode node = object(parent, at).get(name);
            if (node == null) {
                throw bad(at + "." + name, "present");
            }
            return node;
        }

        String text(JsonNode parent, String name, String at) {
            JsonNode node = field(parent, name, at);
            if (!node.isTextual()) {
                throw bad(at + "." + name, "a string");
            }
            return node.textValue();
        }

        String optionalText(JsonNode parent, String name, String at) {
            JsonNode node = parent.get(name);
            return node == null || node.isNull() ? null : text(parent, name, at);
        }

        double number(JsonNode parent, String name, String at) {
            JsonNode node = field(parent, name, at);
            if (!node.isNumber()) {
                throw bad(at + "." + name, "a number");
            }
            return node.doubleValue();
        }

        boolean bool(JsonNode parent, String name, String at) {
            JsonNode node = field(parent, name, at);
            if (!node.isBoolean()) {
                throw bad(at + "." + name, "true or false");
            }
            return node.booleanValue();
        }

        JsonNode array(JsonNode parent, String name, String at) {
            JsonNode node = field(parent, name, at);
            if (!node.isArray()) {
                throw bad(at + "." + name, "a list");
            }
            return node;
        }

        List<String> textList(JsonNode parent, String name, String at) {
            List<String> out = new ArrayList<>();
            for (JsonNode s : array(parent, name, at)) {
                if (!s.isTextual()) {
                    throw bad(at + "." + name, "a list of strings");
                }
                out.add(s.textValue());
            }
            return List.copyOf(out);
        }

        List<String> optionalTextList(JsonNode parent, String name, String at) {
            JsonNode node = parent.get(name);
            return node == null || node.isNull() ? null : textList(parent, name, at);
        }

        Map<String, String> strings(JsonNode parent, String name, String at) {
            JsonNode node = field(parent, name, at);
            if (!node.isObject()) {
                throw bad(at + "." + name, "an object of strings");
            }
            Map<String, String> out = new LinkedHashMap<>();
            node.properties().forEach(e -> {
                if (!e.getValue().isTextual()) {
                    throw bad(at + "." + name + "." + e.getKey(), "a string");
                }
                out.put(e.getKey(), e.getValue().textValue());
            });
            return Collections.unmodifiableMap(out);
        }

        private static IllegalArgumentException bad(String at, String expected) {
            return new IllegalArgumentException("not a τ² retail database: " + at + " should be " + expected);
        }
    }
}
