package dev.stretto.cli.learn.habit;

import java.util.Arrays;

/**
 * A context of the back-off model: the last few symbols before a step, oldest first, padded
 * on the left with {@link BackoffCounts#PAD}. Symbols are unsigned 32-bit values held in
 * longs. Ordered as Rust orders a {@code Vec<u32>}: element by element, then by length.
 */
public final class History implements Comparable<History> {

    private final long[] symbols;

    private History(long[] symbols) {
        this.symbols = symbols;
    }

    /** The context of {@code length} symbols before step {@code t} of {@code symbols}. */
    static History before(long[] symbols, int t, int length) {
        long[] h = new long[length];
        for (int k = 0; k < length; k++) {
            int source = t - length + k;
            h[k] = source < 0 ? BackoffCounts.PAD : symbols[source];
        }
        return new History(h);
    }

    /** A history of the given symbols, for tests and readers. */
    public static History of(long... symbols) {
        return new History(symbols.clone());
    }

    /** How many symbols it holds. */
    public int length() {
        return symbols.length;
    }

    /** The k-th symbol, oldest first. */
    public long symbol(int k) {
        return symbols[k];
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof History h && Arrays.equals(symbols, h.symbols);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(symbols);
    }

    @Override
    public int compareTo(History o) {
        return Arrays.compare(symbols, o.symbols);
    }

    @Override
    public String toString() {
        return Arrays.toString(symbols);
    }
}
