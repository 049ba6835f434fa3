package dev.stretto.cli;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.AnswerCache;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;

/**
 * System-One answers for tests, put in an oracle cache through the API ({@link AnswerCache}):
 * responses in the service's JSON ({@code {"model", "answers": {id: {"type": ...}}, "usage"}}).
 */
public final class CachedAnswers {

    private final ObjectNode answers = JsonNodeFactory.instance.objectNode();

    private CachedAnswers() {
    }

    /** A response without answers yet. */
    public static CachedAnswers response() {
        return new CachedAnswers();
    }

    /** Adds a yes/no answer: the probability of yes. */
    public CachedAnswers noul(String id, double p) {
        answers.putObject(id).put("type", "noul").put("noul", p);
        return this;
    }

    /** Adds a choice among options, with each option's probability. */
    public CachedAnswers choice(String id, String choice, Map<String, Double> probabilities, double confidence) {
        ObjectNode a = answers.putObject(id).put("type", "choice").put("choice", choice);
        ObjectNode p = a.putObject("probabilities");
        probabilities.forEach(p::put);
        a.put("confidence", confidence);
        return this;
    }

    /** The response of {@code model}, with the token counts given. */
    public String json(String model, long inputTokens, long outputTokens) {
        ObjectNode root = JsonNodeFactory.instance.objectNode().put("model", model);
        root.set("answers", answers.deepCopy());
        root.putObject("usage").put("input_tokens", inputTokens).put("output_tokens", outputTokens);
        return CanonicalJson.write(root);
    }

    /** The response of {@code model}, no tokens counted. */
    public String json(String model) {
        return json(model, 0, 0);
    }

    /** Puts {@code responseJson} under {@code key} in the cache at {@code dir}. */
    public static void put(Path dir, String key, String responseJson) throws IOException {
        AnswerCache.at(dir).add(List.of(new AnswerCache.Answer(key, responseJson)));
    }

    /** The file of {@code key}'s answer: the cache's layout, {@code <2 hex digits>/<key>.json}. */
    public static Path fileOf(Path dir, String key) {
        return dir.resolve(key.substring(0, 2)).resolve(key + ".json");
    }
}
