package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Reading the service's answers, leniently only where the reference is lenient. */
class ResponseTest {

    private static final String FULL = """
            {"model":"jev-1.13.0","answers":{
              "go_on":{"type":"noul","noul":0.81,"temperature":1.0},
              "next":{"type":"choice","choice":"respond","probabilities":{"respond":0.7,"get_order_details":0.3},"confidence":0.4},
              "level":{"type":"score","score":1.2,"probabilities":{"0":0.1,"1":0.6,"2":0.3},"confidence":0.5,
                       "legend":{"0":"none","1":"some","2":"a lot"}}},
             "usage":{"input_tokens":1234,"output_tokens":3},"id":"extra"}""";

    @Test
    void aFullResponseIsReadWithEveryKindOfAnswer() {
        Response r = Response.parse(FULL);
        assertEquals("jev-1.13.0", r.model());
        assertEquals(new Answer.Noul(0.81), r.answers().get("go_on"));
        Answer.Choice next = (Answer.Choice) r.answers().get("next");
        assertEquals("respond", next.choice());
        assertEquals(Map.of("respond", 0.7, "get_order_details", 0.3), next.probabilities());
        assertEquals(0.4, next.confidence());
        Answer.Score level = (Answer.Score) r.answers().get("level");
        assertEquals(1.2, level.score());
        assertEquals("some", level.legend().get("1").textValue());
        assertEquals(new TokenUsage(1234, 3), r.usage());
        assertEquals(List.of("go_on", "level", "next"), List.copyOf(r.answers().keySet()));
    }

    @Test
    void aMissingUsageIsZeros() {
        assertEquals(TokenUsage.NONE, Response.parse("{\"model\":\"m\",\"answers\":{}}").usage());
        assertEquals(TokenUsage.NONE, Response.parse("{\"model\":\"m\",\"answers\":{},\"usage\":null}").usage());
        assertEquals(new TokenUsage(0, 7), Response.parse("{\"model\":\"m\",\"answers\":{},\"usage\":{\"output_tokens\":7}}").usage());
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            []                                                          | not a JSON object
            {"model":"m","answers":{}} {}                               | not JSON: not exactly one JSON value
            {"answers":{}}                                              | the response has no string "model"
            {"model":"m"}                                               | the response has no "answers" object
            {"model":"m","answers":[]}                                  | the response has no "answers" object
            {"model":"m","answers":{"a":1}}                             | the answer to "a" is not an object
            {"model":"m","answers":{"a":{"noul":0.5}}}                  | the answer to "a" has no string "type"
            {"model":"m","answers":{"a":{"type":"guess"}}}              | the answer to "a" has an unknown type "guess"
            {"model":"m","answers":{"a":{"type":"noul","noul":"0.5"}}}  | the answer to "a" has no number "noul"
            {"model":"m","answers":{"a":{"type":"choice","choice":"x","confidence":1}}} | the answer to "a" has no "probabilities" object
            {"model":"m","answers":{"a":{"type":"choice","choice":"x","probabilities":{"x":null},"confidence":1}}} | the answer to "a": the probability of "x" is not a number
            {"model":"m","answers":{"a":{"type":"score","score":1,"probabilities":{},"confidence":1}}} | the answer to "a" has no "legend" object
            {"model":"m","answers":{},"usage":[]}                       | "usage" is not an object
            {"model":"m","answers":{},"usage":{"input_tokens":-1}}      | "usage".input_tokens is not a whole number of tokens
            {"model":"m","answers":{},"usage":{"input_tokens":1.5}}     | "usage".input_tokens is not a whole number of tokens
            """)
    void anythingElseIsRefusedSayingWhatIsWrong(String json, String reason) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Response.parse(json));
        assertEquals(reason, e.getMessage());
    }

    @Test
    void theCompactFormHasTypedFieldsInDeclarationOrderAndMapsSorted() {
        assertEquals("{\"model\":\"jev-1.13.0\",\"answers\":{"
                + "\"go_on\":{\"type\":\"noul\",\"noul\":0.81},"
                + "\"level\":{\"type\":\"score\",\"score\":1.2,\"probabilities\":{\"0\":0.1,\"1\":0.6,\"2\":0.3},\"confidence\":0.5,"
                + "\"legend\":{\"0\":\"none\",\"1\":\"some\",\"2\":\"a lot\"}},"
                + "\"next\":{\"type\":\"choice\",\"choice\":\"respond\",\"probabilities\":{\"get_order_details\":0.3,\"respond\":0.7},"
                + "\"confidence\":0.4}},\"usage\":{\"input_tokens\":1234,\"output_tokens\":3}}",
                Response.parse(FULL).toJson());
    }

    @Test
    void theCacheFormIsPrettyPrintedAsSerdeJsonDoes() {
        Response r = Response.of("mock", Map.of("confirmed", new Answer.Noul(0.5)), TokenUsage.NONE);
        assertEquals("""
                {
                  "model": "mock",
                  "answers": {
                    "confirmed": {
                      "type": "noul",
                      "noul": 0.5
                    }
                  },
                  "usage": {
                    "input_tokens": 0,
                    "output_tokens": 0
                  }
                }""", r.toPrettyJson());
        assertEquals(r, Response.parse(r.toPrettyJson()));
    }

    @Test
    void everyFormReadsBackAsTheSameResponse() {
        Response r = Response.parse(FULL);
        assertEquals(r, Response.parse(r.toJson()));
        assertEquals(r, Response.parse(r.toPrettyJson()));
    }
}
