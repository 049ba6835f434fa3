package dev.stretto.proxy.record;

import java.io.ByteArrayOutputStream;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Random;
import java.util.function.Supplier;

/**
 * Lines of every kind a server or host may send, from a seeded random source: valid JSON of
 * many shapes, JSON in UTF-16 and UTF-32, byte order marks, NULs, surrogates escaped and
 * encoded, deep nesting, huge and tiny numbers, control characters, each class of ill-formed
 * UTF-8, CR and CRLF endings, white space of every kind, random bytes and damaged JSON. A line
 * never holds {@code '\n'}: that ends it.
 */
final class LineGenerator {

    /** Ill-formed UTF-8, one of each class (Unicode Table 3-7 turned inside out). */
    static final List<String> ILL_FORMED = List.of(
            "80", "BF", "C0 80", "C1 BF", "C2", "E0 80 80", "E0 9F BF", "ED A0 80", "ED BF BF", "E2 82",
            "F0 80 80 80", "F0 8F BF BF", "F4 90 80 80", "F0 9F 98", "F5 80 80 80", "F8", "FC", "FE", "FF",
            "ED A0 BD ED B8 80");

    private final Random random;
    private final List<Supplier<byte[]>> kinds = new ArrayList<>();

    LineGenerator(long seed) {
        this.random = new Random(seed);
        kinds.add(this::randomBytes);
        kinds.add(() -> utf8(json(4)));
        kinds.add(() -> utf8(spaced(json(3))));
        kinds.add(this::otherEncoding);
        kinds.add(this::withByteOrderMark);
        kinds.add(this::withNul);
        kinds.add(this::surrogates);
        kinds.add(this::deep);
        kinds.add(this::numbers);
        kinds.add(this::controlCharacters);
        kinds.add(this::illFormed);
        kinds.add(this::endings);
        kinds.add(this::whiteSpace);
        kinds.add(this::damaged);
    }

    /** Fixed lines worth having once: the shapes named in issue 7 and the edges of each rule. */
    static List<byte[]> landmarks() {
        List<byte[]> out = new ArrayList<>();
        for (String s : List.of("", " ", "\r", "\t\f\r", "1", "-0", "\"\"", "{}", "[]", "null", "true",
                "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}", "[{\"id\":1},{\"id\":2}]",
                "{\"s\":\"\\ud800\"}", "{\"s\":\"\\ud83d\\ude00\"}", "{\"\\udc00\":1}", "[1e308]", "[1e309]",
                "[-1e309]", "[1.7976931348623157e308]", "[1.7976931348623159e308]", "[1e-400]",
                "[" + "9".repeat(400) + "]", "{\"a\":1,\"a\":2}", "[\"\\/\\b\\f\\n\\r\\t\\u0000\\u001f\"]",
                "{} {}", "{\"a\":1}\r", "{\"a\":1}\r\r", "  [1, 2]  \r", "\f{}\f", "\u000b{}", "[1,\u000b2]",
                "Listening on stdio", "[1]\u00a0", "[\"\u2028\u2029\"]", "[\"\u007f\"]")) {
            out.add(utf8(s));
        }
        out.add(utf8("[".repeat(126) + "]".repeat(126)));
        out.add(utf8("[".repeat(127) + "]".repeat(127)));
        out.add(utf8("{\"a\":".repeat(126) + "1" + "}".repeat(126)));
        out.add(utf8("{\"a\":".repeat(127) + "1" + "}".repeat(127)));
        out.add(new byte[] {'1', 0});
        out.add(new byte[] {'{', 0, '}', 0});
        out.add(new byte[] {0, '{', 0, '}'});
        out.add(new byte[] {'1', 0, 0, 0});
        out.add("{\"jsonrpc\":\"2.0\",\"id\":1}".getBytes(StandardCharsets.UTF_16LE));
        out.add("{\"jsonrpc\":\"2.0\",\"id\":1}".getBytes(StandardCharsets.UTF_16));
        out.add(concat(HexFormat.of().parseHex("EFBBBF"), utf8("{\"id\":1}")));
        out.add(concat(HexFormat.of().parseHex("EFBBBF"), utf8("\"x\"")));
        out.add(concat(utf8("{\"id\":1}"), HexFormat.of().parseHex("EFBBBF")));
        out.add(utf8("[\"\uFEFF\"]"));
        out.add(utf8("{\"big\":\"" + "x".repeat(3 * 1024 * 1024) + "\"}"));
        for (String hex : ILL_FORMED) {
            byte[] bad = HexFormat.ofDelimiter(" ").parseHex(hex);
            out.add(bad);
            out.add(concat(utf8("{\"a\":\""), bad, utf8("\"}")));
        }
        return out;
    }

