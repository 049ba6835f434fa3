package dev.stretto.trace.json;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ContainerNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.log.JsonText;
import java.io.IOException;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.Iterator;
import java.util.List;
import java.util.Map;

/**
 * Writes JSON values the way the reference implementation writes a generic JSON value:
 * compact, object keys sorted by code point, numbers in Rust's spelling ({@code 0.0},
 * {@code 1e-7}, {@code -0.0}) and strings quoted by {@link JsonText}. Files compared byte for
 * byte with the reference's (episodes, tool results rendered as JSON) depend on this.
 *
 * <p>Also the one place that parses JSON text into trees, with Jackson's length limits
 * lifted: multi-megabyte messages are normal in session logs.
 */
public final class CanonicalJson {

    private static final JsonFactory FACTORY = JsonFactory.builder()
            .streamReadConstraints(StreamReadConstraints.builder()
                    .maxStringLength(Integer.MAX_VALUE)
                    .maxNumberLength(Integer.MAX_VALUE)
                    .maxNestingDepth(Integer.MAX_VALUE)
                    .maxDocumentLength(-1)
                    .build())
            .build();

    // Made at its first use: an ObjectMapper takes long to set up, and parsing needs none.
    private static final class Mapper {
        static final ObjectMapper INSTANCE = new ObjectMapper(FACTORY);
    }

    private static final BigInteger U64_MAX = new BigInteger("18446744073709551615");
    private static final BigInteger I64_MIN = BigInteger.valueOf(Long.MIN_VALUE);

    private CanonicalJson() {
    }

    /** {@return the JSON factory shared by the trace reader, with no length limits} */
    public static JsonFactory factory() {
        return FACTORY;
    }

    /** {@return an object mapper over {@link #factory()}; reading trees with it is thread-safe} */
    public static ObjectMapper mapper() {
        return Mapper.INSTANCE;
    }

    /**
     * Parses one JSON text into a tree.
     *
     * @param json the text
     * @return the tree
     * @throws IllegalArgumentException if {@code json} is not exactly one JSON value
     */
    public static JsonNode parse(String json) {
        try (var p = FACTORY.createParser(json)) {
            JsonNode node = readTree(p);
            if (node == null || p.nextToken() != null) {
                throw new IllegalArgumentException("not exactly one JSON value");
            }
            return node;
        } catch (IOException e) {
            String reason = e instanceof com.fasterxml.jackson.core.JsonProcessingException jpe
                    ? jpe.getOriginalMessage() : e.getMessage();
            throw new IllegalArgumentException(reason, e);
        }
    }

    /**
     * Reads the next JSON value of {@code p} into a tree as serde_json reads it, which writing
     * it back must match: an integer written {@code -0} is the float {@code -0.0} there (and
     * written back so), where Jackson would make it the integer 0. Iterative, so a deeply
     * nested value cannot exhaust the stack.
     *
     * @param p the parser, at the value or before it
     * @return the value, or null at the end of the input
     * @throws IOException when the text is not JSON
     */
    public static JsonNode readTree(JsonParser p) throws IOException {
        JsonNodeFactory nodes = JsonNodeFactory.instance;
        Deque<ContainerNode<?>> open = new ArrayDeque<>();
        Deque<String> names = new ArrayDeque<>();
        JsonToken t = p.currentToken() == null ? p.nextToken() : p.currentToken();
        while (t != null) {
            JsonNode value;
            switch (t) {
                case START_OBJECT -> {
                    open.push(nodes.objectNode());
                    t = p.nextToken();
                    continue;
                }
                case START_ARRAY -> {
                    open.push(nodes.arrayNode());
                    t = p.nextToken();
                    continue;
                }
                case FIELD_NAME -> {
                    names.push(p.currentName());
                    t = p.nextToken();
                    continue;
                }
                case END_OBJECT, END_ARRAY -> value = open.pop();
                case VALUE_STRING -> value = nodes.textNode(p.getText());
                case VALUE_NUMBER_INT -> value = "-0".equals(p.getText()) ? nodes.numberNode(-0.0)
                        : switch (p.getNumberType()) {
                            case INT -> nodes.numberNode(p.getIntValue());
                            case LONG -> nodes.numberNode(p.getLongValue());
                            default -> nodes.numberNode(p.getBigIntegerValue());
                        };
                case VALUE_NUMBER_FLOAT -> value = nodes.numberNode(p.getDoubleValue());
                case VALUE_TRUE -> value = nodes.booleanNode(true);
                case VALUE_FALSE -> value = nodes.booleanNode(false);
                case VALUE_NULL -> value = nodes.nullNode();
                default -> throw new IOException("unexpected " + t + " in JSON");
            }
            if (open.isEmpty()) {
                return value;
            }
            switch (open.peek()) {
                case ObjectNode o -> o.set(names.pop(), value);
                case ArrayNode a -> a.add(value);
                default -> throw new IllegalStateException();
            }
            t = p.nextToken();
        }
        if (!open.isEmpty()) {
            throw new IOException("the JSON ends inside an array or object");
        }
        return null;
    }

