package dev.stretto.proxy.oracle;

import dev.stretto.trace.json.CanonicalJson;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * The service's answer to a {@link Request}. Questions it did not answer are simply missing
 * from {@link #answers()}.
 *
 * @param model   the model that answered ({@code mock} for the mock oracle)
 * @param answers the answers by question id, kept sorted by id
 * @param usage   what it cost
 */
public record Response(String model, SortedMap<String, Answer> answers, TokenUsage usage) {

    /** @throws NullPointerException if anything is null */
    public Response {
        Objects.requireNonNull(model, "model");
        Objects.requireNonNull(usage, "usage");
        TreeMap<String, Answer> sorted = new TreeMap<>(CanonicalJson::compareCodePoints);
        answers.forEach((id, a) -> sorted.put(Objects.requireNonNull(id, "id"), Objects.requireNonNull(a, "answer")));
        answers = Collections.unmodifiableSortedMap(sorted);
    }

    /** A response with answers given in any map; they are sorted by id. */
    public static Response of(String model, Map<String, Answer> answers, TokenUsage usage) {
        return new Response(model, new TreeMap<>(answers), usage);
    }

    /**
     * Reads a response from the service's JSON. {@code usage} may be missing (zeros), and so may
     * either of its counts; fields the service adds that this class does not know are ignored.
     * Everything else is checked: {@code model} a string, {@code answers} an object whose
     * values each have a known {@code type} and that type's fields with the right JSON types.
     *
     * @throws IllegalArgumentException if {@code json} is not such a response, saying what is wrong
     */
    public static Response parse(String json) {
        return SystemOneJson.readResponse(json);
    }

    /**
     * The compact JSON: {@code model, answers, usage} in that order, answers sorted by id,
     * each answer's {@code type} first and then its fields in the order the records declare
     * them, maps sorted by key; one line.
     */
    public String toJson() {
        return SystemOneJson.writeResponse(this, false);
    }

    /**
     * The same JSON pretty-printed as serde_json does (two spaces of indentation, {@code "key": value},
     * no newline at the end): the form of an answer file in the cache.
     */
    public String toPrettyJson() {
        return SystemOneJson.writeResponse(this, true);
    }
}
