package dev.stretto.proxy.flow.model;

import java.util.Map;
import java.util.Objects;

/**
 * Which sites passed the promotion bar in shadow runs ({@code stretto promote}). A promoted
 * flow acts only after calls whose site is promoted, and hands back everywhere else.
 *
 * @param bar   the bar the sites were held to
 * @param sites the record of each site the flow decided at, sorted by name
 */
public record Promoted(Bar bar, Map<String, SiteScore> sites) {

    /** Copies the sites sorted by name. */
    public Promoted {
        Objects.requireNonNull(bar, "bar");
        sites = Sorted.byName(sites, "sites");
    }

    /** Whether the flow may act after a call at {@code site}: its record says promoted. */
    public boolean promotes(String site) {
        SiteScore s = sites.get(site);
        return s != null && s.promoted();
    }

    /**
     * The promotion bar.
     *
     * @param threshold the decision threshold the shadow runs were scored with
     * @param minUsed   the least share of lookups the agent used
     * @param minLower  the least Wilson lower bound of that share
     * @param minTasks  the fewest distinct tasks with a lookup
     */
    public record Bar(double threshold, double minUsed, double minLower, long minTasks) {
    }

    /**
     * One site's shadow record.
     *
     * @param decisions decisions at the site
     * @param lookups   lookups proposed
     * @param used      lookups the agent then made itself
     * @param tasks     distinct tasks that produced a lookup
     * @param lower     the Wilson lower bound of used / lookups
     * @param promoted  whether the site passed the bar
     */
    public record SiteScore(long decisions, long lookups, long used, long tasks, double lower, boolean promoted) {
    }
}
