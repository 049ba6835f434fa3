package dev.stretto.demo;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.json.JsonMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.math.BigInteger;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Reads JSON with Jackson and writes it the way the reference demo (serde_json without
 * {@code preserve_order}) does, so answers compare byte for byte with its recorded logs:
 * compact, object keys sorted by code point, non-ASCII written raw, control characters
 * escaped with lowercase hex, integers as digits and other numbers in Rust's shortest
 * form ({@code 1.0}, {@code 1e-7}, {@code 1.5e300}).
 *
 * <p>Reading also rejects what serde_json rejects and Jackson would let through: trailing
 * values after the first, numbers outside the double range, unpaired surrogates, and
 * nesting deeper than 127 levels.
 */
final class CompactJson {
    /** serde_json gives up at its 128th nested array or object. */
    private static final int MAX_DEPTH = 127;
    private static final char[] HEX = "0123456789abcdef".toCharArray();
    private static final BigInteger U64_MAX = BigInteger.ONE.shiftLeft(64).subtract(BigInteger.ONE);
    private static final JsonMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .build();

    private CompactJson() {
    }

    /** A fresh object node, for building messages. */
    static ObjectNode object() {
        return JsonNodeFactory.instance.objectNode();
    }

    /**
     * Parses one JSON value from UTF-8 bytes.
     *
     * @throws MalformedJsonException if the bytes are not exactly one valid JSON value
     */
    static JsonNode parse(byte[] bytes, int off, int len) throws MalformedJsonException {
        JsonNode node;
        try {
            node = MAPPER.readTree(bytes, off, len);
        } catch (JsonProcessingException e) {
            throw new MalformedJsonException(e.getOriginalMessage());
        } catch (IOException e) {
            throw new MalformedJsonException(e.getMessage());
        }
        if (node == null || node.isMissingNode()) {
            throw new MalformedJsonException("no JSON value");
        }
        checkRepresentable(node);
        return node;
    }

    static JsonNode parse(String text) throws MalformedJsonException {
        byte[] bytes = text.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return parse(bytes, 0, bytes.length);
    }

    /** Writes {@code node} compactly with sorted keys. */
    static String write(JsonNode node) {
        StringBuilder out = new StringBuilder(64);
        append(out, node);
        return out.toString();
    }

    private static void checkRepresentable(JsonNode root) throws MalformedJsonException {
        // Iterative, so that a deep value cannot exhaust a small virtual-thread stack.
        List<JsonNode> todo = new ArrayList<>();
        todo.add(root);
        while (!todo.isEmpty()) {
            JsonNode node = todo.removeLast();
            if (node.isObject()) {
                for (Map.Entry<String, JsonNode> field : node.properties()) {
                    checkString(field.getKey());
                    todo.add(field.getValue());
                }
            } else if (node.isArray()) {
                node.forEach(todo::add);
            } else if (node.isTextual()) {
                checkString(node.textValue());
            } else if (node.isNumber() && !node.isIntegralNumber() && !Double.isFinite(node.doubleValue())) {
                throw new MalformedJsonException("number out of range");
            }
        }
    }

