package dev.stretto.demo.tau2;

/** τ²'s {@code UserAddress}, its fields in the model's order (country before state). */
record Address(String address1, String address2, String city, String country, String state, String zip) {

    void write(PyJsonWriter w) {
        w.beginObject();
        w.key("address1").string(address1);
        w.key("address2").string(address2);
        w.key("city").string(city);
        w.key("country").string(country);
        w.key("state").string(state);
        w.key("zip").string(zip);
        w.endObject();
    }
}
