package dev.stretto.proxy.policy;

import java.util.ArrayList;
import java.util.List;

/**
 * A regular expression of a policy's argument condition, matched without backtracking: the
 * pattern becomes a small program of character tests and branches, and matching runs every
 * branch at once over the value, one character after the other (Thompson's construction, as
 * RE2 and Go match). So the time is at most the value's length times the program's, whatever the
 * pattern: there is no pattern that makes a check slow by backtracking.
 *
 * <p>What it takes: characters, {@code .} (any character, line breaks too), classes ({@code
 * [a-z]}, {@code [^...]}, {@code \d \w \s} and their capitals), groups ({@code (...)}, {@code
 * (?:...)}, {@code (?<name>...)}), alternatives ({@code |}), repetition ({@code * + ?
 * {n} {n,} {n,m}}, and their lazy forms, which mean the same here), {@code ^} and {@code $}
 * (the value's start and end, never a line's) and {@code \b \B}. A regex matches when it is
 * found anywhere in the value; anchor it with {@code ^...$} to match the whole.
 *
 * <p>What it refuses, with a message saying why: back-references and look-around (no engine
 * runs them without backtracking), inline flags, possessive repetition and atomic groups,
 * {@code \p{...}} classes; a repetition directly inside a repetition ({@code (a+)+}, {@code
 * (a*)*}, {@code (a?)+}), the shape that makes backtracking engines take exponential time and
 * that always means the same as a simpler pattern; patterns over {@link #MAX_LENGTH}
 * characters or whose program would exceed {@link #MAX_PROGRAM} steps.
 *
 * <p>A match that would take more than {@link #STEP_BUDGET} steps (a long value and a large
 * pattern) ends with {@link TooCostly}; the policy then treats the condition as met, the safe
 * side for a rule (see {@link Condition}).
 *
 * @param text    the pattern as written
 * @param program the compiled program
 */
record Regex(String text, List<Op> program) {

    /** The longest pattern taken. */
    static final int MAX_LENGTH = 1000;

    /** The largest program taken, counted in steps. */
    static final int MAX_PROGRAM = 5000;

    /** The most a repetition's count may be ({@code {n,m}}). */
    static final int MAX_COUNT = 100;

    /** The most steps one match may take. */
    static final long STEP_BUDGET = 50_000_000L;

    /** A match cut short: it would have taken more than {@link #STEP_BUDGET} steps. */
    static final class TooCostly extends Exception {
        TooCostly() {
            super("the regex would take more than " + STEP_BUDGET + " steps on the value", null, false, false);
        }
    }

    /** One step of a program. */
    sealed interface Op {
    }

    /** Takes one character in {@code set}, then goes on at the next step. */
    record Take(CharSet set) implements Op {
    }

    /** Goes on at both {@code first} and {@code second}. */
    record Split(int first, int second) implements Op {
    }

    /** Goes on at {@code to}. */
    record Jump(int to) implements Op {
    }

    /** Goes on only where {@code kind} holds, taking no character. */
    record Check(Anchor kind) implements Op {
    }

    /** A match. */
    record Done() implements Op {
    }

    /** What a zero-width check asks. */
    enum Anchor {
        START, END, WORD_EDGE, NOT_WORD_EDGE
    }

    Regex {
        program = List.copyOf(program);
    }

    /**
     * Reads a pattern.
     *
     * @throws IllegalArgumentException saying what is wrong with it
     */
    static Regex compile(String text) {
        if (text.length() > MAX_LENGTH) {
            throw new IllegalArgumentException("the regex is " + text.length() + " characters long; at most "
                    + MAX_LENGTH + " are taken");
        }
        Node tree = new RegexParser(text).parse();
        List<Op> program = new ArrayList<>();
        emit(tree, program, text);
        program.add(new Done());
        return new Regex(text, program);
    }

    // ---- the program

    private static void emit(Node n, List<Op> out, String text) {
        if (out.size() > MAX_PROGRAM) {
            throw new IllegalArgumentException("the regex '" + text + "' is too large once its repetitions are"
                    + " written out (more than " + MAX_PROGRAM + " steps); make its counts smaller");
        }
        switch (n) {
            case Node.Chars(CharSet set) -> out.add(new Take(set));
            case Node.Edge(Anchor kind) -> out.add(new Check(kind));
            case Node.Seq(List<Node> items) -> items.forEach(i -> emit(i, out, text));
            case Node.Alt(List<Node> options) -> {
                // split L1, next; L1: option; jump end; next: split ...
                List<Integer> jumps = new ArrayList<>();
                for (int i = 0; i < options.size(); i++) {
                    if (i < options.size() - 1) {
                        int split = out.size();
                        out.add(null);
                        emit(options.get(i), out, text);
                        jumps.add(out.size());
                        out.add(null);
                        out.set(split, new Split(split + 1, out.size()));
                    } else {
                        emit(options.get(i), out, text);
                    }
                }
                for (int j : jumps) {
                    out.set(j, new Jump(out.size()));
                }
            }
            case Node.Repeat(Node body, int min, int max) -> {
                for (int i = 0; i < min; i++) {
                    emit(body, out, text);
                }
                if (max < 0) {
                    // loop: split body, end; body; jump loop
                    int loop = out.size();
                    out.add(null);
                    emit(body, out, text);
                    out.add(new Jump(loop));
                    out.set(loop, new Split(loop + 1, out.size()));
                } else {
                    List<Integer> splits = new ArrayList<>();
                    for (int i = min; i < max; i++) {
                        splits.add(out.size());
                        out.add(null);
                        emit(body, out, text);
                    }
                    for (int s : splits) {
                        out.set(s, new Split(s + 1, out.size()));
                    }
                }
            }
        }
        if (out.size() > MAX_PROGRAM) {
            throw new IllegalArgumentException("the regex '" + text + "' is too large once its repetitions are"
                    + " written out (more than " + MAX_PROGRAM + " steps); make its counts smaller");
        }
    }

