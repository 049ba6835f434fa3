package dev.stretto.proxy.flow.model;

import dev.stretto.trace.json.CanonicalJson;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * Copies maps into unmodifiable sorted maps in the order the reference writes them: string
 * keys by byte order (code point order), tuple keys element by element, sequences
 * lexicographically, {@code false} before {@code true}. A flow held in this order is written
 * in file order without sorting again.
 */
final class Sorted {

    /** Strings in the byte order of their UTF-8 encodings. */
    static final Comparator<String> NAMES = CanonicalJson::compareCodePoints;

    /** Sequences of symbols (unsigned 32-bit values held in longs), lexicographically. */
    static final Comparator<List<Long>> SYMBOLS = lexicographic(Comparator.<Long>naturalOrder());

    /** Sequences of strings, lexicographically by byte order. */
    static final Comparator<List<String>> STRINGS = lexicographic(NAMES);

    private Sorted() {
    }

    static <T> Comparator<List<T>> lexicographic(Comparator<T> element) {
        return (a, b) -> {
            int n = Math.min(a.size(), b.size());
            for (int i = 0; i < n; i++) {
                int c = element.compare(a.get(i), b.get(i));
                if (c != 0) {
                    return c;
                }
            }
            return Integer.compare(a.size(), b.size());
        };
    }

    /** An unmodifiable copy of {@code map} with its string keys in byte order. */
    static <V> Map<String, V> byName(Map<String, V> map, String what) {
        return by(map, NAMES, what);
    }

    /** An unmodifiable copy of {@code map} sorted by {@code order}; no null keys or values. */
    static <K, V> Map<K, V> by(Map<K, V> map, Comparator<? super K> order, String what) {
        Objects.requireNonNull(map, what);
        TreeMap<K, V> copy = new TreeMap<>(order);
        for (Map.Entry<K, V> e : map.entrySet()) {
            copy.put(Objects.requireNonNull(e.getKey(), () -> what + ": null key"),
                    Objects.requireNonNull(e.getValue(), () -> what + ": null value for " + e.getKey()));
        }
        return Collections.unmodifiableSortedMap(copy);
    }

    /** An unmodifiable copy of a list without nulls. */
    static <T> List<T> list(List<T> list, String what) {
        Objects.requireNonNull(list, what);
        return List.copyOf(list);
    }
}
