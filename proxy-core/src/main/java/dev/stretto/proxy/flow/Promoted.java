package dev.stretto.proxy.flow;

import dev.stretto.trace.json.CanonicalJson;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A flow's promotion record: which sites passed the promotion bar in shadow runs ({@link
 * Promotion}, {@code stretto promote}). A promoted flow acts only after calls whose site is
 * promoted, and hands back everywhere else. A site is named as the flow names it: the tool just
 * called, {@code tool (error)} when that call failed.
 *
 * @param bar   the bar the sites were held to
 * @param sites the record of each site the flow decided at, sorted by name
 */
public record Promoted(Bar bar, Map<String, SiteScore> sites) {

    /**
     * Copies the sites sorted by name, in the byte order of their UTF-8 encodings.
     *
     * @throws NullPointerException when the bar, a site or its score is null
     */
    public Promoted {
        Objects.requireNonNull(bar, "bar");
        TreeMap<String, SiteScore> sorted = new TreeMap<>(CanonicalJson::compareCodePoints);
        sites.forEach((site, score) -> sorted.put(Objects.requireNonNull(site, "site"),
                Objects.requireNonNull(score, "score")));
        sites = Collections.unmodifiableSortedMap(sorted);
    }

    /** The normal quantile of 95%, for a 90% two-sided interval. */
    private static final double Z = 1.6448536;

    /**
     * The Wilson score interval's lower bound of a share {@code used / lookups} at 90%
     * two-sided ({@code z = 1.6448536}), as promotion holds sites to it: {@code (p + z²/2n - z
     * sqrt(p(1-p)/n + z²/4n²)) / (1 + z²/n)}, at least 0, and 0 when there are no lookups. Three
     * used of three gives 0.5258044340133321.
     *
     * @param used    the lookups the agent used
     * @param lookups the lookups proposed
     * @return the lower bound
     */
    public static double lowerBound(long used, long lookups) {
        if (lookups == 0) {
            return 0.0;
        }
        double p = (double) used / lookups;
        double z2 = Z * Z;
        double centre = p + z2 / (2 * lookups);
        double margin = Z * Math.sqrt(p * (1 - p) / lookups + z2 / (4.0 * lookups * lookups));
        return Math.max(0.0, (centre - margin) / (1 + z2 / lookups));
    }

    /**
     * Whether the flow may act after a call at {@code site}.
     *
     * @param site the site's name
     * @return true when its record says promoted
     */
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
     * @param lower     the Wilson lower bound of used / lookups ({@link Promoted#lowerBound})
     * @param promoted  whether the site passed the bar
     */
    public record SiteScore(long decisions, long lookups, long used, long tasks, double lower, boolean promoted) {
    }
}