    /**
     * Returns {@code value} as compact JSON with sorted keys and Rust number spelling.
     *
     * @param value the tree
     * @return its JSON
     */
    public static String write(JsonNode value) {
        StringBuilder out = new StringBuilder();
        append(out, value);
        return out.toString();
    }

    /**
     * Appends {@code value} to {@code out}; see {@link #write(JsonNode)}.
     *
     * @param out   where the JSON goes
     * @param value the tree
     */
    public static void append(StringBuilder out, JsonNode value) {
        append(out, value, true, COMPACT);
    }

    /**
     * Appends {@code value} like {@link #append(StringBuilder, JsonNode)} but with object
     * keys in the tree's own order (for a parsed tree, the order of its text), for values
     * that are written back where they were read rather than re-serialised.
     *
     * @param out   where the JSON goes
     * @param value the tree
     */
    public static void appendKeepingKeyOrder(StringBuilder out, JsonNode value) {
        append(out, value, false, COMPACT);
    }

    /**
     * Returns {@code value} as serde_json's pretty printer writes a typed value: keys in the
     * tree's own order (build the tree in the order the type declares its fields), two spaces
     * of indentation per level, {@code "key": value}, empty objects and arrays as {@code {}}
     * and {@code []}, no newline at the end; numbers and strings as {@link #write(JsonNode)}
     * spells them.
     *
     * @param value the tree
     * @return its pretty JSON
     */
    public static String writePrettyKeepingKeyOrder(JsonNode value) {
        StringBuilder out = new StringBuilder();
        append(out, value, false, 0);
        return out.toString();
    }

    private static final int COMPACT = -1;

    /** {@code depth} is the current indentation level, or {@link #COMPACT} for no whitespace. */
    private static void append(StringBuilder out, JsonNode value, boolean sortKeys, int depth) {
        int inner = depth == COMPACT ? COMPACT : depth + 1;
        if (value == null || value.isNull() || value.isMissingNode()) {
            out.append("null");
        } else if (value.isObject()) {
            List<Map.Entry<String, JsonNode>> fields = new ArrayList<>(value.size());
            for (Iterator<Map.Entry<String, JsonNode>> it = value.fields(); it.hasNext(); ) {
                fields.add(it.next());
            }
            if (sortKeys) {
                fields.sort((a, b) -> compareCodePoints(a.getKey(), b.getKey()));
            }
            out.append('{');
            for (int i = 0; i < fields.size(); i++) {
                separate(out, i, inner);
                JsonText.appendQuoted(out, fields.get(i).getKey());
                out.append(depth == COMPACT ? ":" : ": ");
                append(out, fields.get(i).getValue(), sortKeys, inner);
            }
            close(out, fields.isEmpty(), depth);
            out.append('}');
        } else if (value.isArray()) {
            out.append('[');
            for (int i = 0; i < value.size(); i++) {
                separate(out, i, inner);
                append(out, value.get(i), sortKeys, inner);
            }
            close(out, value.isEmpty(), depth);
            out.append(']');
        } else if (value.isTextual()) {
            JsonText.appendQuoted(out, value.textValue());
        } else if (value.isBoolean()) {
            out.append(value.booleanValue());
        } else if (value.isIntegralNumber()) {
            BigInteger big = value.bigIntegerValue();
            // serde_json keeps integers that fit i64 or u64 exact and reads larger ones as f64.
            if (big.compareTo(I64_MIN) >= 0 && big.compareTo(U64_MAX) <= 0) {
                out.append(big);
            } else {
                out.append(formatDouble(big.doubleValue()));
            }
        } else if (value.isNumber()) {
            out.append(formatDouble(value.doubleValue()));
        } else {
            // Binary or POJO nodes never come out of parsing text; write them as Jackson does.
            out.append(value);
        }
    }

    /** Before the {@code index}th member: a comma after the first, and a new line when pretty. */
    private static void separate(StringBuilder out, int index, int depth) {
        if (index > 0) {
            out.append(',');
        }
        if (depth != COMPACT) {
            out.append('\n').append("  ".repeat(depth));
        }
    }

