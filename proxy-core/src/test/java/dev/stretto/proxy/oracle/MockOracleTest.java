package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.trace.json.CanonicalJson;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MockOracleTest {

    @Test
    void everyQuestionGetsTheFixedAnswerFromModelMock() {
        Map<String, Question> questions = new LinkedHashMap<>();
        questions.put("go_on", new Question.Noul("Go on?", null));
        questions.put("next", new Question.Choice("Next?", Map.of("respond", "R", "get_order_details", "G", "find_user", "F")));
        questions.put("only", new Question.Choice("Only?", Map.of("one", "1")));
        questions.put("level", new Question.Score("How much?", List.of("none", "some", "a lot")));
        Response r = new MockOracle().ask(Request.of("jev-latest", CanonicalJson.parse("{}"), questions));
        assertEquals("{\"model\":\"mock\",\"answers\":{"
                + "\"go_on\":{\"type\":\"noul\",\"noul\":0.5},"
                + "\"level\":{\"type\":\"score\",\"score\":0.6000000000000001,\"probabilities\":{\"0\":0.6,\"1\":0.2,\"2\":0.2},"
                + "\"confidence\":0.6,\"legend\":{\"0\":\"none\",\"1\":\"some\",\"2\":\"a lot\"}},"
                + "\"next\":{\"type\":\"choice\",\"choice\":\"find_user\",\"probabilities\":"
                + "{\"find_user\":0.6,\"get_order_details\":0.2,\"respond\":0.2},\"confidence\":0.6},"
                + "\"only\":{\"type\":\"choice\",\"choice\":\"one\",\"probabilities\":{\"one\":0.6},\"confidence\":0.6}},"
                + "\"usage\":{\"input_tokens\":0,\"output_tokens\":0}}", r.toJson());
    }
}
