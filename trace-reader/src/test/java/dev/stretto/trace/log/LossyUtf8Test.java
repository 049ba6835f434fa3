package dev.stretto.trace.log;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Byte sequences and what Rust's {@code String::from_utf8_lossy} makes of them (one U+FFFD per
 * maximal subpart, Unicode chapter 3), which raw entries must match byte for byte.
 */
class LossyUtf8Test {

    private static final String R = "\uFFFD";

    static Stream<Arguments> sequences() {
        return Stream.of(
                Arguments.of("well-formed ASCII", "61 62 63", "abc"),
                Arguments.of("well-formed two, three and four bytes", "C3 A9 E2 82 AC F0 9F 98 80", "é€😀"),
                Arguments.of("the highest code point", "F4 8F BF BF", "\uDBFF\uDFFF"),
                Arguments.of("a lone continuation byte", "80", R),
                Arguments.of("continuation bytes in a row, one each", "80 BF 80", R + R + R),
                Arguments.of("overlong two-byte lead C0", "C0 80", R + R),
                Arguments.of("overlong two-byte lead C1", "C1 BF", R + R),
                Arguments.of("overlong three bytes: E0 needs A0..BF next", "E0 80 80", R + R + R),
                Arguments.of("overlong four bytes: F0 needs 90..BF next", "F0 80 80 80", R + R + R + R),
                Arguments.of("an encoded surrogate: ED needs 80..9F next", "ED A0 80", R + R + R),
                Arguments.of("an encoded low surrogate", "ED BF BF", R + R + R),
                Arguments.of("a surrogate pair encoded as two sequences (CESU-8)", "ED A0 BD ED B8 80",
                        R + R + R + R + R + R),
                Arguments.of("above U+10FFFF: F4 needs 80..8F next", "F4 90 80 80", R + R + R + R),
                Arguments.of("bytes that never occur: F5..FF", "F5 F8 FC FE FF", R + R + R + R + R),
                Arguments.of("a two-byte sequence cut short", "C3", R),
                Arguments.of("a three-byte sequence cut short is one subpart", "E2 82", R),
                Arguments.of("a four-byte sequence cut short is one subpart", "F0 9F 98", R),
                Arguments.of("a cut-short sequence before ASCII keeps the ASCII", "E2 82 41", R + "A"),
                Arguments.of("a cut-short sequence before a new lead", "F0 9F C3 A9", R + "é"),
                Arguments.of("a lead followed by a lead", "E2 E2 82 AC", R + "€"),
                Arguments.of("valid text around invalid bytes", "61 FF 62 ED A0 80 63", "a" + R + "b" + R + R + R + "c"),
                Arguments.of("NUL is well-formed", "00 31 00", "\u00001\u0000"),
                Arguments.of("a byte order mark is well-formed text", "EF BB BF 7B 7D", "\uFEFF{}"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    void eachMaximalSubpartBecomesOneReplacementCharacter(String what, String hex, String expected) {
        byte[] bytes = HexFormat.ofDelimiter(" ").parseHex(hex);
        assertEquals(expected, LossyUtf8.decode(bytes, 0, bytes.length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    void decodingAPartOfABufferReadsOnlyThatPart(String what, String hex, String expected) {
        byte[] inner = HexFormat.ofDelimiter(" ").parseHex(hex);
        byte[] buf = new byte[inner.length + 4];
        buf[0] = (byte) 0xE2;
        buf[1] = (byte) 0x82;
        System.arraycopy(inner, 0, buf, 2, inner.length);
        buf[buf.length - 2] = (byte) 0xF0;
        buf[buf.length - 1] = (byte) 0x9F;
        assertEquals(expected, LossyUtf8.decode(buf, 2, inner.length));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("sequences")
    void wellFormedInputDecodesAsTheJdkDecodesIt(String what, String hex, String expected) {
        byte[] bytes = HexFormat.ofDelimiter(" ").parseHex(hex);
        if (!expected.contains(R)) {
            assertEquals(new String(bytes, StandardCharsets.UTF_8), LossyUtf8.decode(bytes, 0, bytes.length));
        }
    }
}
