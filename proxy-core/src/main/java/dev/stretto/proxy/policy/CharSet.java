package dev.stretto.proxy.policy;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A set of characters (code points) for a {@link Regex}: sorted, disjoint ranges, looked up by
 * binary search.
 *
 * @param ranges pairs of code points, from and to (inclusive), sorted and apart
 */
record CharSet(int[] ranges) {

    /** Every character. */
    static final CharSet ANY = new CharSet(new int[] {0, Character.MAX_CODE_POINT});
    /** {@code \d}. */
    static final CharSet DIGIT = new CharSet(new int[] {'0', '9'});
    /** {@code \w}. */
    static final CharSet WORD = of(List.of(new int[] {'0', '9'}, new int[] {'A', 'Z'}, new int[] {'_', '_'},
            new int[] {'a', 'z'}));
    /** {@code \s}: space, tab, line feed, vertical tab, form feed, carriage return. */
    static final CharSet SPACE = of(List.of(new int[] {'\t', '\r'}, new int[] {' ', ' '}));

    /** One character. */
    static CharSet of(int c) {
        return new CharSet(new int[] {c, c});
    }

    /** The union of {@code pairs} (each {from, to}), sorted and merged. */
    static CharSet of(List<int[]> pairs) {
        List<int[]> sorted = new ArrayList<>(pairs);
        sorted.sort((a, b) -> Integer.compare(a[0], b[0]));
        List<int[]> merged = new ArrayList<>();
        for (int[] p : sorted) {
            if (!merged.isEmpty() && p[0] <= merged.getLast()[1] + 1) {
                merged.getLast()[1] = Math.max(merged.getLast()[1], p[1]);
            } else {
                merged.add(new int[] {p[0], p[1]});
            }
        }
        int[] out = new int[merged.size() * 2];
        for (int i = 0; i < merged.size(); i++) {
            out[2 * i] = merged.get(i)[0];
            out[2 * i + 1] = merged.get(i)[1];
        }
        return new CharSet(out);
    }

    /** The ranges as pairs, for a union. */
    List<int[]> pairs() {
        List<int[]> out = new ArrayList<>();
        for (int i = 0; i < ranges.length; i += 2) {
            out.add(new int[] {ranges[i], ranges[i + 1]});
        }
        return out;
    }

    /** Every character not in this set. */
    CharSet complement() {
        List<int[]> out = new ArrayList<>();
        int from = 0;
        for (int i = 0; i < ranges.length; i += 2) {
            if (ranges[i] > from) {
                out.add(new int[] {from, ranges[i] - 1});
            }
            from = ranges[i + 1] + 1;
        }
        if (from <= Character.MAX_CODE_POINT) {
            out.add(new int[] {from, Character.MAX_CODE_POINT});
        }
        return of(out);
    }

    /** Whether {@code c} is in the set. */
    boolean has(int c) {
        int lo = 0;
        int hi = ranges.length / 2 - 1;
        while (lo <= hi) {
            int mid = (lo + hi) >>> 1;
            if (c < ranges[2 * mid]) {
                hi = mid - 1;
            } else if (c > ranges[2 * mid + 1]) {
                lo = mid + 1;
            } else {
                return true;
            }
        }
        return false;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof CharSet other && Arrays.equals(ranges, other.ranges);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(ranges);
    }

    @Override
    public String toString() {
        return "CharSet" + Arrays.toString(ranges);
    }
}