    byte[] next() {
        return kinds.get(random.nextInt(kinds.size())).get();
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static byte[] concat(byte[]... parts) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        for (byte[] p : parts) {
            out.writeBytes(p);
        }
        return out.toByteArray();
    }

    private static byte[] withoutNewlines(byte[] b) {
        for (int k = 0; k < b.length; k++) {
            if (b[k] == '\n') {
                b[k] = ' ';
            }
        }
        return b;
    }

    private byte[] randomBytes() {
        byte[] b = new byte[random.nextInt(48)];
        random.nextBytes(b);
        return withoutNewlines(b);
    }

    /** A random JSON value, compact, of at most {@code depth} levels. */
    private String json(int depth) {
        int pick = random.nextInt(depth > 0 ? 9 : 6);
        return switch (pick) {
            case 0 -> "null";
            case 1 -> random.nextBoolean() ? "true" : "false";
            case 2, 3 -> number();
            case 4, 5 -> quoted(text());
            case 6 -> {
                StringBuilder s = new StringBuilder("[");
                for (int k = random.nextInt(4); k > 0; k--) {
                    s.append(json(depth - 1)).append(k > 1 ? "," : "");
                }
                yield s.append(']').toString();
            }
            default -> {
                StringBuilder s = new StringBuilder("{");
                for (int k = random.nextInt(4); k > 0; k--) {
                    s.append(quoted(text())).append(':').append(json(depth - 1)).append(k > 1 ? "," : "");
                }
                yield s.append('}').toString();
            }
        };
    }

    private String number() {
        return switch (random.nextInt(8)) {
            case 0 -> Integer.toString(random.nextInt());
            case 1 -> Long.toString(random.nextLong());
            case 2 -> Double.toString(random.nextGaussian() * 1e6).replace("E", "e");
            case 3 -> "-0";
            case 4 -> "0.0";
            case 5 -> (random.nextBoolean() ? "-" : "") + "1e" + (random.nextInt(700) - 350);
            case 6 -> "18446744073709551616";
            default -> random.nextInt(10) + "." + random.nextInt(1000) + "E+" + random.nextInt(20);
        };
    }

    private String text() {
        StringBuilder s = new StringBuilder();
        for (int k = random.nextInt(8); k > 0; k--) {
            switch (random.nextInt(6)) {
                case 0 -> s.append((char) ('a' + random.nextInt(26)));
                case 1 -> s.append("é€😀日本");
                case 2 -> s.append('"');
                case 3 -> s.append('\\');
                case 4 -> s.append((char) random.nextInt(0x20));
                default -> s.appendCodePoint(0xA0 + random.nextInt(0xD000));
            }
        }
        return s.toString();
    }

    /** Quotes with escapes of every spelling JSON allows. */
    private String quoted(String s) {
        StringBuilder out = new StringBuilder("\"");
        for (int k = 0; k < s.length(); k++) {
            char c = s.charAt(k);
            if (c == '"' || c == '\\') {
                out.append('\\').append(c);
            } else if (c < 0x20 || random.nextInt(20) == 0) {
                out.append(String.format(random.nextBoolean() ? "\\u%04x" : "\\u%04X", (int) c));
            } else {
                out.append(c);
            }
        }
        return out.append('"').toString();
    }

    /** JSON with white space of the four kinds JSON allows between its tokens. */
    private String spaced(String json) {
        StringBuilder out = new StringBuilder();
        boolean inString = false;
        for (int k = 0; k < json.length(); k++) {
            char c = json.charAt(k);
            out.append(c);
            if (c == '"' && (k == 0 || json.charAt(k - 1) != '\\' || json.charAt(k - 2) == '\\')) {
                inString = !inString;
            }
            if (!inString && ",:[]{}".indexOf(c) >= 0 && random.nextBoolean()) {
                out.append(" \t\r".charAt(random.nextInt(3)));
            }
        }
        return out.toString();
    }

    private byte[] otherEncoding() {
        Charset cs = List.of(StandardCharsets.UTF_16LE, StandardCharsets.UTF_16BE, StandardCharsets.UTF_16,
                Charset.forName("UTF-32LE"), Charset.forName("UTF-32BE")).get(random.nextInt(5));
        return withoutNewlines(json(3).getBytes(cs));
    }

