package dev.stretto.proxy.share;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Finds the collected values in a text in one pass, the longest first where two start at one
 * place: letters without case, any run of white space for the one space a value has, and
 * never a value glued to a letter or digit that goes on past it ({@code user_1} is not in
 * {@code user_12}). A value found only as a whole text ({@link Entry#wholeOnly()}) is one too
 * short to look for inside longer ones.
 */
final class ValueTrie {

    /**
     * What a literal stands for.
     *
     * @param value     the value
     * @param exact     for a secret, its text, which must match case and all; else null
     * @param wholeOnly whether it is found only as the whole text
     * @param edgeStart whether its first character is a letter or digit (then none may come before it)
     * @param edgeEnd   whether its last character is (then none may come after it)
     */
    record Entry(PersonalValue value, String exact, boolean wholeOnly, boolean edgeStart, boolean edgeEnd) {
    }

    /** A value found: where, and which. */
    record Hit(int start, int end, Entry entry) {
    }

    private static final class Node {
        final Map<Character, Node> next = new HashMap<>(4);
        List<Entry> entries;
    }

    private final Node root = new Node();
    private int size;

    /** Adds a literal: folded, trimmed, its white space runs as single spaces. */
    void add(String collapsedLiteral, Entry entry) {
        Node n = root;
        for (int i = 0; i < collapsedLiteral.length(); i++) {
            n = n.next.computeIfAbsent(collapsedLiteral.charAt(i), c -> new Node());
        }
        if (n.entries == null) {
            n.entries = new ArrayList<>(1);
        }
        n.entries.add(entry);
        size++;
    }

    boolean isEmpty() {
        return size == 0;
    }

    /**
     * The values in {@code text}, left to right, none overlapping another; none inside the
     * ranges of {@code shielded} (pairs of start and end, in order).
     */
    List<Hit> find(String text, int[] shielded) {
        List<Hit> hits = new ArrayList<>();
        if (size == 0) {
            return hits;
        }
        int n = text.length();
        int wholeStart = 0;
        while (wholeStart < n && Character.isWhitespace(text.charAt(wholeStart))) {
            wholeStart++;
        }
        int wholeEnd = n;
        while (wholeEnd > wholeStart && Character.isWhitespace(text.charAt(wholeEnd - 1))) {
            wholeEnd--;
        }
        int shield = 0;
        int i = 0;
        while (i < n) {
            char c = text.charAt(i);
            if (shielded != null) {
                while (shield < shielded.length && shielded[shield + 1] <= i) {
                    shield += 2;
                }
                if (shield < shielded.length && shielded[shield] <= i) {
                    i = shielded[shield + 1];
                    continue;
                }
            }
            // A value that starts with a letter or digit never starts inside a word.
            boolean glued = i > 0 && Values.isWordChar(text.charAt(i - 1));
            if (glued && Values.isWordChar(c)) {
                i++;
                continue;
            }
            Hit best = longestAt(text, i, glued, wholeStart, wholeEnd, shielded, shield);
            if (best != null) {
                hits.add(best);
                i = best.end();
            } else {
                i++;
            }
        }
        return hits;
    }

    private Hit longestAt(String text, int start, boolean glued, int wholeStart, int wholeEnd, int[] shielded,
                          int shield) {
        int limit = text.length();
        if (shielded != null && shield < shielded.length) {
            limit = Math.min(limit, shielded[shield]);
        }
        Node node = root;
        Hit best = null;
        int j = start;
        while (j < limit) {
            char c = text.charAt(j);
            Node next;
            if (Character.isWhitespace(c)) {
                next = node.next.get(' ');
                if (next == null) {
                    break;
                }
                while (j < limit && Character.isWhitespace(text.charAt(j))) {
                    j++;
                }
            } else {
                next = node.next.get(Values.fold(c));
                if (next == null) {
                    break;
                }
                j++;
            }
            node = next;
            if (node.entries != null) {
                Entry e = pick(node.entries, text, start, j, glued, wholeStart, wholeEnd);
                if (e != null) {
                    best = new Hit(start, j, e);
                }
            }
        }
        return best;
    }

    private static Entry pick(List<Entry> entries, String text, int start, int end, boolean glued, int wholeStart,
                              int wholeEnd) {
        boolean gluedAfter = end < text.length() && Values.isWordChar(text.charAt(end));
        Entry chosen = null;
        for (Entry e : entries) {
            if ((e.edgeStart() && glued) || (e.edgeEnd() && gluedAfter)) {
                continue;
            }
            if (e.wholeOnly() && (start != wholeStart || end != wholeEnd)) {
                continue;
            }
            if (e.exact() != null && !e.exact().equals(text.substring(start, end))) {
                continue;
            }
            if (chosen == null || e.value().kind().ordinal() < chosen.value().kind().ordinal()) {
                chosen = e;
            }
        }
        return chosen;
    }
}
