package dev.stretto.proxy.oracle;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The answer to one {@link Question}, of the same kind. Maps are kept sorted by key, the
 * order in which they are written.
 */
public sealed interface Answer {

    /**
     * The answer to a {@link Question.Noul}.
     *
     * @param noul the probability of yes
     */
    record Noul(double noul) implements Answer {
    }

    /**
     * The answer to a {@link Question.Choice}.
     *
     * @param choice        the likeliest option
     * @param probabilities each option's probability
     * @param confidence    how sure the model is, from 0 to 1
     */
    record Choice(String choice, Map<String, Double> probabilities, double confidence) implements Answer {
        /** @throws NullPointerException if anything is null */
        public Choice {
            Objects.requireNonNull(choice, "choice");
            probabilities = sorted(probabilities);
        }
    }

    /**
     * The answer to a {@link Question.Score}.
     *
     * @param score         the probability-weighted level, from 0 to the top level
     * @param probabilities each level's probability, keyed by the level's number as text
     * @param confidence    how sure the model is, from 0 to 1
     * @param legend        each level's description, keyed by the level's number as text
     */
    record Score(double score, Map<String, Double> probabilities, double confidence, Map<String, JsonNode> legend)
            implements Answer {
        /** @throws NullPointerException if anything is null */
        public Score {
            probabilities = sorted(probabilities);
            TreeMap<String, JsonNode> copy = new TreeMap<>(CanonicalJson::compareCodePoints);
            legend.forEach((level, text) -> copy.put(Objects.requireNonNull(level, "level"), text.deepCopy()));
            legend = Collections.unmodifiableSortedMap(copy);
        }

        /** The legend; copies, since JSON trees are mutable. */
        @Override
        public Map<String, JsonNode> legend() {
            TreeMap<String, JsonNode> copy = new TreeMap<>(CanonicalJson::compareCodePoints);
            legend.forEach((level, text) -> copy.put(level, text.deepCopy()));
            return Collections.unmodifiableSortedMap(copy);
        }
    }

    private static Map<String, Double> sorted(Map<String, Double> map) {
        TreeMap<String, Double> copy = new TreeMap<>(CanonicalJson::compareCodePoints);
        map.forEach((k, v) -> copy.put(Objects.requireNonNull(k, "key"), Objects.requireNonNull(v, "probability")));
        return Collections.unmodifiableSortedMap(copy);
    }
}
