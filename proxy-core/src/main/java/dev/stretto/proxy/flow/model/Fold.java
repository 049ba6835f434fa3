package dev.stretto.proxy.flow.model;

import java.util.List;
import java.util.Objects;

/**
 * One fitted model of the arbiter: the weights of its features, and how often the
 * System-One model agreed with the agent and covered its choice, per site and overall.
 *
 * @param weights the feature weights, in feature order
 * @param rates   the agreement and coverage rates
 */
public record Fold(List<Double> weights, Rates rates) {

    /** Copies the weights. */
    public Fold {
        weights = Sorted.list(weights, "weights");
        Objects.requireNonNull(rates, "rates");
    }

    /**
     * Agreement and coverage.
     *
     * @param sites per site, in the file's order
     * @param agree the share of decisions where the model picked the agent's option
     * @param cover the share of decisions where the agent's option was offered
     */
    public record Rates(List<SiteRates> sites, double agree, double cover) {
        /** Copies the sites. */
        public Rates {
            sites = Sorted.list(sites, "sites");
        }

        /** The counts of {@code site}, or null when the fold never judged there. */
        public SiteRates site(String site) {
            for (SiteRates s : sites) {
                if (s.site().equals(site)) {
                    return s;
                }
            }
            return null;
        }
    }

    /**
     * One site's counts (the file's {@code [site, [decisions, agreed, covered]]}).
     *
     * @param site      the site's name
     * @param decisions decisions judged there
     * @param agreed    how many the model agreed with
     * @param covered   how many the agent's option was offered in
     */
    public record SiteRates(String site, double decisions, double agreed, double covered) {
        /** Requires a site. */
        public SiteRates {
            Objects.requireNonNull(site, "site");
        }
    }
}
