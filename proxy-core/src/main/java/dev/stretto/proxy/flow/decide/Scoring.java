package dev.stretto.proxy.flow.decide;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import dev.stretto.proxy.oracle.Request;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/** A scorer's answer at a site. */
public sealed interface Scoring {

    /**
     * The options' probabilities.
     *
     * @param probs      every option's probability, {@code respond} included
     * @param oracle     the arbiter's next-step distribution, or null
     * @param predicates the arbiter's yes-probability of each predicate
     * @param key        the oracle request's cache key, or null
     */
    record Scored(Map<String, Double> probs, JsonNode oracle, Map<String, Double> predicates, String key)
            implements Scoring {
        /** Copies everything. */
        public Scored {
            probs = Collections.unmodifiableMap(new LinkedHashMap<>(probs));
            oracle = oracle == null ? JsonNodeFactory.instance.objectNode() : oracle.deepCopy();
            predicates = Collections.unmodifiableMap(new LinkedHashMap<>(predicates));
        }

        /** Probabilities without anything from the model (habit, reach). */
        public Scored(Map<String, Double> probs) {
            this(probs, null, Map.of(), null);
        }
    }

    /**
     * The model must be asked first.
     *
     * @param request the request
     * @param then    the scoring once the outcome is known
     */
    record Ask(Request request, Function<OracleOutcome, Scoring> then) implements Scoring {
        /** Requires both. */
        public Ask {
            Objects.requireNonNull(request, "request");
            Objects.requireNonNull(then, "then");
        }
    }

    /**
     * No probabilities: hand back (the model failed or answered incompletely).
     *
     * @param reason the reason, e.g. {@code the System-One answer was incomplete}
     * @param key    the oracle request's cache key, or null
     */
    record HandBack(String reason, String key) implements Scoring {
        /** Requires a reason. */
        public HandBack {
            Objects.requireNonNull(reason, "reason");
        }

        /** The model could not answer: {@code the System-One model failed: <error>}. */
        public static HandBack modelFailed(String error, String key) {
            return new HandBack("the System-One model failed: " + error, key);
        }

        /** The model's answer lacked a question it was asked: {@code the System-One answer was incomplete}. */
        public static HandBack incomplete(String key) {
            return new HandBack("the System-One answer was incomplete", key);
        }
    }
}