    private byte[] withByteOrderMark() {
        byte[] bom = HexFormat.of().parseHex("EFBBBF");
        byte[] json = utf8(json(3));
        return switch (random.nextInt(3)) {
            case 0 -> concat(bom, json);
            case 1 -> concat(utf8(" "), bom, json);
            default -> concat(json, bom);
        };
    }

    private byte[] withNul() {
        byte[] json = utf8(json(3));
        int at = random.nextInt(json.length + 1);
        return concat(java.util.Arrays.copyOf(json, at), new byte[] {0}, java.util.Arrays.copyOfRange(json, at, json.length));
    }

    private byte[] surrogates() {
        String[] units = {"\\ud800", "\\udbff", "\\udc00", "\\udfff", "\\ud83d\\ude00", "\\ude00\\ud83d", "\\uD834\\uDD1E",
                "\\ud800\\u0041", "\\ud800\\ud800"};
        String s = "{\"" + (random.nextBoolean() ? units[random.nextInt(units.length)] : "k") + "\":\""
                + units[random.nextInt(units.length)] + "\"}";
        if (random.nextInt(4) == 0) {
            return concat(utf8("[\""), HexFormat.of().parseHex(random.nextBoolean() ? "EDA080" : "EDB080"), utf8("\"]"));
        }
        return utf8(s);
    }

    private byte[] deep() {
        int n = 120 + random.nextInt(12);
        if (random.nextBoolean()) {
            return utf8("[".repeat(n) + json(1) + "]".repeat(n));
        }
        return utf8("{\"k\":".repeat(n) + json(1) + "}".repeat(n));
    }

    private byte[] numbers() {
        String[] n = {"1e308", "1e309", "-1e309", "1E400", "1e-400", "-1e-400", "9".repeat(309), "-" + "9".repeat(309),
                "9".repeat(308), "123456789012345678901234567890", "-9223372036854775809", "0.000000000000000000001",
                "1.7976931348623157e308", "1.7976931348623159e308", "4.9e-324", "2.4e-324", "-0", "-0.0", "0e0"};
        return utf8("[" + n[random.nextInt(n.length)] + "]");
    }

    private byte[] controlCharacters() {
        char c = (char) (random.nextInt(5) == 0 ? 0x7F : random.nextInt(0x20));
        if (c == '\n') {
            c = 0;
        }
        return switch (random.nextInt(3)) {
            case 0 -> utf8("{\"a\":\"x" + c + "y\"}");
            case 1 -> utf8("[1," + c + "2]");
            default -> utf8(c + "{}" + c);
        };
    }

    private byte[] illFormed() {
        byte[] bad = HexFormat.ofDelimiter(" ").parseHex(ILL_FORMED.get(random.nextInt(ILL_FORMED.size())));
        return switch (random.nextInt(3)) {
            case 0 -> bad;
            case 1 -> concat(utf8("{\"a\":\""), bad, utf8("\"}"));
            default -> concat(utf8("text "), bad, utf8(" more"));
        };
    }

    private byte[] endings() {
        String[] ends = {"\r", "\r\r", " \r", "\t", "\f", "\u000b", ""};
        String[] starts = {"", " ", "\t", "\f", "\r", "\u000b"};
        return utf8(starts[random.nextInt(starts.length)] + json(2) + ends[random.nextInt(ends.length)]);
    }

    private byte[] whiteSpace() {
        StringBuilder s = new StringBuilder();
        for (int k = random.nextInt(6); k > 0; k--) {
            s.append(" \t\r\f\u000b".charAt(random.nextInt(5)));
        }
        return utf8(s.toString());
    }

    private byte[] damaged() {
        byte[] json = utf8(spaced(json(3)));
        if (json.length == 0) {
            return json;
        }
        int at = random.nextInt(json.length);
        return withoutNewlines(switch (random.nextInt(4)) {
            case 0 -> java.util.Arrays.copyOf(json, at);
            case 1 -> concat(java.util.Arrays.copyOf(json, at), java.util.Arrays.copyOfRange(json, at + 1, json.length));
            case 2 -> concat(java.util.Arrays.copyOf(json, at), new byte[] {(byte) random.nextInt(256)},
                    java.util.Arrays.copyOfRange(json, at, json.length));
            default -> concat(json, json);
        });
    }
}
