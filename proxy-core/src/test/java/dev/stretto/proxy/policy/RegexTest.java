package dev.stretto.proxy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.Random;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The policy's regexes: the same answers as java.util.regex on generated patterns and values,
 * the patterns that make backtracking engines hang refused or run in linear time, and the
 * unsupported syntax refused with a message.
 */
class RegexTest {

    private static boolean find(String pattern, String value) throws Regex.TooCostly {
        return Regex.compile(pattern).find(value);
    }

    @Test
    void findsAsJavaDoesOnGeneratedPatternsAndValues() throws Exception {
        Random random = new Random(20);
        int compared = 0;
        for (int i = 0; i < 4000; i++) {
            String pattern = pattern(random, 3);
            Regex ours;
            try {
                ours = Regex.compile(pattern);
            } catch (IllegalArgumentException refused) {
                continue;
            }
            Pattern java = Pattern.compile(pattern, Pattern.DOTALL);
            for (int j = 0; j < 8; j++) {
                String value = value(random);
                assertEquals(java.matcher(value).find(), ours.find(value), "'" + pattern + "' on '" + value + "'");
                compared++;
            }
        }
        assertTrue(compared > 15_000, "patterns compared: " + compared);
    }

    private static String pattern(Random r, int depth) {
        StringBuilder b = new StringBuilder();
        int n = 1 + r.nextInt(3);
        for (int i = 0; i < n; i++) {
            int kind = r.nextInt(depth > 0 ? 10 : 6);
            String atom = switch (kind) {
                case 0, 1, 2 -> String.valueOf("abc".charAt(r.nextInt(3)));
                case 3 -> ".";
                case 4 -> r.nextBoolean() ? "[ab]" : "[^a]";
                case 5 -> r.nextBoolean() ? "\\w" : "\\b";
                case 6, 7 -> "(" + pattern(r, depth - 1) + ")";
                case 8 -> "(?:" + pattern(r, depth - 1) + "|" + pattern(r, depth - 1) + ")";
                default -> r.nextBoolean() ? "^" : "$";
            };
            b.append(atom);
            if (!atom.equals("^") && !atom.equals("$") && !atom.equals("\\b")) {
                switch (r.nextInt(7)) {
                    case 0 -> b.append('*');
                    case 1 -> b.append('+');
                    case 2 -> b.append('?');
                    case 3 -> b.append("{1,2}");
                    default -> {
                    }
                }
            }
        }
        return b.toString();
    }

    private static String value(Random r) {
        int n = r.nextInt(8);
        StringBuilder b = new StringBuilder();
        for (int i = 0; i < n; i++) {
            b.append("abc -".charAt(r.nextInt(5)));
        }
        return b.toString();
    }

    @ParameterizedTest
    @ValueSource(strings = {"(a+)+$", "(a*)*b", "(a?)+b", "(a|a+)+b", "(?:x+)*y", "(a{2,})+", "((ab)*)+c", "(a+){3}"})
    void aRepetitionDirectlyInsideARepetitionIsRefusedAsBacktrackingBadly(String pattern) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Regex.compile(pattern));
        assertTrue(e.getMessage().contains("repeats a repetition") && e.getMessage().contains("exponential"),
                e.getMessage());
    }

    /** Patterns that take exponential time in a backtracking engine, on the values that trigger it. */
    @ParameterizedTest
    @ValueSource(strings = {"(a|aa)*c", "(\\w+\\.)*\\w+@", "(x+x+)y", "^(a|b|ab)*c$", "(.*a){20}", "(a|a?){25}b"})
    void patternsThatBacktrackBadlyElsewhereRunInLinearTimeHere(String pattern) {
        Regex r = Regex.compile(pattern);
        String value = "a".repeat(50_000) + "!";
        boolean expected = java.util.regex.Pattern.compile(pattern, Pattern.DOTALL).matcher("aaaa!").find();
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            boolean small = r.find("aaaa!");
            assertEquals(expected, small);
            try {
                r.find(value);
            } catch (Regex.TooCostly e) {
                // Bounded: the condition then counts as met.
            }
        });
    }

    @Test
    void aMatchPastTheStepBudgetEndsAsTooCostly() {
        Regex r = Regex.compile("(?:a|b|c|d|e|f|g|h){40}z");
        String value = "abcdefgh".repeat(200_000);
        assertThrows(Regex.TooCostly.class, () -> r.find(value));
    }

    @ParameterizedTest
    @ValueSource(strings = {"(a)\\1", "(?=a)b", "(?!a)b", "(?<=a)b", "(?<!a)b", "(?i)abc", "a*+", "(?>a)", "\\p{L}",
            "\\k<x>", "a{1000}", "a{3,2}", "[z-a]", "[]", "(ab", "ab)", "*a", "a**", "\\", "[ab", "a{", "\\q", "^*",
            "\\x{110000}"})
    void unsupportedOrBrokenSyntaxIsRefusedWithAMessage(String pattern) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Regex.compile(pattern));
        assertTrue(e.getMessage().startsWith("the regex '" + pattern + "' "), e.getMessage());
    }

    @Test
    void aPatternTooLargeWrittenOutIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> Regex.compile("(?:(?:abcdefghij){100}){100}"));
        assertThrows(IllegalArgumentException.class, () -> Regex.compile("a".repeat(Regex.MAX_LENGTH + 1)));
    }

    @Test
    void dotTakesLineBreaksAndTheAnchorsAreTheValuesEnds() throws Exception {
        assertTrue(find("rm.*-rf", "rm \n -rf"));
        assertFalse(find("^/srv/data/[a-z]+$", "/srv/data/abc\n"));
        assertTrue(find("^/srv/data/[a-z]+$", "/srv/data/abc"));
        assertTrue(find("\\bpasswd\\b", "/etc/passwd"));
        assertFalse(find("\\bpass\\b", "/etc/passwd"));
        assertTrue(find("caf\\u00e9|\\x{1F600}", "😀"));
        assertTrue(find("[\\d.]+", "3.14"));
        assertTrue(find("(?<year>\\d{4})-\\d\\d", "in 2026-12"));
        assertTrue(find("a+?b", "aaab"));
    }
}
