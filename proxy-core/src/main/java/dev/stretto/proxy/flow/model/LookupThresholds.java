package dev.stretto.proxy.flow.model;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Thresholds of single lookups at single sites, told apart by what the customer said (format
 * 3, {@code lookup_thresholds}): after a call at {@code site}, the lookup of {@code tool} is
 * made only if its probability, and its probability times its binding's chance, reach the
 * threshold of the {@link Case} the decision is in. A threshold above 1 never lets it be made.
 * A lookup, site or case without one takes the site's threshold.
 *
 * @param values per site, per lookup, per case: the threshold; sorted by site, lookup and case
 */
public record LookupThresholds(Map<String, Map<String, Map<Case, Double>>> values) {

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

    /** Copies the maps, sorted by site and lookup name, the cases in their order. */
    public LookupThresholds {
        Map<String, Map<String, Map<Case, Double>>> sites = new LinkedHashMap<>();
        for (Map.Entry<String, Map<String, Map<Case, Double>>> s : Objects.requireNonNull(values, "values")
                .entrySet()) {
            Map<String, Map<Case, Double>> tools = new LinkedHashMap<>();
            for (Map.Entry<String, Map<Case, Double>> t : s.getValue().entrySet()) {
                Map<Case, Double> cases = new LinkedHashMap<>();
                for (Case c : Case.values()) {
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

    /** The threshold of {@code tool} after a call at {@code site} in case {@code when}, or null for the site's. */
    public Double get(String site, String tool, Case when) {
        return values.getOrDefault(site, Map.of()).getOrDefault(tool, Map.of()).get(when);
    }

    /** The number of thresholds held. */
    public int size() {
        return values.values().stream().flatMap(t -> t.values().stream()).mapToInt(Map::size).sum();
    }
}
