package dev.stretto.trace.json;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class CanonicalJsonTest {

    @Test
    void doublesAreSpelledAsRustSpellsThem() {
        assertEquals("0.0", CanonicalJson.formatDouble(0.0));
        assertEquals("-0.0", CanonicalJson.formatDouble(-0.0));
        assertEquals("19.0", CanonicalJson.formatDouble(19.0));
        assertEquals("0.9925520080633771", CanonicalJson.formatDouble(0.9925520080633771));
        assertEquals("-0.13353139262452263", CanonicalJson.formatDouble(-0.13353139262452263));
        assertEquals("0.001", CanonicalJson.formatDouble(0.001));
        assertEquals("0.0001", CanonicalJson.formatDouble(1e-4));
        assertEquals("1e-7", CanonicalJson.formatDouble(1e-7));
        assertEquals("1.5e-7", CanonicalJson.formatDouble(1.5e-7));
        assertEquals("1000000000000000.0", CanonicalJson.formatDouble(1e15));
        assertEquals("1e16", CanonicalJson.formatDouble(1e16));
        assertEquals("1.234e20", CanonicalJson.formatDouble(1.234e20));
        assertEquals("123.456", CanonicalJson.formatDouble(123.456));
        assertEquals("null", CanonicalJson.formatDouble(Double.NaN));
    }

    @Test
    void subnormalsTakeOneDigitWhereOneReadsBack() {
        // Double.toString never answers with fewer than two digits; ryu does.
        assertEquals("5e-324", CanonicalJson.formatDouble(Double.MIN_VALUE));
        assertEquals("-5e-324", CanonicalJson.formatDouble(-Double.MIN_VALUE));
        assertEquals("1e-323", CanonicalJson.formatDouble(2 * Double.MIN_VALUE));
        assertEquals("1.5e-323", CanonicalJson.formatDouble(3 * Double.MIN_VALUE));
        assertEquals("2.5e-323", CanonicalJson.formatDouble(5 * Double.MIN_VALUE));
        assertEquals("9.4e-323", CanonicalJson.formatDouble(19 * Double.MIN_VALUE));
        assertEquals("2.2250738585072014e-308", CanonicalJson.formatDouble(Double.MIN_NORMAL));
    }

    @Test
    void objectsAreWrittenCompactWithSortedKeys() {
        assertEquals("{\"A\":[1,2.5,true,null],\"a\":{\"x\":\"\\u001f\\n\",\"é\":1},\"b\":\"ü\"}",
                CanonicalJson.write(CanonicalJson.parse("{ \"b\":\"ü\", \"a\":{\"é\":1,\"x\":\"\\u001F\\n\"}, "
                        + "\"A\":[1, 2.50, true, null]}")));
    }

    @Test
    void integersBeyondU64AreWrittenAsDoubles() {
        assertEquals("[18446744073709551615,-9223372036854775808,1e20]", CanonicalJson.write(CanonicalJson.parse(
                "[18446744073709551615,-9223372036854775808,100000000000000000000]")));
    }

    /** Formats section 1: serde_json reads the integer -0 as the float -0.0 and writes it so. */
    @Test
    void theIntegerMinusZeroIsWrittenAsSerdeJsonWritesIt() {
        assertEquals("{\"a\":-0.0,\"b\":[0,-0.0,-0.0,0.0,-1],\"c\":{\"d\":-0.0}}", CanonicalJson.write(CanonicalJson.parse(
                "{\"b\":[0,-0,-0.0,0.0,-1],\"a\":-0,\"c\":{\"d\":-0}}")));
        assertEquals("-0.0", CanonicalJson.write(CanonicalJson.parse("-0")));
    }

    @Test
    void deeplyNestedValuesAreReadWithoutRecursion() {
        int depth = 100_000;
        String deep = "[".repeat(depth) + "]".repeat(depth);
        com.fasterxml.jackson.databind.JsonNode node = CanonicalJson.parse(deep);
        int levels = 0;
        for (; node.isArray() && levels <= depth; node = node.path(0)) {
            levels++;
        }
        assertEquals(depth, levels);
    }

    @Test
    void keysSortByCodePoint() {
        // U+FF21 sorts before U+1F600 by code point, though not by UTF-16 unit.
        assertEquals("{\"Ａ\":1,\"😀\":2}", CanonicalJson.write(CanonicalJson.parse("{\"😀\":2,\"Ａ\":1}")));
    }

    @Test
    void prettyOutputIsSerdeJsonsPrettyPrinterKeepingKeyOrder() {
        String pretty = CanonicalJson.writePrettyKeepingKeyOrder(CanonicalJson.parse(
                "{\"model\":\"m\",\"answers\":{\"b\":{\"type\":\"noul\",\"noul\":0.50},\"a\":[1,[],{}]},"
                        + "\"usage\":{},\"e\":\"\u00e9\\u0001\"}"));
        assertEquals("""
                {
                  "model": "m",
                  "answers": {
                    "b": {
                      "type": "noul",
                      "noul": 0.5
                    },
                    "a": [
                      1,
                      [],
                      {}
                    ]
                  },
                  "usage": {},
                  "e": "\u00e9\\u0001"
                }""", pretty);
        assertEquals("[]", CanonicalJson.writePrettyKeepingKeyOrder(CanonicalJson.parse("[]")));
        assertEquals("1e-7", CanonicalJson.writePrettyKeepingKeyOrder(CanonicalJson.parse("1e-7")));
    }

    @Test
    void fixedDecimalsRoundTheExactValueHalfToEvenAsRustDoes() {
        assertEquals("0.15", CanonicalJson.formatFixed(0.15, 2));
        assertEquals("0.12", CanonicalJson.formatFixed(0.125, 2));
        assertEquals("0.38", CanonicalJson.formatFixed(0.375, 2));
        // As doubles, 0.145 is a little below 0.145 and 0.115 a little above 0.115.
        assertEquals("0.14", CanonicalJson.formatFixed(0.145, 2));
        assertEquals("0.12", CanonicalJson.formatFixed(0.115, 2));
        assertEquals("0.50", CanonicalJson.formatFixed(0.5, 2));
        assertEquals("1.00", CanonicalJson.formatFixed(0.999, 2));
        assertEquals("2", CanonicalJson.formatFixed(2.5, 0));
        assertEquals("-0.00", CanonicalJson.formatFixed(-0.001, 2));
        assertEquals("-0.00", CanonicalJson.formatFixed(-0.0, 2));
        assertEquals("NaN", CanonicalJson.formatFixed(Double.NaN, 2));
        assertEquals("-inf", CanonicalJson.formatFixed(Double.NEGATIVE_INFINITY, 2));
    }

    @Test
    void parseRejectsAnythingButOneValue() {
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.parse("{} {}"));
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.parse("{"));
        assertThrows(IllegalArgumentException.class, () -> CanonicalJson.parse(""));
    }
}
