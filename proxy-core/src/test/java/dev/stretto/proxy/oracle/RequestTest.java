package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.trace.json.CanonicalJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The request's JSON, which is also what its cache key hashes: every byte matters. */
class RequestTest {

    private static final Question YES_NO = new Question.Noul("Is it?", new Question.NoulCriteria("It is.", "It is not."));

    private static Request withState(String stateJson) {
        return Request.of("jev-latest", CanonicalJson.parse(stateJson), "q", new Question.Noul("Q", null));
    }

    private static String stateOf(Request r) {
        String json = r.toJson();
        String prefix = "{\"model\":\"jev-latest\",\"state\":";
        String suffix = ",\"questions\":{\"q\":{\"type\":\"noul\",\"instructions\":\"Q\"}}}";
        assertEquals(prefix, json.substring(0, prefix.length()), json);
        assertEquals(suffix, json.substring(json.length() - suffix.length()), json);
        return json.substring(prefix.length(), json.length() - suffix.length());
    }

    @Test
    void fieldsComeInDeclarationOrderAndQuestionsSortedById() {
        Map<String, Question> questions = new LinkedHashMap<>();
        questions.put("tool", new Question.Choice("Which?", Map.of("zeta", "Z.", "alpha", "A.", "Mid", "M.")));
        questions.put("go_on", YES_NO);
        questions.put("level", new Question.Score("How much?", List.of("none", "some", "a lot")));
        Request r = Request.of("jev-latest", CanonicalJson.parse("{\"b\":1,\"a\":2}"), questions);
        assertEquals("{\"model\":\"jev-latest\",\"state\":{\"a\":2,\"b\":1},\"questions\":{"
                + "\"go_on\":{\"type\":\"noul\",\"instructions\":\"Is it?\",\"criteria\":{\"true\":\"It is.\",\"false\":\"It is not.\"}},"
                + "\"level\":{\"type\":\"score\",\"instructions\":\"How much?\",\"criteria\":[\"none\",\"some\",\"a lot\"]},"
                + "\"tool\":{\"type\":\"choice\",\"instructions\":\"Which?\",\"criteria\":{\"Mid\":\"M.\",\"alpha\":\"A.\",\"zeta\":\"Z.\"}}}}",
                r.toJson());
    }

    @Test
    void aYesNoQuestionWithoutCriteriaLeavesThemOut() {
        Request r = Request.of("m", CanonicalJson.parse("null"), "x", new Question.Noul("Q?", null));
        assertEquals("{\"model\":\"m\",\"state\":null,\"questions\":{\"x\":{\"type\":\"noul\",\"instructions\":\"Q?\"}}}",
                r.toJson());
    }

    @Test
    void stateKeysAreSortedAtEveryDepthByCodePointAndArraysKeepTheirOrder() {
        assertEquals("{\"A\":[{\"a\":1,\"b\":2},3],\"a\":{\"B\":true,\"a\":null},\"Ａ\":1,\"😀\":2}",
                stateOf(withState("{\"😀\":2,\"a\":{\"a\":null,\"B\":true},\"Ａ\":1,\"A\":[{\"b\":2,\"a\":1},3]}")));
    }

    @Test
    void questionIdsSortByCodePointNotByUtf16Unit() {
        Request r = Request.of("m", CanonicalJson.parse("{}"), Map.of("😀", YES_NO, "Ａ", YES_NO, "b", YES_NO));
        assertEquals(List.of("b", "Ａ", "😀"), List.copyOf(r.questions().keySet()));
    }

    @Test
    void nonAsciiIsWrittenRawAndControlCharactersWithLowercaseEscapes() {
        Request r = Request.of("m", CanonicalJson.parse("{}"), "q",
                new Question.Noul("é 😀 \u0001\u001f\u007f \n\t\r\b\f \"quoted\" back\\slash", null));
        assertEquals("{\"model\":\"m\",\"state\":{},\"questions\":{\"q\":{\"type\":\"noul\",\"instructions\":"
                + "\"é 😀 \\u0001\\u001f\u007f \\n\\t\\r\\b\\f \\\"quoted\\\" back\\\\slash\"}}}", r.toJson());
        assertEquals("\"\\u001b[0m ü\"", stateOf(withState("\"\\u001B[0m \\u00fc\"")));
    }

    @Test
    void numbersInTheStateAreSpelledAsRustSpellsThem() {
        assertEquals("[1.0,1e-7,-0.0,0.0,100,-5,0.1,1.5e300,1e16,1000000000000000.0,"
                        + "18446744073709551615,-9223372036854775808,1.8446744073709552e19,-9.223372036854776e18]",
                stateOf(withState("[1.0,1e-7,-0.0,0.0,100,-5,0.10,1.5E300,1e16,1e15,"
                        + "18446744073709551615,-9223372036854775808,18446744073709551616,-9223372036854775809]")));
    }

    @Test
    void theKeyIsTheLowercaseHexSha256OfTheJson() {
        Request r = Request.of("m", CanonicalJson.parse("{}"), "x", new Question.Noul("Q?", null));
        // printf '%s' '{"model":"m","state":{},"questions":{"x":{"type":"noul","instructions":"Q?"}}}' | sha256sum
        assertEquals("852b56091e35c73627431c87dec81d770df15c9fb3f8322129ca74cbb59d06f5", r.key());
    }

    @Test
    void theStateIsAPrivateCopy() {
        var state = (com.fasterxml.jackson.databind.node.ObjectNode) CanonicalJson.parse("{\"a\":1}");
        Request r = Request.of("m", state, "x", YES_NO);
        state.put("a", 2);
        ((com.fasterxml.jackson.databind.node.ObjectNode) r.state()).put("a", 3);
        assertEquals("{\"a\":1}", CanonicalJson.write(r.state()));
    }

    @Test
    void emptyRequestsAndQuestionsAreRefused() {
        assertThrows(IllegalArgumentException.class, () -> Request.of("m", CanonicalJson.parse("{}"), Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Question.Choice("Which?", Map.of()));
        assertThrows(IllegalArgumentException.class, () -> new Question.Score("How?", List.of("one")));
    }
}
