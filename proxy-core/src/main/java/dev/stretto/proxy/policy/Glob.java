package dev.stretto.proxy.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A glob, as a policy's tool names and argument values are matched: {@code *} is any run of
 * characters (none included, {@code /} included), {@code ?} one character, {@code [abc]}, {@code
 * [a-z]} and {@code [!a-z]} one character of (or not of) a class, and {@code \} makes the
 * character after it plain. It matches the whole value, character by character (code points),
 * case-sensitively.
 *
 * <p>Matching keeps only the position of the last {@code *} to go back to, so it takes at most
 * the value's length times the glob's, whatever the glob: no glob can make a check slow.
 *
 * @param text  the glob as written
 * @param parts what it is made of, in order
 */
record Glob(String text, List<Part> parts, Shape shape, String literal) {

    /**
     * The shapes most globs have, matched without looking at every part: a plain name, {@code
     * prefix*}, {@code *suffix}, or {@code *}; {@link #OTHER} for the rest.
     */
    enum Shape {
        PLAIN, PREFIX, SUFFIX, ANY, OTHER
    }

    /** One part of a glob. */
    sealed interface Part {
    }

    /** A character that stands for itself. */
    record Plain(int codePoint) implements Part {
    }

    /** {@code ?}: any one character. */
    record One() implements Part {
    }

    /** {@code *}: any run of characters. */
    record Star() implements Part {
    }

    /**
     * {@code [...]}: one character in the ranges, or with {@code negated} one that is in none.
     *
     * @param ranges  the ranges, as pairs of code points: from, to (inclusive)
     * @param negated whether the class was written {@code [!...]}
     */
    record Class(int[] ranges, boolean negated) implements Part {
        boolean has(int c) {
            for (int i = 0; i < ranges.length; i += 2) {
                if (c >= ranges[i] && c <= ranges[i + 1]) {
                    return !negated;
                }
            }
            return negated;
        }
    }

    Glob {
        parts = List.copyOf(parts);
    }

    private static Glob of(String text, List<Part> parts) {
        int stars = (int) parts.stream().filter(p -> p instanceof Star).count();
        boolean othersPlain = parts.stream().allMatch(p -> p instanceof Plain || p instanceof Star);
        StringBuilder literal = new StringBuilder();
        parts.stream().filter(p -> p instanceof Plain).forEach(p -> literal.appendCodePoint(((Plain) p).codePoint()));
        Shape shape = !othersPlain || stars > 1 ? Shape.OTHER
                : stars == 0 ? Shape.PLAIN
                : parts.size() == 1 ? Shape.ANY
                : parts.getLast() instanceof Star ? Shape.PREFIX
                : parts.getFirst() instanceof Star ? Shape.SUFFIX : Shape.OTHER;
        return new Glob(text, parts, shape, literal.toString());
    }

    /** The glob that matches everything. */
    static final Glob ANY = compile("*");

    /**
     * Reads a glob.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static Glob compile(String text) {
        if (text.isEmpty()) {
            throw new IllegalArgumentException("an empty glob matches nothing; write * for everything");
        }
        int[] cps = text.codePoints().toArray();
        List<Part> parts = new ArrayList<>();
        for (int i = 0; i < cps.length; i++) {
            int c = cps[i];
            switch (c) {
                case '*' -> {
                    if (parts.isEmpty() || !(parts.getLast() instanceof Star)) {
                        parts.add(new Star());
                    }
                }
                case '?' -> parts.add(new One());
                case '\\' -> {
                    if (i + 1 == cps.length) {
                        throw new IllegalArgumentException("the glob '" + text + "' ends with \\, which escapes nothing");
                    }
                    parts.add(new Plain(cps[++i]));
                }
                case '[' -> i = klass(text, cps, i, parts);
                case ']' -> throw new IllegalArgumentException("the glob '" + text + "' has a ] that closes no [; write"
                        + " \\] for the character");
                default -> parts.add(new Plain(c));
            }
        }
        return of(text, parts);
    }

    /** Reads the class that starts at {@code cps[open]}; returns the index of its {@code ]}. */
    private static int klass(String text, int[] cps, int open, List<Part> parts) {
        int i = open + 1;
        boolean negated = i < cps.length && cps[i] == '!';
        if (negated) {
            i++;
        }
        List<Integer> ranges = new ArrayList<>();
        while (i < cps.length && cps[i] != ']') {
            int from = cps[i];
            if (from == '\\') {
                if (++i == cps.length) {
                    break;
                }
                from = cps[i];
            } else if (from == '[') {
                throw new IllegalArgumentException("the glob '" + text + "' has a [ inside a class; write \\[ for the"
                        + " character");
            }
            int to = from;
            if (i + 2 < cps.length && cps[i + 1] == '-' && cps[i + 2] != ']') {
                i += 2;
                to = cps[i];
                if (to == '\\') {
                    if (++i == cps.length) {
                        break;
                    }
                    to = cps[i];
                }
                if (to < from) {
                    throw new IllegalArgumentException("the glob '" + text + "' has the range " + Character.toString(from)
                            + "-" + Character.toString(to) + ", which runs backwards");
                }
            }
            ranges.add(from);
            ranges.add(to);
            i++;
        }
        if (i >= cps.length) {
            throw new IllegalArgumentException("the glob '" + text + "' has a [ that is never closed; write \\[ for the"
                    + " character");
        }
        if (ranges.isEmpty()) {
            throw new IllegalArgumentException("the glob '" + text + "' has an empty class []");
        }
        parts.add(new Class(ranges.stream().mapToInt(Integer::intValue).toArray(), negated));
        return i;
    }

    /** Whether the glob has no {@code *}, {@code ?} or class: it is one name. */
    boolean plain() {
        return shape == Shape.PLAIN;
    }

    /** Whether {@code value} matches the whole glob. */
    boolean matches(String value) {
        return switch (shape) {
            case PLAIN -> value.equals(literal);
            case PREFIX -> value.startsWith(literal);
            case SUFFIX -> value.endsWith(literal);
            case ANY -> true;
            case OTHER -> matchesParts(value);
        };
    }

    private boolean matchesParts(String value) {
        int[] s = value.codePoints().toArray();
        int si = 0;
        int pi = 0;
        // Where to go back to: the part after the last star, and the value's position then.
        int starPart = -1;
        int starFrom = 0;
        while (si < s.length) {
            if (pi < parts.size() && one(parts.get(pi), s[si])) {
                si++;
                pi++;
            } else if (pi < parts.size() && parts.get(pi) instanceof Star) {
                starPart = ++pi;
                starFrom = si;
            } else if (starPart >= 0) {
                pi = starPart;
                si = ++starFrom;
            } else {
                return false;
            }
        }
        while (pi < parts.size() && parts.get(pi) instanceof Star) {
            pi++;
        }
        return pi == parts.size();
    }

    private static boolean one(Part p, int c) {
        return switch (p) {
            case Plain(int cp) -> cp == c;
            case One o -> true;
            case Class k -> k.has(c);
            case Star s -> false;
        };
    }

    @Override
    public String toString() {
        return text;
    }
}
