package dev.stretto.proxy.policy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * A condition on a call's arguments: the value a {@link Pointer} finds there, and tests it must
 * pass. With {@code present} alone it asks whether the pointer finds a value; otherwise it is
 * met when some value the pointer finds passes every test (a pointer with {@code *} finds
 * several), and never when it finds none.
 *
 * <p>Where a test cannot tell (a path whose place is not known, a regex that would take too
 * long), it counts as passed. A condition only ever makes its rule apply, and a rule that
 * applies only ever makes the verdict stricter (or leaves it as it is), so a doubt always ends
 * on the safe side: an {@code outside} that cannot be sure the path is inside refuses.
 *
 * @param pointer where the value is
 * @param present whether the value must be there (true) or must not (false), or null for
 *                either
 * @param tests   what the value must pass; none with {@code present: false}
 */
record Condition(Pointer pointer, Boolean present, List<Test> tests) {

    Condition {
        tests = List.copyOf(tests);
    }

    /** One test of a value. */
    sealed interface Test {

        /** Whether {@code v} passes. */
        boolean passes(JsonNode v);
    }

    /** {@code equals}: the same JSON value (numbers by value: {@code 1} is {@code 1.0}). */
    record Equals(JsonNode expected) implements Test {
        @Override
        public boolean passes(JsonNode v) {
            return same(expected, v);
        }
    }

    /** {@code glob}: a string (or a number's or boolean's JSON text) matching the glob. */
    record GlobTest(Glob glob) implements Test {
        @Override
        public boolean passes(JsonNode v) {
            String s = text(v);
            return s != null && glob.matches(s);
        }
    }

    /** {@code regex}: a string (or a number's or boolean's JSON text) in which the regex is found. */
    record RegexTest(Regex regex) implements Test {
        @Override
        public boolean passes(JsonNode v) {
            String s = text(v);
            if (s == null) {
                return false;
            }
            try {
                return regex.find(s);
            } catch (Regex.TooCostly e) {
                return true;
            }
        }
    }

    /**
     * {@code min} and {@code max}: a number (or a string holding one, which servers that convert
     * types read as the number) at least {@code min} and at most {@code max}.
     *
     * @param min the least, or null
     * @param max the most, or null
     */
    record Range(BigDecimal min, BigDecimal max) implements Test {
        @Override
        public boolean passes(JsonNode v) {
            BigDecimal n = number(v);
            return n != null && (min == null || n.compareTo(min) >= 0) && (max == null || n.compareTo(max) <= 0);
        }
    }

    /** {@code within}: a path inside one of the directories (see {@link PathPlace}). */
    record Within(List<Path> directories) implements Test {
        @Override
        public boolean passes(JsonNode v) {
            return place(v, directories) != PathPlace.OUTSIDE;
        }
    }

    /** {@code outside}: a path outside all the directories (see {@link PathPlace}). */
    record Outside(List<Path> directories) implements Test {
        @Override
        public boolean passes(JsonNode v) {
            return place(v, directories) != PathPlace.INSIDE;
        }
    }

    /** Whether the condition is met by {@code arguments}. */
    boolean met(JsonNode arguments) {
        List<JsonNode> found = pointer.values(arguments);
        if (present != null && present != !found.isEmpty()) {
            return false;
        }
        if (tests.isEmpty()) {
            return true;
        }
        for (JsonNode v : found) {
            if (tests.stream().allMatch(t -> t.passes(v))) {
                return true;
            }
        }
        return false;
    }

    private static PathPlace place(JsonNode v, List<Path> directories) {
        return v.isTextual() ? PathPlace.of(v.textValue(), directories) : PathPlace.UNKNOWN;
    }

    /** A scalar's text: a string's own, a number's or boolean's JSON; null for anything else. */
    private static String text(JsonNode v) {
        if (v.isTextual()) {
            return v.textValue();
        }
        return v.isNumber() || v.isBoolean() ? CanonicalJson.write(v) : null;
    }

    private static BigDecimal number(JsonNode v) {
        if (v.isNumber()) {
            return v.decimalValue();
        }
        if (v.isTextual()) {
            String s = v.textValue().strip();
            if (s.matches("-?[0-9]{1,40}(\\.[0-9]{1,40})?([eE][+-]?[0-9]{1,4})?")) {
                return new BigDecimal(s);
            }
        }
        return null;
    }

    /** JSON equality, numbers by value. */
    static boolean same(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue()) == 0;
        }
        if (a.isObject() && b.isObject()) {
            if (a.size() != b.size()) {
                return false;
            }
            for (Map.Entry<String, JsonNode> e : a.properties()) {
                JsonNode other = b.get(e.getKey());
                if (other == null || !same(e.getValue(), other)) {
                    return false;
                }
            }
            return true;
        }
        if (a.isArray() && b.isArray()) {
            if (a.size() != b.size()) {
                return false;
            }
            Iterator<JsonNode> x = a.iterator();
            Iterator<JsonNode> y = b.iterator();
            while (x.hasNext()) {
                if (!same(x.next(), y.next())) {
                    return false;
                }
            }
            return true;
        }
        return a.equals(b);
    }
}