    private static void checkString(String s) throws MalformedJsonException {
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            if (Character.isHighSurrogate(c) && i + 1 < n && Character.isLowSurrogate(s.charAt(i + 1))) {
                i++;
            } else if (Character.isSurrogate(c)) {
                throw new MalformedJsonException("unpaired surrogate in a string");
            }
        }
    }

    private static void append(StringBuilder out, JsonNode node) {
        switch (node.getNodeType()) {
            case OBJECT -> {
                List<String> keys = new ArrayList<>(node.size());
                node.fieldNames().forEachRemaining(keys::add);
                keys.sort(CompactJson::compareCodePoints);
                out.append('{');
                for (int i = 0; i < keys.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    appendString(out, keys.get(i));
                    out.append(':');
                    append(out, node.get(keys.get(i)));
                }
                out.append('}');
            }
            case ARRAY -> {
                out.append('[');
                for (int i = 0; i < node.size(); i++) {
                    if (i > 0) {
                        out.append(',');
                    }
                    append(out, node.get(i));
                }
                out.append(']');
            }
            case STRING -> appendString(out, node.textValue());
            case NUMBER -> appendNumber(out, node);
            case BOOLEAN -> out.append(node.booleanValue());
            case NULL -> out.append("null");
            default -> throw new IllegalArgumentException("not a JSON value: " + node.getNodeType());
        }
    }

    /** Byte order of the UTF-8 encodings, which is code point order (not UTF-16 order). */
    private static int compareCodePoints(String a, String b) {
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

    static void appendString(StringBuilder out, String s) {
        out.append('"');
        for (int i = 0, n = s.length(); i < n; i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                case '\b' -> out.append("\\b");
                case '\f' -> out.append("\\f");
                default -> {
                    if (c < 0x20) {
                        out.append("\\u00").append(HEX[c >> 4]).append(HEX[c & 0xF]);
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        out.append('"');
    }

    private static void appendNumber(StringBuilder out, JsonNode node) {
        if (node.isIntegralNumber()) {
            BigInteger v = node.bigIntegerValue();
            // serde_json keeps i64 and u64 as integers and reads anything wider as f64.
            if (v.bitLength() < 64 || (v.signum() > 0 && v.compareTo(U64_MAX) <= 0)) {
                out.append(v);
            } else {
                appendDouble(out, v.doubleValue());
            }
        } else {
            appendDouble(out, node.doubleValue());
        }
    }

    /**
     * Rust's (ryu's) layout of the shortest round-trip digits. Java's Double.toString finds
     * the same shortest digits (JDK 19 and later) but lays them out differently.
     */
    static void appendDouble(StringBuilder out, double d) {
        if (d == 0) {
            out.append(1 / d < 0 ? "-0.0" : "0.0");
            return;
        }
        if (d < 0) {
            out.append('-');
            d = -d;
        }
        String java = Double.toString(d);
        int e = java.indexOf('E');
        String mantissa = e < 0 ? java : java.substring(0, e);
        int exp = e < 0 ? 0 : Integer.parseInt(java.substring(e + 1));
        int dot = mantissa.indexOf('.');
        String digits = mantissa.substring(0, dot) + mantissa.substring(dot + 1);
        int pointPos = dot + exp; // the decimal point sits after this many of the digits
        int lead = 0;
        while (lead < digits.length() - 1 && digits.charAt(lead) == '0') {
            lead++;
        }
        digits = digits.substring(lead);
        pointPos -= lead;
        int end = digits.length();
        while (end > 1 && digits.charAt(end - 1) == '0') {
            end--;
        }
        digits = digits.substring(0, end);
        if (digits.length() == 2) {
            // Java never answers with fewer than two digits; ryu does when one digit reads
            // back as the same double, which happens only for subnormals (4.9E-324 is 5e-324).
            String shorter = oneDigit(d, digits, pointPos);
            if (shorter != null) {
                if (shorter.equals("10")) {
                    shorter = "1";
                    pointPos++;
                }
                digits = shorter;
            }
        }
        int length = digits.length();
        int kk = pointPos;          // value = 0.digits * 10^kk
        int k = kk - length;        // value = digits * 10^k
        if (k >= 0 && kk <= 16) {
            out.append(digits).append("0".repeat(k)).append(".0");
        } else if (kk > 0 && kk <= 16) {
            out.append(digits, 0, kk).append('.').append(digits, kk, length);
        } else if (kk > -5 && kk <= 0) {
            out.append("0.").append("0".repeat(-kk)).append(digits);
        } else if (length == 1) {
            out.append(digits).append('e').append(kk - 1);
        } else {
            out.append(digits.charAt(0)).append('.').append(digits, 1, length).append('e').append(kk - 1);
        }
    }

    /**
     * The one-digit decimal (as "1".."9", or "10" after rounding up 9x) nearest to the
     * two-digit value {@code 0.digits * 10^pointPos} that still reads back as {@code d}, or null.
     */
    private static String oneDigit(double d, String digits, int pointPos) {
        int first = digits.charAt(0) - '0';
        int second = digits.charAt(1) - '0';
        int nearer = second >= 5 ? first + 1 : first;
        int farther = second >= 5 ? first : first + 1;
        for (int candidate : new int[] {nearer, farther}) {
            String text = candidate == 10 ? "1e" + pointPos : "0." + candidate + "e" + pointPos;
            if (Double.parseDouble(text) == d) {
                return candidate == 10 ? "10" : Integer.toString(candidate);
            }
        }
        return null;
    }

    /** The input was not one valid JSON value. */
    static final class MalformedJsonException extends Exception {
        MalformedJsonException(String message) {
            super(message);
        }
    }
}
