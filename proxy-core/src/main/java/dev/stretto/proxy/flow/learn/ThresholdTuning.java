package dev.stretto.proxy.flow.learn;

import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.manifest.ToolKind;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * Each site's threshold learned from what a wasted lookup costs against a turn saved ({@code
 * stretto learn --lookup-cost C}). The sessions are split into folds (task {@code i} in fold
 * {@code i mod k}, {@code k} at most {@link #FOLDS}); for each fold a habit-only flow is
 * learned from the others and served again on the fold's sessions ({@link HeldOutReplay}). A
 * site's threshold is then the one of {@link #CANDIDATES} (or switched off) under which those
 * replays save the most: every lookup the agent made later counts one turn saved, every other
 * lookup {@code C} lost. The sites are tuned one at a time, each with the others' thresholds
 * as they stand, over and over until none changes (at most {@link #PASSES} passes); a tie
 * keeps the threshold the site has, else takes the highest. The flow learned from every session
 * gets the thresholds of every site it offers lookups at (format 2, which the reference reads).
 * They are tuned for the reach decider, the one a habit-only flow is served with.
 *
 * <p>With {@code perLookup}, each lookup at each site then gets thresholds of its own, one for
 * each {@link LookupThresholds.Case} the replays made it in (whether the customer mentioned
 * the picked values, else whether the result just before showed a new value the customer
 * mentioned), tuned the same way, one at a time, starting from the site's: the flow gets them
 * as {@code lookup_thresholds} (format 3). A lookup case whose best threshold is the site's
 * gets none.
 */
public final class ThresholdTuning {

    /** The most folds the sessions are split into. */
    public static final int FOLDS = 5;
    /** The thresholds a site may get, besides switched off. */
    public static final List<Double> CANDIDATES = List.of(0.05, 0.1, 0.15, 0.2, 0.25, 0.3, 0.35, 0.4, 0.5, 0.6, 0.7,
            0.8, 0.9);
    /** What a switched-off site gets: any threshold above 1. */
    public static final double OFF = 2.0;
    /** The most passes over the sites. */
    static final int PASSES = 4;

    private final HabitLearner learner;
    private final double cost;
    private final boolean perLookup;

    /**
     * What tuning found.
     *
     * @param flow       the flow with its thresholds
     * @param folds      the folds replayed
     * @param usedBefore the lookups the agent used in the replays at the served default threshold
     * @param wastedBefore the lookups it did not
     * @param used       the same with the tuned thresholds
     * @param wasted     the same with the tuned thresholds
     */
    public record Result(Flow flow, int folds, long usedBefore, long wastedBefore, long used, long wasted) {
    }

    /** The lowest threshold tried for a lookup, to find the cases it is made in. */
    private static final double LOWEST = CANDIDATES.getFirst();

    /**
     * @param learner learns the flow of each fold's other sessions (its progress is best kept quiet)
     * @param cost    what a wasted lookup costs, in turns saved; more than 0
     */
    public ThresholdTuning(HabitLearner learner, double cost) {
        this(learner, cost, false);
    }

    /**
     * @param learner   learns the flow of each fold's other sessions (its progress is best kept quiet)
     * @param cost      what a wasted lookup costs, in turns saved; more than 0
     * @param perLookup whether each lookup at each site also gets thresholds of its own by case
     */
    public ThresholdTuning(HabitLearner learner, double cost, boolean perLookup) {
        if (!(cost > 0) || Double.isInfinite(cost)) {
            throw new IllegalArgumentException("the cost of a wasted lookup must be a number above 0");
        }
        this.learner = learner;
        this.cost = cost;
        this.perLookup = perLookup;
    }

    /**
     * Tunes {@code flow}, learned from every session of {@code sessions}.
     *
     * @throws FlowException when a fold's other sessions cannot make a flow
     */
    public Result tune(Flow flow, Sessions sessions) throws FlowException {
        List<String> tasks = sessions.tasks();
        int k = Math.min(FOLDS, tasks.size());
        Set<String> writes = new HashSet<>();
        sessions.manifest().tools().forEach((tool, kind) -> {
            if (kind == ToolKind.WRITE) {
                writes.add(tool);
            }
        });
        List<HeldOutReplay> replays = new ArrayList<>();
        for (int f = 0; f < k; f++) {
            Set<String> training = new HashSet<>();
            Set<String> heldOut = new HashSet<>();
            for (int i = 0; i < tasks.size(); i++) {
                (k > 1 && i % k == f ? heldOut : training).add(tasks.get(i));
            }
            if (k == 1) {
                heldOut.addAll(training);
            }
            Flow fold = k == 1 ? flow : learner.learn(sessions, training);
            List<Episode> served = sessions.episodes().stream().filter(e -> heldOut.contains(e.taskId())).toList();
            replays.add(new HeldOutReplay(fold, served, writes));
        }
        List<String> sites = new ArrayList<>();
        for (Sites.Site s : flow.sites().next().keySet()) {
            if (!flow.sites().offered(s).isEmpty()) {
                sites.add(s.name());
            }
        }
        sites.sort(null);
        Map<String, Double> thresholds = new TreeMap<>();
        sites.forEach(s -> thresholds.put(s, FlowOptions.DEFAULTS.threshold()));
        long[] before = totals(replays, thresholds);
        for (int pass = 0; pass < PASSES; pass++) {
            boolean changed = false;
            for (String site : sites) {
                double kept = thresholds.get(site);
                double best = kept;
                double bestValue = value(totals(replays, thresholds));
                for (double t : candidatesAndOff()) {
                    thresholds.put(site, t);
                    double v = value(totals(replays, thresholds));
                    if (v > bestValue || v == bestValue && best != kept && t > best) {
                        best = t;
                        bestValue = v;
                    }
                }
                thresholds.put(site, best);
                changed |= best != kept;
            }
            if (!changed) {
                break;
            }
        }
        LookupThresholds own = perLookup ? perLookup(replays, thresholds, flow) : LookupThresholds.NONE;
        long[] after = totals(replays, thresholds, own);
        return new Result(flow.withThresholds(thresholds).withLookupThresholds(own), k, before[0], before[1],
                after[0], after[1]);
    }

    /** Each lookup's own thresholds by case, with the sites' as tuned. */
    private LookupThresholds perLookup(List<HeldOutReplay> replays, Map<String, Double> sites, Flow flow) {
        // The cases each lookup is made in when every lookup may be made: those are the ones to tune.
        // A mention said with a verb takes the threshold of the mention without one.
        Map<String, Map<String, Map<LookupThresholds.When, Double>>> lowest = new TreeMap<>();
        for (Sites.Site s : flow.sites().next().keySet()) {
            for (String tool : flow.sites().offered(s)) {
                Map<LookupThresholds.When, Double> all = new TreeMap<>();
                for (LookupThresholds.Case c : LookupThresholds.Case.values()) {
                    all.put(LookupThresholds.When.of(c), LOWEST);
                }
                lowest.computeIfAbsent(s.name(), x -> new TreeMap<>()).put(tool, all);
            }
        }
        Set<HeldOutReplay.Where> keys = new TreeSet<>(Comparator
                .comparing(HeldOutReplay.Where::site).thenComparing(HeldOutReplay.Where::tool)
                .thenComparing(HeldOutReplay.Where::when));
        for (HeldOutReplay r : replays) {
            keys.addAll(r.run(sites, FlowOptions.DEFAULTS.threshold(), new LookupThresholds(lowest)).keySet());
        }
        Map<HeldOutReplay.Where, Double> own = new LinkedHashMap<>();
        for (int pass = 0; pass < PASSES; pass++) {
            boolean changed = false;
            for (HeldOutReplay.Where key : keys) {
                Double kept = own.get(key);
                Double best = kept;
                double bestValue = value(totals(replays, sites, of(own)));
                for (double t : candidatesAndOff()) {
                    own.put(key, t);
                    double v = value(totals(replays, sites, of(own)));
                    if (v > bestValue) {
                        best = t;
                        bestValue = v;
                    }
                }
                if (best == null) {
                    own.remove(key);
                } else {
                    own.put(key, best);
                }
                changed |= !Objects.equals(best, kept);
            }
            if (!changed) {
                break;
            }
        }
        return of(own);
    }

    private static LookupThresholds of(Map<HeldOutReplay.Where, Double> own) {
        Map<String, Map<String, Map<LookupThresholds.When, Double>>> values = new TreeMap<>();
        own.forEach((w, t) -> values.computeIfAbsent(w.site(), x -> new TreeMap<>())
                .computeIfAbsent(w.tool(), x -> new TreeMap<>()).put(w.when(), t));
        return new LookupThresholds(values);
    }

    private static List<Double> candidatesAndOff() {
        List<Double> all = new ArrayList<>(CANDIDATES);
        all.add(OFF);
        return all;
    }

    private double value(long[] usedAndWasted) {
        return usedAndWasted[0] - cost * usedAndWasted[1];
    }

    /** The lookups used and wasted in every fold's replay with {@code thresholds}. */
    private static long[] totals(List<HeldOutReplay> replays, Map<String, Double> thresholds) {
        return totals(replays, thresholds, LookupThresholds.NONE);
    }

    /** The lookups used and wasted in every fold's replay with {@code thresholds} and {@code own}. */
    private static long[] totals(List<HeldOutReplay> replays, Map<String, Double> thresholds, LookupThresholds own) {
        long[] out = new long[2];
        for (HeldOutReplay r : replays) {
            for (HeldOutReplay.Tally t : r.run(thresholds, FlowOptions.DEFAULTS.threshold(), own).values()) {
                out[0] += t.used;
                out[1] += t.wasted;
            }
        }
        return out;
    }
}
