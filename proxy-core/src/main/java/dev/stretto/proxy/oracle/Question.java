package dev.stretto.proxy.oracle;

import dev.stretto.trace.json.CanonicalJson;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * One typed question of a System-One {@link Request}: a yes/no question ({@link Noul}), one
 * option out of several ({@link Choice}) or a place on an ordered scale ({@link Score}). On the
 * wire it is tagged by {@code type}, written first, then {@code instructions}, then
 * {@code criteria}.
 */
public sealed interface Question {

    /** The question itself, as the model reads it. */
    String instructions();

    /**
     * A yes/no question; its answer is the probability of yes.
     *
     * @param instructions the question
     * @param criteria     what yes and what no mean, or null to leave it to the model (the
     *                     {@code criteria} key is then left out)
     */
    record Noul(String instructions, NoulCriteria criteria) implements Question {
        /** @throws NullPointerException if {@code instructions} is null */
        public Noul {
            Objects.requireNonNull(instructions, "instructions");
        }
    }

    /**
     * What yes and what no mean, written {@code true} first, then {@code false}.
     *
     * @param whenTrue  when the answer is yes
     * @param whenFalse when the answer is no
     */
    record NoulCriteria(String whenTrue, String whenFalse) {
        /** @throws NullPointerException if either text is null */
        public NoulCriteria {
            Objects.requireNonNull(whenTrue, "whenTrue");
            Objects.requireNonNull(whenFalse, "whenFalse");
        }
    }

    /**
     * One option out of several; the answer is the likeliest option and each option's
     * probability.
     *
     * @param instructions the question
     * @param criteria     each option and what it means; kept sorted by option (the order they
     *                     are written in), at least one
     */
    record Choice(String instructions, Map<String, String> criteria) implements Question {
        /**
         * @throws NullPointerException     if anything is null
         * @throws IllegalArgumentException if there is no option
         */
        public Choice {
            Objects.requireNonNull(instructions, "instructions");
            if (criteria.isEmpty()) {
                throw new IllegalArgumentException("a choice question needs at least one option");
            }
            TreeMap<String, String> sorted = new TreeMap<>(CanonicalJson::compareCodePoints);
            criteria.forEach((option, meaning) -> sorted.put(Objects.requireNonNull(option, "option"),
                    Objects.requireNonNull(meaning, "meaning")));
            criteria = Collections.unmodifiableSortedMap(sorted);
        }
    }

    /**
     * A place on an ordered scale; the answer is the expected level and each level's
     * probability. Levels are numbered from 0 in the order given.
     *
     * @param instructions the question
     * @param criteria     the levels' descriptions, lowest first; at least two
     */
    record Score(String instructions, List<String> criteria) implements Question {
        /**
         * @throws NullPointerException     if anything is null
         * @throws IllegalArgumentException if there are fewer than two levels
         */
        public Score {
            Objects.requireNonNull(instructions, "instructions");
            criteria = List.copyOf(criteria);
            if (criteria.size() < 2) {
                throw new IllegalArgumentException("a score question needs at least two levels");
            }
        }
    }
}
