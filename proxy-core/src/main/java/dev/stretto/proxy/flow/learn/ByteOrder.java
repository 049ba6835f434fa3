package dev.stretto.proxy.flow.learn;

import dev.stretto.trace.json.CanonicalJson;
import java.util.Comparator;
import java.util.TreeMap;

/**
 * Strings in Rust's order, which is the byte order of their UTF-8 encodings (Java's
 * {@code compareTo} orders UTF-16 units, which differs beyond the BMP). The flow lists its
 * maps and vocab in this order.
 */
public final class ByteOrder {

    /** Compares strings as Rust does. */
    public static final Comparator<String> STRINGS = CanonicalJson::compareCodePoints;

    private ByteOrder() {
    }

    /** An empty map sorted by byte order. */
    public static <V> TreeMap<String, V> map() {
        return new TreeMap<>(STRINGS);
    }
}
