package dev.stretto.proxy.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.Collections;
import java.util.HexFormat;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.TreeMap;

/**
 * One request to the System-One model: the questions to answer about a JSON state.
 *
 * <p>Its JSON ({@link #toJson()}) is both the body sent to the service and, hashed, the key
 * of its answer in the cache ({@link #key()}), so it is written exactly as the reference
 * implementation writes it, byte for byte: compact; {@code model, state, questions} in that
 * order; questions sorted by id, each {@code type, instructions, criteria}; yes/no criteria
 * {@code true} then {@code false}; choice criteria sorted by option; every object inside
 * {@code state} with its keys sorted; numbers in Rust's spelling and strings quoted with
 * lowercase <code>&#92;u00xx</code> escapes (see {@link CanonicalJson}).
 *
 * @param model     the model id ({@code jev-latest} unless configured otherwise)
 * @param state     what the questions are about; a private copy
 * @param questions the questions by id, kept sorted by id; at least one
 */
public record Request(String model, JsonNode state, SortedMap<String, Question> questions) {

    /**
     * @throws NullPointerException     if anything is null
     * @throws IllegalArgumentException if there is no question
     */
    public Request {
        Objects.requireNonNull(model, "model");
        state = Objects.requireNonNull(state, "state").deepCopy();
        if (questions.isEmpty()) {
            throw new IllegalArgumentException("a request needs at least one question");
        }
        TreeMap<String, Question> sorted = new TreeMap<>(CanonicalJson::compareCodePoints);
        questions.forEach((id, q) -> sorted.put(Objects.requireNonNull(id, "id"), Objects.requireNonNull(q, "question")));
        questions = Collections.unmodifiableSortedMap(sorted);
    }

    /** A request with questions given in any map; they are sorted by id. */
    public static Request of(String model, JsonNode state, Map<String, Question> questions) {
        return new Request(model, state, new TreeMap<>(questions));
    }

    /** A request with a single question. */
    public static Request of(String model, JsonNode state, String id, Question question) {
        return of(model, state, Map.of(id, question));
    }

    /** The state; a copy, since JSON trees are mutable. */
    @Override
    public JsonNode state() {
        return state.deepCopy();
    }

    /** The request's JSON, as described on the class; one line, no newline. */
    public String toJson() {
        return SystemOneJson.write(this);
    }

    /** The cache key: the lowercase hex SHA-256 of the UTF-8 bytes of {@link #toJson()}. */
    public String key() {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(toJson().getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every JDK has SHA-256", e);
        }
    }
}
