package dev.stretto.proxy.policy;

import dev.stretto.proxy.policy.Regex.Anchor;
import dev.stretto.proxy.policy.Regex.Node;
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a {@link Regex}'s pattern into its tree, refusing what {@link Regex} does not take
 * (its class comment says what), each with a message that names the pattern and says what to
 * write instead. Recursive descent over the pattern's code points, groups nested at most
 * {@link #MAX_DEPTH} deep.
 */
final class RegexParser {

    /** The deepest groups may nest. */
    static final int MAX_DEPTH = 50;

    private final String text;
    private final int[] cps;
    private int at;
    private int depth;

    RegexParser(String text) {
        this.text = text;
        this.cps = text.codePoints().toArray();
    }

    /** The pattern's tree. */
    Node parse() {
        Node n = alternatives();
        if (at < cps.length) {
            // Only a ) that closes nothing stops the top level early.
            throw fail("has a ) that closes no (; write \\) for the character");
        }
        return n;
    }

    private IllegalArgumentException fail(String what) {
        return new IllegalArgumentException("the regex '" + text + "' " + what);
    }

    private boolean more() {
        return at < cps.length;
    }

    private int peek() {
        return cps[at];
    }

    private Node alternatives() {
        List<Node> options = new ArrayList<>();
        options.add(sequence());
        while (more() && peek() == '|') {
            at++;
            options.add(sequence());
        }
        return options.size() == 1 ? options.getFirst() : new Node.Alt(options);
    }

    private Node sequence() {
        List<Node> items = new ArrayList<>();
        while (more() && peek() != '|' && peek() != ')') {
            Node atom = atom();
            items.add(quantified(atom));
        }
        return items.size() == 1 ? items.getFirst() : new Node.Seq(items);
    }

    private Node atom() {
        int c = cps[at++];
        return switch (c) {
            case '(' -> group();
            case '[' -> new Node.Chars(klass());
            case '.' -> new Node.Chars(CharSet.ANY);
            case '^' -> new Node.Edge(Anchor.START);
            case '$' -> new Node.Edge(Anchor.END);
            case '\\' -> escape();
            case '*', '+', '?' -> throw fail("has " + Character.toString(c) + " with nothing before it to repeat");
            case '{' -> throw fail("has a { that starts no count {n,m}; write \\{ for the character");
            default -> new Node.Chars(CharSet.of(c));
        };
    }

    private Node group() {
        if (++depth > MAX_DEPTH) {
            throw fail("nests groups more than " + MAX_DEPTH + " deep");
        }
        if (more() && peek() == '?') {
            at++;
            if (!more()) {
                throw fail("ends inside a group (?");
            }
            int kind = cps[at++];
            switch (kind) {
                case ':' -> {
                }
                case '<' -> {
                    if (more() && (peek() == '=' || peek() == '!')) {
                        throw lookAround();
                    }
                    int start = at;
                    while (more() && Character.isLetterOrDigit(peek())) {
                        at++;
                    }
                    if (at == start || !more() || peek() != '>') {
                        throw fail("has a group name that is not (?<name>...) with letters and digits");
                    }
                    at++;
                }
                case '=', '!' -> throw lookAround();
                case '>' -> throw fail("has an atomic group (?>...), which is not supported: write (?:...)");
                default -> throw fail("has inline flags or a group kind (?" + Character.toString(kind) + "...) that is"
                        + " not supported: groups are (...), (?:...) and (?<name>...)");
            }
        }
        Node inside = alternatives();
        if (!more() || peek() != ')') {
            throw fail("has a ( that is never closed; write \\( for the character");
        }
        at++;
        depth--;
        return inside;
    }

    private IllegalArgumentException lookAround() {
        return fail("has look-around ((?=, (?!, (?<=, (?<!), which no regex engine runs without backtracking; it is"
                + " not supported");
    }

    private Node quantified(Node atom) {
        if (!more()) {
            return atom;
        }
        int c = peek();
        int min;
        int max;
        switch (c) {
            case '*' -> {
                min = 0;
                max = -1;
                at++;
            }
            case '+' -> {
                min = 1;
                max = -1;
                at++;
            }
            case '?' -> {
                min = 0;
                max = 1;
                at++;
            }
            case '{' -> {
                int[] range = count();
                min = range[0];
                max = range[1];
            }
            default -> {
                return atom;
            }
        }
        if (atom instanceof Node.Edge) {
            throw fail("repeats ^, $, \\b or \\B, which take no character");
        }
        if (more() && peek() == '?') {
            // Lazy: the same set of matches, and only whether there is one counts here.
            at++;
        } else if (more() && peek() == '+') {
            throw fail("has possessive repetition (" + Character.toString(c) + "+), which is not supported");
        }
        if (more() && (peek() == '*' || peek() == '+' || peek() == '?' || peek() == '{')) {
            throw fail("repeats a repetition directly; put it in a group if that is meant, e.g. (?:a*)?");
        }
        if (max != 1 && (max < 0 && atom.canBeEmpty() || repeatsARepetition(atom))) {
            throw fail("repeats a repetition (as in (a+)+, (a*)* or (a?)+): backtracking regex engines take"
                    + " exponential time on it, and it means the same as a pattern without the outer repetition;"
                    + " write that pattern instead");
        }
        return new Node.Repeat(atom, min, max);
    }

    /** Whether {@code n} is itself an unbounded repetition, or an alternative one of whose options is. */
    private static boolean repeatsARepetition(Node n) {
        return switch (n) {
            case Node.Repeat(Node body, int min, int max) -> max < 0;
            case Node.Alt(List<Node> options) -> options.stream().anyMatch(RegexParser::repeatsARepetition);
            case Node.Seq(List<Node> items) -> items.size() == 1 && repeatsARepetition(items.getFirst());
            default -> false;
        };
    }

    /** {@code {n}}, {@code {n,}} or {@code {n,m}}: {min, max}, max -1 for no end. */
    private int[] count() {
        int open = at++;
        int min = number();
        int max = min;
        if (min < 0) {
            at = open;
            throw fail("has a { that starts no count {n,m}; write \\{ for the character");
        }
        if (more() && peek() == ',') {
            at++;
            max = more() && peek() == '}' ? -1 : number();
            if (max == -2) {
                throw fail("has a count {n,m} whose m is not a number");
            }
        }
        if (!more() || peek() != '}') {
            throw fail("has a count {n,m} that is not closed");
        }
        at++;
        if (min > Regex.MAX_COUNT || max > Regex.MAX_COUNT) {
            throw fail("counts up to more than " + Regex.MAX_COUNT + " in {n,m}");
        }
        if (max >= 0 && max < min) {
            throw fail("has a count {" + min + "," + max + "} that runs backwards");
        }
        return new int[] {min, max};
    }

    /** A decimal number here, or -1 (-2 after a comma) when there is none. */
    private int number() {
        int start = at;
        long n = 0;
        while (more() && peek() >= '0' && peek() <= '9' && at - start < 6) {
            n = n * 10 + (peek() - '0');
            at++;
        }
        if (at == start) {
            return start > 0 && cps[start - 1] == ',' ? -2 : -1;
        }
        if (more() && peek() >= '0' && peek() <= '9') {
            throw fail("counts up to more than " + Regex.MAX_COUNT + " in {n,m}");
        }
        return (int) n;
    }

    private Node escape() {
        if (!more()) {
            throw fail("ends with \\, which escapes nothing");
        }
        int c = cps[at++];
        return switch (c) {
            case 'b' -> new Node.Edge(Anchor.WORD_EDGE);
            case 'B' -> new Node.Edge(Anchor.NOT_WORD_EDGE);
            case 'A' -> new Node.Edge(Anchor.START);
            case 'z' -> new Node.Edge(Anchor.END);
            default -> new Node.Chars(escapedSet(c, false));
        };
    }

    /** The characters {@code \c} stands for (inside a class when {@code inClass}). */
    private CharSet escapedSet(int c, boolean inClass) {
        return switch (c) {
            case 'd' -> CharSet.DIGIT;
            case 'D' -> CharSet.DIGIT.complement();
            case 'w' -> CharSet.WORD;
            case 'W' -> CharSet.WORD.complement();
            case 's' -> CharSet.SPACE;
            case 'S' -> CharSet.SPACE.complement();
            case 'n' -> CharSet.of('\n');
            case 't' -> CharSet.of('\t');
            case 'r' -> CharSet.of('\r');
            case 'f' -> CharSet.of('\f');
            case 'e' -> CharSet.of(0x1B);
            case 'x' -> CharSet.of(hex());
            case 'u' -> CharSet.of(hexDigits(4));
            case '1', '2', '3', '4', '5', '6', '7', '8', '9', 'k' -> throw fail("has a back-reference (\\"
                    + Character.toString(c) + "), which no regex engine runs without backtracking; it is not supported");
            case 'p', 'P' -> throw fail("has a \\" + Character.toString(c) + "{...} class, which is not supported;"
                    + " write the characters as a class [...]");
            case 'b' -> throw fail("has \\b inside a class; write \\x08 for a backspace");
            default -> {
                if (c < 0x80 && Character.isLetterOrDigit(c)) {
                    throw fail("has the escape \\" + Character.toString(c) + ", which is not supported");
                }
                // Any other escaped character stands for itself: \. \\ \[ \- ...
                yield CharSet.of(c);
            }
        };
    }

    /** {@code \xhh} or {@code \x{h...}}. */
    private int hex() {
        if (more() && peek() == '{') {
            at++;
            int start = at;
            long v = 0;
            while (more() && peek() != '}' && at - start < 7) {
                v = v * 16 + digit(cps[at++]);
            }
            if (!more() || peek() != '}' || at == start || v > Character.MAX_CODE_POINT) {
                throw fail("has an escape \\x{...} that is not a code point in hexadecimal");
            }
            at++;
            return (int) v;
        }
        return hexDigits(2);
    }

    private int hexDigits(int n) {
        int v = 0;
        for (int i = 0; i < n; i++) {
            if (!more()) {
                throw fail("ends inside a hexadecimal escape");
            }
            v = v * 16 + digit(cps[at++]);
        }
        return v;
    }

    private int digit(int c) {
        int d = Character.digit(c, 16);
        if (d < 0 || c >= 0x80) {
            throw fail("has a hexadecimal escape with the character " + Character.toString(c) + " in it");
        }
        return d;
    }

    /** A class {@code [...]}, read after its {@code [}. */
    private CharSet klass() {
        boolean negated = more() && peek() == '^';
        if (negated) {
            at++;
        }
        List<int[]> pairs = new ArrayList<>();
        while (more() && peek() != ']') {
            int c = cps[at++];
            if (c == '[') {
                throw fail("has a [ inside a class; write \\[ for the character");
            }
            if (c == '\\') {
                if (!more()) {
                    break;
                }
                int e = cps[at++];
                CharSet set = escapedSet(e, true);
                if (set.ranges().length != 2 || set.ranges()[0] != set.ranges()[1]) {
                    pairs.addAll(set.pairs());
                    continue;
                }
                c = set.ranges()[0];
            }
            int to = c;
            if (at + 1 < cps.length && peek() == '-' && cps[at + 1] != ']') {
                at++;
                to = cps[at++];
                if (to == '\\') {
                    if (!more()) {
                        break;
                    }
                    CharSet set = escapedSet(cps[at++], true);
                    if (set.ranges().length != 2 || set.ranges()[0] != set.ranges()[1]) {
                        throw fail("has a range that ends in a class such as \\d");
                    }
                    to = set.ranges()[0];
                } else if (to == '[') {
                    throw fail("has a [ inside a class; write \\[ for the character");
                }
                if (to < c) {
                    throw fail("has the range " + Character.toString(c) + "-" + Character.toString(to)
                            + ", which runs backwards");
                }
            }
            pairs.add(new int[] {c, to});
        }
        if (!more()) {
            throw fail("has a [ that is never closed; write \\[ for the character");
        }
        at++;
        if (pairs.isEmpty()) {
            throw fail("has an empty class []");
        }
        CharSet set = CharSet.of(pairs);
        return negated ? set.complement() : set;
    }
}