    /** Before a closing bracket: a new line at the container's own level, unless it was empty. */
    private static void close(StringBuilder out, boolean empty, int depth) {
        if (depth != COMPACT && !empty) {
            out.append('\n').append("  ".repeat(depth));
        }
    }

    /**
     * Spells a double as Rust's serde_json does (the shortest text that reads back as the
     * same double, always with a decimal point or an exponent): {@code 0.0}, {@code -0.0},
     * {@code 19.0}, {@code 0.001}, {@code 1e-7}, {@code 1.5e20}, {@code 5e-324}. Non-finite
     * values are written as {@code null}, as serde_json writes them.
     *
     * @param d the number
     * @return its spelling
     */
    public static String formatDouble(double d) {
        if (Double.isNaN(d) || Double.isInfinite(d)) {
            return "null";
        }
        if (d == 0.0) {
            return (Double.doubleToRawLongBits(d) < 0) ? "-0.0" : "0.0";
        }
        BigDecimal exact = shortestDecimal(Math.abs(d));
        String digits = exact.unscaledValue().toString();
        int k = -exact.scale();
        int n = digits.length();
        int kk = n + k;
        StringBuilder out = new StringBuilder(24);
        if (d < 0) {
            out.append('-');
        }
        if (k >= 0 && kk <= 16) {
            out.append(digits).append("0".repeat(k)).append(".0");
        } else if (kk > 0 && kk <= 16) {
            out.append(digits, 0, kk).append('.').append(digits, kk, n);
        } else if (kk > -5 && kk <= 0) {
            out.append("0.").append("0".repeat(-kk)).append(digits);
        } else if (n == 1) {
            out.append(digits).append('e').append(kk - 1);
        } else {
            out.append(digits.charAt(0)).append('.').append(digits, 1, n).append('e').append(kk - 1);
        }
        return out.toString();
    }

    /**
     * Spells a double with a fixed number of decimals as Rust's {@code format!("{:.N}")} does,
     * for reasons and messages: the exact value rounded half to even ({@code 0.125} is
     * {@code 0.12}, {@code 0.375} is {@code 0.38}), the sign of a negative value kept even when
     * it rounds to zero ({@code -0.00}), {@code NaN}, {@code inf} and {@code -inf} as words.
     *
     * @param d        the number
     * @param decimals how many decimals
     * @return its spelling
     */
    public static String formatFixed(double d, int decimals) {
        if (Double.isNaN(d)) {
            return "NaN";
        }
        boolean negative = d < 0 || Double.doubleToRawLongBits(d) == Long.MIN_VALUE;
        if (Double.isInfinite(d)) {
            return negative ? "-inf" : "inf";
        }
        String digits = new BigDecimal(Math.abs(d)).setScale(decimals, java.math.RoundingMode.HALF_EVEN).toPlainString();
        return negative ? "-" + digits : digits;
    }

    /**
     * The shortest decimal that reads back as {@code d} (positive and finite), with no
     * trailing zeros. Double.toString finds the shortest digits (JDK 19 and later) but never
     * fewer than two; ryu gives one where one digit reads back as the same double, which
     * can only happen for subnormals ({@code 4.9E-324} is {@code 5e-324} in Rust).
     */
    private static BigDecimal shortestDecimal(double d) {
        BigDecimal java = new BigDecimal(Double.toString(d)).stripTrailingZeros();
        String digits = java.unscaledValue().toString();
        if (digits.length() != 2) {
            return java;
        }
        int first = digits.charAt(0) - '0';
        int second = digits.charAt(1) - '0';
        int nearer = second >= 5 ? first + 1 : first;
        int farther = second >= 5 ? first : first + 1;
        int exponent = 1 - java.scale();
        for (int candidate : new int[] {nearer, farther}) {
            String text = candidate + "e" + exponent;
            if (Double.parseDouble(text) == d) {
                return new BigDecimal(text).stripTrailingZeros();
            }
        }
        return java;
    }

    /**
     * Orders strings by code point, which is the byte order of their UTF-8 encodings.
     *
     * @param a one string
     * @param b the other
     * @return negative, zero or positive as {@code a} comes before, with or after {@code b}
     */
    public static int compareCodePoints(String a, String b) {
        int i = 0;
        int j = 0;
        while (i < a.length() && j < b.length()) {
            int ca = a.codePointAt(i);
            int cb = b.codePointAt(j);
            if (ca != cb) {
                return Integer.compare(ca, cb);
            }
            i += Character.charCount(ca);
            j += Character.charCount(cb);
        }
        return Integer.compare(a.length() - i, b.length() - j);
    }
}
