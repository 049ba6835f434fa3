package dev.stretto.proxy.flow.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.TreeSet;

/**
 * Thresholds of single lookups at single sites, told apart by what the customer said (format
 * 3, {@code lookup_thresholds}): after a call at {@code site}, the lookup of {@code tool} is
 * made only if its probability, and its probability times its binding's chance, reach the
 * threshold of the {@link When case} the decision is in. A threshold above 1 never lets it be
 * made. A mention said with a write's verb ({@code mentioned:exchange}, {@code
 * after_mention:return}) without one of its own takes the threshold of the case without the
 * verb; a lookup, site or case without one takes the site's.
 *
 * @param values per site, per lookup, per case: the threshold; sorted by site, lookup and case
 */
public record LookupThresholds(Map<String, Map<String, Map<When, Double>>> values) {

    /** No lookup thresholds: every lookup takes its site's threshold. */
    public static final LookupThresholds NONE = new LookupThresholds(Map.of());

    /**
     * What a decision knows of the customer's words when it weighs a lookup, in the order
     * they are asked.
     */
    public enum Case {
        /** The customer mentioned every value the lookup's binding picked. */
        MENTIONED("mentioned"),
        /**
         * Not so, but the result of the call just made shows a value the customer mentioned that
         * no earlier call or result held: what the customer described has just been found.
         */
        AFTER_MENTION("after_mention"),
        /** Neither. */
        UNMENTIONED("unmentioned");

        private final String wireName;

        Case(String wireName) {
            this.wireName = wireName;
        }

        /** The case's name in the file. */
        public String wireName() {
            return wireName;
        }

        /** The case of a file name, or null when there is none of that name. */
        public static Case ofWireName(String name) {
            for (Case c : values()) {
                if (c.wireName.equals(name)) {
                    return c;
                }
            }
            return null;
        }
    }

    /**
     * The case a decision is in: its kind and, for a mention (the lookup's values, or what the
     * result just before newly showed), the verb of a write the customer said it with (the last
     * such verb before the mention in the same sentence of the customer's words); null when there
     * was none, and always for {@code unmentioned}.
     *
     * @param kind what the customer said about the lookup's values
     * @param verb the first word of a write tool's name, lower-case letters only; or null
     */
    public record When(Case kind, String verb) implements Comparable<When> {

        /** The longest verb a case may carry. */
        public static final int MAX_VERB = 40;

        /** Checks that only a mention carries a verb, and that a verb is a plain word. */
        public When {
            Objects.requireNonNull(kind, "kind");
            if (verb != null) {
                if (kind == Case.UNMENTIONED) {
                    throw new IllegalArgumentException("only a mention is said with a verb, not " + kind.wireName());
                }
                if (!isVerb(verb)) {
                    throw new IllegalArgumentException("a case's verb is 1 to " + MAX_VERB
                            + " lower-case letters a to z, not \"" + verb + "\"");
                }
            }
        }

        /** The case of {@code kind} said with no verb. */
        public static When of(Case kind) {
            return new When(kind, null);
        }

        /** Whether {@code word} may be a case's verb: 1 to {@link #MAX_VERB} letters a to z. */
        public static boolean isVerb(String word) {
            return !word.isEmpty() && word.length() <= MAX_VERB && word.chars().allMatch(c -> c >= 'a' && c <= 'z');
        }

        /** The case's name in the file: {@code mentioned}, {@code mentioned:exchange}, ... */
        public String wireName() {
            return verb == null ? kind.wireName() : kind.wireName() + ":" + verb;
        }

        /** The case of a file name, or null when there is none of that name. */
        public static When ofWireName(String name) {
            int colon = name.indexOf(':');
            Case kind = Case.ofWireName(colon < 0 ? name : name.substring(0, colon));
            if (kind == null) {
                return null;
            }
            if (colon < 0) {
                return of(kind);
            }
            String verb = name.substring(colon + 1);
            return kind != Case.UNMENTIONED && isVerb(verb) ? new When(kind, verb) : null;
        }

        /** The case without its verb: where a verb's case without a threshold of its own looks. */
        public When withoutVerb() {
            return verb == null ? this : of(kind);
        }

        /** In the kinds' order, a kind without a verb first, then by verb. */
        @Override
        public int compareTo(When o) {
            int byKind = kind.compareTo(o.kind);
            if (byKind != 0) {
                return byKind;
            }
            if (verb == null || o.verb == null) {
                return verb == null ? (o.verb == null ? 0 : -1) : 1;
            }
            return verb.compareTo(o.verb);
        }
    }

    /** Copies the maps, sorted by site and lookup name, the cases in their order. */
    public LookupThresholds {
        Map<String, Map<String, Map<When, Double>>> sites = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Map<When, Double>>> s : Objects.requireNonNull(values, "values")
                .entrySet()) {
            Map<String, Map<When, Double>> tools = new LinkedHashMap<>();
            for (Map.Entry<String, Map<When, Double>> t : s.getValue().entrySet()) {
                Map<When, Double> cases = new LinkedHashMap<>();
                for (When c : new TreeSet<>(t.getValue().keySet())) {
                    Double v = t.getValue().get(c);
                    if (v != null) {
                        if (!(v >= 0) || v.isInfinite()) {
                            throw new IllegalArgumentException("lookup_thresholds." + s.getKey() + "." + t.getKey()
                                    + "." + c.wireName() + " is " + v + ", not a threshold (0 or more)");
                        }
                        cases.put(c, v);
                    }
                }
                if (!cases.isEmpty()) {
                    tools.put(t.getKey(), Collections.unmodifiableMap(cases));
                }
            }
            if (!tools.isEmpty()) {
                sites.put(s.getKey(), Sorted.byName(tools, "lookup_thresholds." + s.getKey()));
            }
        }
        values = Sorted.byName(sites, "lookup_thresholds");
    }

    /** Whether there are none. */
    public boolean isEmpty() {
        return values.isEmpty();
    }

    /**
     * The threshold of {@code tool} after a call at {@code site} in case {@code when} (a verb's
     * case without one of its own: that of the case without the verb), or null for the site's.
     */
    public Double get(String site, String tool, When when) {
        Map<When, Double> cases = values.getOrDefault(site, Map.of()).getOrDefault(tool, Map.of());
        Double own = cases.get(when);
        return own != null ? own : cases.get(when.withoutVerb());
    }

    /** The threshold of {@code tool} after a call at {@code site} in case {@code kind} said with no verb. */
    public Double get(String site, String tool, Case kind) {
        return get(site, tool, When.of(kind));
    }

    /** The number of thresholds held. */
    public int size() {
        return values.values().stream().flatMap(t -> t.values().stream()).mapToInt(Map::size).sum();
    }
}
