package dev.stretto.proxy.flow.model;

import java.util.Objects;

/**
 * A yes/no question about the conversation asked with each next-step question of the
 * arbiter (as {@code pred_<id>}); a weighed predicate's answer adds evidence for the options
 * it favors.
 *
 * @param id       the predicate's id
 * @param favors   the options a yes favors
 * @param question the question
 * @param yes      what a yes means
 * @param no       what a no means
 */
public record Predicate(String id, Favors favors, String question, String yes, String no) {

    /** Requires every field. */
    public Predicate {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(favors, "favors");
        Objects.requireNonNull(question, "question");
        Objects.requireNonNull(yes, "yes");
        Objects.requireNonNull(no, "no");
    }

    /** Which options a yes favors. */
    public sealed interface Favors {
        /** The lookup just made, made again ({@code "same_lookup"}). */
        Favors SAME_LOOKUP = new Named("same_lookup");
        /** Any lookup ({@code "any_lookup"}). */
        Favors ANY_LOOKUP = new Named("any_lookup");
        /** Handing back ({@code "hand_back"}). */
        Favors HAND_BACK = new Named("hand_back");
    }

    /**
     * One of the named choices: {@code same_lookup}, {@code any_lookup} or {@code hand_back}.
     *
     * @param name the name as the file spells it
     */
    public record Named(String name) implements Favors {
        /** Accepts only the three names. */
        public Named {
            if (!name.equals("same_lookup") && !name.equals("any_lookup") && !name.equals("hand_back")) {
                throw new IllegalArgumentException("favors: unknown choice \"" + name
                        + "\" (same_lookup, any_lookup, hand_back or {\"lookup\": tool})");
            }
        }
    }

    /**
     * One lookup ({@code {"lookup": tool}}).
     *
     * @param tool the lookup's tool
     */
    public record Lookup(String tool) implements Favors {
        /** Requires a tool. */
        public Lookup {
            Objects.requireNonNull(tool, "tool");
        }
    }
}
