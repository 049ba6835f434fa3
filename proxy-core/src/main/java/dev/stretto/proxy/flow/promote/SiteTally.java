package dev.stretto.proxy.flow.promote;

import dev.stretto.proxy.flow.Promoted;
import java.util.HashSet;
import java.util.Set;

/**
 * One site's counts while scoring: the flow's decisions there, the lookups it proposed, those
 * the agent then made itself, and the tasks that produced a lookup. Not thread-safe.
 */
final class SiteTally {

    private long decisions;
    private long lookups;
    private long used;
    private final Set<String> tasks = new HashSet<>();

    void decided() {
        decisions++;
    }

    void lookedUp(String task) {
        lookups++;
        tasks.add(task);
    }

    void used() {
        used++;
    }

    /** The site's record against the bar (stretto-learn 6.2). */
    Promoted.SiteScore score(Promoted.Bar bar) {
        double lower = Promoted.lowerBound(used, lookups);
        boolean promoted = lookups > 0 && (double) used / lookups >= bar.minUsed() && lower >= bar.minLower()
                && tasks.size() >= bar.minTasks();
        return new Promoted.SiteScore(decisions, lookups, used, tasks.size(), lower, promoted);
    }
}
