package dev.stretto.proxy.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.TextNode;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code --oracle mock}: the same answers every time, with no network and no cache, for
 * trying things out and for tests. Model {@code mock}, usage zero. A yes/no question gets 0.5.
 * A choice picks its first option (in key order) with probability 0.6 and shares 0.4 equally
 * among the others (an only option gets 0.6 too); its confidence is 0.6. A score question,
 * which the reference's mock does not describe, is answered in the same spirit: level 0 with
 * 0.6, the rest equally, the score their expected level, confidence 0.6.
 */
public record MockOracle() implements Oracle {

    /** The model a mock answer names. */
    public static final String MODEL = "mock";

    private static final double FIRST = 0.6;

    @Override
    public Response ask(Request request) {
        Map<String, Answer> answers = new LinkedHashMap<>();
        request.questions().forEach((id, question) -> answers.put(id, answer(question)));
        return Response.of(MODEL, answers, TokenUsage.NONE);
    }

    private static Answer answer(Question question) {
        return switch (question) {
            case Question.Noul n -> new Answer.Noul(0.5);
            case Question.Choice c -> {
                List<String> options = List.copyOf(c.criteria().keySet());
                yield new Answer.Choice(options.getFirst(), firstLikeliest(options), FIRST);
            }
            case Question.Score s -> {
                List<String> levels = new java.util.ArrayList<>();
                Map<String, JsonNode> legend = new LinkedHashMap<>();
                for (int i = 0; i < s.criteria().size(); i++) {
                    levels.add(Integer.toString(i));
                    legend.put(Integer.toString(i), TextNode.valueOf(s.criteria().get(i)));
                }
                Map<String, Double> probabilities = firstLikeliest(levels);
                double expected = 0;
                for (int i = 0; i < levels.size(); i++) {
                    expected += i * probabilities.get(levels.get(i));
                }
                yield new Answer.Score(expected, probabilities, FIRST, legend);
            }
        };
    }

    private static Map<String, Double> firstLikeliest(List<String> keys) {
        Map<String, Double> p = new LinkedHashMap<>();
        double rest = keys.size() > 1 ? (1 - FIRST) / (keys.size() - 1) : 0;
        for (int i = 0; i < keys.size(); i++) {
            p.put(keys.get(i), i == 0 ? FIRST : rest);
        }
        return p;
    }
}
