package dev.stretto.demo;

import dev.stretto.trace.json.CanonicalJson;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

class DemoJsonTest {

    private static String roundTrip(String json) throws DemoJson.MalformedJsonException {
        return CanonicalJson.write(DemoJson.parse(json));
    }

    @Test
    void sortsKeysAtEveryLevelAndDropsWhitespace() throws Exception {
        assertEquals("{\"a\":[{\"x\":1,\"y\":2}],\"b\":{\"c\":null,\"d\":true}}",
                roundTrip("{ \"b\" : {\"d\":true, \"c\":null}, \"a\": [ {\"y\":2,\"x\":1} ] }"));
    }

    @Test
    void sortsKeysByCodePointLikeUtf8Bytes() throws Exception {
        // U+FF21 sorts before U+1F600 in UTF-8 byte order, though not in UTF-16 order.
        assertEquals("{\"B\":1,\"a\":2,\"Ａ\":3,\"😀\":4}", roundTrip("{\"😀\":4,\"Ａ\":3,\"a\":2,\"B\":1}"));
    }

    @Test
    void escapesLikeSerdeJson() throws Exception {
        assertEquals("\"q\\\" b\\\\ n\\n t\\t r\\r b\\b f\\f \\u0001 \\u001f é / \u007f\"",
                roundTrip("\"q\\\" b\\\\ n\\n t\\t r\\r b\\b f\\f \\u0001 \\u001F \\u00e9 \\/ \\u007f\""));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
            "0|0", "-0|-0.0", "-12|-12", "9223372036854775807|9223372036854775807",
            "18446744073709551615|18446744073709551615",
            "18446744073709551616|1.8446744073709552e19", "-9223372036854775809|-9.223372036854776e18",
            "1.0|1.0", "1.5|1.5", "-0.0|-0.0", "0.0|0.0", "100.25|100.25", "1e5|100000.0",
            "1e16|1e16", "1.5e16|1.5e16", "1e15|1000000000000000.0", "0.0001|0.0001", "0.00001|0.00001", "0.000001|1e-6", "0.0000012|1.2e-6",
            "1.25e-7|1.25e-7", "4.9E-324|5e-324", "1e-323|1e-323", "2.5e-323|2.5e-323", "1.5e-323|1.5e-323",
            "9.5e-323|9.4e-323", "1e23|1e23", "9.9e22|9.9e22", "1.7976931348623157e308|1.7976931348623157e308", "1e300|1e300", "0.1|0.1", "123456.789|123456.789",
            "2.5E+3|2500.0", "0.3333333333333333|0.3333333333333333"})
    void writesNumbersLikeRust(String in, String out) throws Exception {
        assertEquals(out, roundTrip(in));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "   ", "nope", "{\"a\":1} {\"b\":2}", "{\"a\":1,}", "[1,]", "1e400", "01",
            "\"\\ud800\"", "{\"\\udc00\":1}", "{'a':1}", "NaN", "\"tab\there\""})
    void rejectsWhatSerdeRejects(String text) {
        assertThrows(DemoJson.MalformedJsonException.class, () -> DemoJson.parse(text));
    }

    @Test
    void rejectsIntegersBeyondTheDoubleRange() throws Exception {
        // serde_json reads integers wider than u64 as f64, and this one overflows it.
        String huge = "1" + "0".repeat(400);
        assertThrows(DemoJson.MalformedJsonException.class, () -> DemoJson.parse(huge));
        assertEquals("1e300", roundTrip("1" + "0".repeat(300)));
    }

    @Test
    void rejectsInvalidUtf8() {
        byte[] bytes = {'"', (byte) 0xC3, '"'};
        assertThrows(DemoJson.MalformedJsonException.class, () -> DemoJson.parse(bytes, 0, bytes.length));
    }

    @Test
    void nestingLimitIs127Levels() throws Exception {
        String ok = "[".repeat(127) + "]".repeat(127);
        assertEquals(ok, roundTrip(ok));
        String deep = "[".repeat(128) + "]".repeat(128);
        assertThrows(DemoJson.MalformedJsonException.class, () -> DemoJson.parse(deep));
    }
}