    // ---- matching

    /**
     * Whether the pattern is found anywhere in {@code value}.
     *
     * @throws TooCostly when that would take more than {@link #STEP_BUDGET} steps
     */
    boolean find(String value) throws TooCostly {
        int[] s = value.codePoints().toArray();
        int size = program.size();
        int[] current = new int[size];
        int[] next = new int[size];
        int[] seen = new int[size];
        int[] stack = new int[size * 2 + 2];
        // One generation per position: a step is in a position's list once, whether it came
        // from the position before or from the start added there.
        int generation = 1;
        int count = 0;
        long steps = 0;
        for (int i = 0; ; i++) {
            // A new start at every position: the pattern may be found anywhere.
            count = add(current, count, 0, i, s, seen, generation, stack);
            if (count < 0) {
                return true;
            }
            steps += count + 1;
            if (steps > STEP_BUDGET) {
                throw new TooCostly();
            }
            if (i == s.length) {
                return false;
            }
            int c = s[i];
            generation++;
            int m = 0;
            for (int k = 0; k < count; k++) {
                if (program.get(current[k]) instanceof Take t && t.set().has(c)) {
                    m = add(next, m, current[k] + 1, i + 1, s, seen, generation, stack);
                    if (m < 0) {
                        return true;
                    }
                }
            }
            int[] swap = current;
            current = next;
            next = swap;
            count = m;
        }
    }

    /**
     * Adds the step {@code pc} and every step it leads to without taking a character to {@code
     * list}, which holds {@code n} steps; returns the new count, or -1 when a match is reached.
     */
    private int add(int[] list, int n, int pc, int at, int[] s, int[] seen, int generation, int[] stack) {
        int top = 0;
        stack[top++] = pc;
        while (top > 0) {
            int p = stack[--top];
            if (seen[p] == generation) {
                continue;
            }
            seen[p] = generation;
            switch (program.get(p)) {
                case Take t -> list[n++] = p;
                case Done d -> {
                    return -1;
                }
                case Jump(int to) -> stack[top++] = to;
                case Split(int first, int second) -> {
                    stack[top++] = second;
                    stack[top++] = first;
                }
                case Check(Anchor kind) -> {
                    if (holds(kind, at, s)) {
                        stack[top++] = p + 1;
                    }
                }
            }
        }
        return n;
    }

    private static boolean holds(Anchor kind, int at, int[] s) {
        return switch (kind) {
            case START -> at == 0;
            case END -> at == s.length;
            case WORD_EDGE -> word(s, at - 1) != word(s, at);
            case NOT_WORD_EDGE -> word(s, at - 1) == word(s, at);
        };
    }

    private static boolean word(int[] s, int i) {
        return i >= 0 && i < s.length && CharSet.WORD.has(s[i]);
    }

    @Override
    public String toString() {
        return text;
    }

    // ---- the pattern's tree

    /** A pattern, as read. */
    sealed interface Node {

        /** One character of a set. */
        record Chars(CharSet set) implements Node {
        }

        /** A zero-width check. */
        record Edge(Anchor kind) implements Node {
        }

        /** One after the other. */
        record Seq(List<Node> items) implements Node {
        }

        /** One of. */
        record Alt(List<Node> options) implements Node {
        }

        /** {@code body} from {@code min} to {@code max} times ({@code max} -1: no end). */
        record Repeat(Node body, int min, int max) implements Node {
        }

        /** Whether the node can match without taking a character. */
        default boolean canBeEmpty() {
            return switch (this) {
                case Chars c -> false;
                case Edge e -> true;
                case Seq(List<Node> items) -> items.stream().allMatch(Node::canBeEmpty);
                case Alt(List<Node> options) -> options.stream().anyMatch(Node::canBeEmpty);
                case Repeat(Node body, int min, int max) -> min == 0 || body.canBeEmpty();
            };
        }
    }
}
