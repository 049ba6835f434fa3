package dev.stretto.proxy.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.JsonText;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The JSON of requests and responses: typed parts are built as trees in the order their
 * records declare their fields (maps already sorted) and written keeping that order; a
 * request's state, a generic value, is written with every key sorted.
 */
final class SystemOneJson {

    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private SystemOneJson() {
    }

    static String write(Request request) {
        StringBuilder out = new StringBuilder(256);
        out.append("{\"model\":");
        JsonText.appendQuoted(out, request.model());
        out.append(",\"state\":");
        CanonicalJson.append(out, request.state());
        out.append(",\"questions\":");
        ObjectNode questions = NODES.objectNode();
        request.questions().forEach((id, question) -> questions.set(id, questionNode(question)));
        CanonicalJson.appendKeepingKeyOrder(out, questions);
        return out.append('}').toString();
    }

    private static ObjectNode questionNode(Question question) {
        ObjectNode node = NODES.objectNode();
        node.put("type", switch (question) {
            case Question.Noul n -> "noul";
            case Question.Choice c -> "choice";
            case Question.Score s -> "score";
        });
        node.put("instructions", question.instructions());
        switch (question) {
            case Question.Noul n -> {
                if (n.criteria() != null) {
                    ObjectNode criteria = node.putObject("criteria");
                    criteria.put("true", n.criteria().whenTrue());
                    criteria.put("false", n.criteria().whenFalse());
                }
            }
            case Question.Choice c -> {
                ObjectNode criteria = node.putObject("criteria");
                c.criteria().forEach(criteria::put);
            }
            case Question.Score s -> {
                ArrayNode criteria = node.putArray("criteria");
                s.criteria().forEach(criteria::add);
            }
        }
        return node;
    }

    static String writeResponse(Response response, boolean pretty) {
        ObjectNode root = NODES.objectNode();
        root.put("model", response.model());
        ObjectNode answers = root.putObject("answers");
        response.answers().forEach((id, answer) -> answers.set(id, answerNode(answer)));
        ObjectNode usage = root.putObject("usage");
        usage.put("input_tokens", response.usage().inputTokens());
        usage.put("output_tokens", response.usage().outputTokens());
        if (pretty) {
            return CanonicalJson.writePrettyKeepingKeyOrder(root);
        }
        StringBuilder out = new StringBuilder(128);
        CanonicalJson.appendKeepingKeyOrder(out, root);
        return out.toString();
    }

    private static ObjectNode answerNode(Answer answer) {
        ObjectNode node = NODES.objectNode();
        switch (answer) {
            case Answer.Noul n -> {
                node.put("type", "noul");
                node.put("noul", n.noul());
            }
            case Answer.Choice c -> {
                node.put("type", "choice");
                node.put("choice", c.choice());
                ObjectNode probabilities = node.putObject("probabilities");
                c.probabilities().forEach(probabilities::put);
                node.put("confidence", c.confidence());
            }
            case Answer.Score s -> {
                node.put("type", "score");
                node.put("score", s.score());
                ObjectNode probabilities = node.putObject("probabilities");
                s.probabilities().forEach(probabilities::put);
                node.put("confidence", s.confidence());
                ObjectNode legend = node.putObject("legend");
                s.legend().forEach(legend::set);
            }
        }
        return node;
    }

    static Response readResponse(String json) {
        JsonNode root;
        try {
            root = CanonicalJson.parse(json);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("not JSON: " + e.getMessage(), e);
        }
        if (!root.isObject()) {
            throw new IllegalArgumentException("not a JSON object");
        }
        String model = text(root, "model", "the response");
        JsonNode answersNode = root.get("answers");
        if (answersNode == null || !answersNode.isObject()) {
            throw new IllegalArgumentException("the response has no \"answers\" object");
        }
        Map<String, Answer> answers = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : answersNode.properties()) {
            answers.put(e.getKey(), readAnswer(e.getKey(), e.getValue()));
        }
        return Response.of(model, answers, readUsage(root.get("usage")));
    }

    private static Answer readAnswer(String id, JsonNode node) {
        String where = "the answer to " + JsonText.quote(id);
        if (!node.isObject()) {
            throw new IllegalArgumentException(where + " is not an object");
        }
        String type = text(node, "type", where);
        return switch (type) {
            case "noul" -> new Answer.Noul(number(node, "noul", where));
            case "choice" -> new Answer.Choice(text(node, "choice", where), probabilities(node, where),
                    number(node, "confidence", where));
            case "score" -> new Answer.Score(number(node, "score", where), probabilities(node, where),
                    number(node, "confidence", where), legend(node, where));
            default -> throw new IllegalArgumentException(where + " has an unknown type " + JsonText.quote(type));
        };
    }

    private static TokenUsage readUsage(JsonNode node) {
        if (node == null || node.isNull()) {
            return TokenUsage.NONE;
        }
        if (!node.isObject()) {
            throw new IllegalArgumentException("\"usage\" is not an object");
        }
        return new TokenUsage(count(node, "input_tokens"), count(node, "output_tokens"));
    }

    private static long count(JsonNode usage, String field) {
        JsonNode n = usage.get(field);
        if (n == null || n.isNull()) {
            return 0;
        }
        if (!n.isIntegralNumber() || !n.canConvertToLong() || n.longValue() < 0) {
            throw new IllegalArgumentException("\"usage\"." + field + " is not a whole number of tokens");
        }
        return n.longValue();
    }

    private static String text(JsonNode node, String field, String where) {
        JsonNode n = node.get(field);
        if (n == null || !n.isTextual()) {
            throw new IllegalArgumentException(where + " has no string \"" + field + "\"");
        }
        return n.textValue();
    }

    private static double number(JsonNode node, String field, String where) {
        JsonNode n = node.get(field);
        if (n == null || !n.isNumber()) {
            throw new IllegalArgumentException(where + " has no number \"" + field + "\"");
        }
        return n.doubleValue();
    }

    private static Map<String, Double> probabilities(JsonNode node, String where) {
        JsonNode n = node.get("probabilities");
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException(where + " has no \"probabilities\" object");
        }
        Map<String, Double> out = new LinkedHashMap<>();
        for (Map.Entry<String, JsonNode> e : n.properties()) {
            if (!e.getValue().isNumber()) {
                throw new IllegalArgumentException(where + ": the probability of " + JsonText.quote(e.getKey())
                        + " is not a number");
            }
            out.put(e.getKey(), e.getValue().doubleValue());
        }
        return out;
    }

    private static Map<String, JsonNode> legend(JsonNode node, String where) {
        JsonNode n = node.get("legend");
        if (n == null || !n.isObject()) {
            throw new IllegalArgumentException(where + " has no \"legend\" object");
        }
        Map<String, JsonNode> out = new LinkedHashMap<>();
        n.properties().forEach(e -> out.put(e.getKey(), e.getValue()));
        return out;
    }
}
