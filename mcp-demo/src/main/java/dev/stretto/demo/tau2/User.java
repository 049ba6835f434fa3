package dev.stretto.demo.tau2;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/** τ²'s {@code User}: name, default address, e-mail, payment methods by id, order ids. */
record User(String userId, String firstName, String lastName, Address address, String email,
            Map<String, PaymentMethod> paymentMethods, List<String> orders) {

    User withAddress(Address newAddress) {
        return new User(userId, firstName, lastName, newAddress, email, paymentMethods, orders);
    }

    /** The user with one payment method replaced, in its place. */
    User withPaymentMethod(PaymentMethod method) {
        Map<String, PaymentMethod> methods = new LinkedHashMap<>(paymentMethods);
        methods.put(method.id(), method);
        return new User(userId, firstName, lastName, address, email, Collections.unmodifiableMap(methods), orders);
    }

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("user_id").string(userId);
        w.key("name").beginObject().key("first_name").string(firstName).key("last_name").string(lastName).endObject();
        w.key("address");
        address.write(w);
        w.key("email").string(email);
        w.key("payment_methods").beginObject();
        paymentMethods.forEach((id, m) -> {
            w.key(id);
            m.write(w);
        });
        w.endObject();
        w.key("orders").strings(orders);
        w.endObject();
    }
}
