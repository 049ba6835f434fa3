package dev.stretto.proxy.flow;

import dev.stretto.proxy.flow.evaluate.Estimator;
import dev.stretto.proxy.flow.evaluate.LabelledDecision;
import dev.stretto.proxy.flow.evaluate.LabelledLogs;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code stretto evaluate} as a library: off-policy estimates of other deciding rules from the
 * decisions a flow logged while exploring ({@code FlowSettings.Builder.explore}), each decision
 * line labelled with whether the agent used each offered lookup, whether it was a detour and
 * whether it saved a turn. The project's {@code docs/flows.md} describes the labels and the
 * estimators.
 *
 * @param decisions how many labelled decisions there are
 * @param loggedBy  how many of them each decider logged, by its name in byte order
 * @param targets   each target's estimates, in the order given
 */
public record Evaluation(int decisions, Map<String, Integer> loggedBy, List<Target> targets) {

    /**
     * Copies the maps and lists.
     *
     * @throws NullPointerException when one is null
     */
    public Evaluation {
        loggedBy = Collections.unmodifiableMap(new LinkedHashMap<>(loggedBy));
        targets = List.copyOf(targets);
    }

    /**
     * One target's estimates.
     *
     * @param target the deciding rule
     * @param all    its estimates over every decision
     * @param bySite its estimates at each site, by the site's name in byte order
     */
    public record Target(EvaluationTarget target, Estimates all, Map<String, Estimates> bySite) {

        /**
         * Copies the sites.
         *
         * @throws NullPointerException when a part is null
         */
        public Target {
            Objects.requireNonNull(target, "target");
            Objects.requireNonNull(all, "all");
            bySite = Collections.unmodifiableMap(new LinkedHashMap<>(bySite));
        }
    }

    /**
     * Evaluates {@code targets} on the labelled decisions of flow logs: every decision line of
     * them must carry its policy and labels; run lines are skipped.
     *
     * @param flowLogs the flow logs, read in order
     * @param targets  the rules to evaluate
     * @return the estimates; no target has any when there are no decisions
     * @throws IOException              when a log cannot be read, or a line is not a labelled
     *                                  decision (the message names the file and line)
     * @throws IllegalArgumentException when a target decides with the probabilities of a
     *                                  decider that did not log a decision
     */
    public static Evaluation of(List<Path> flowLogs, List<EvaluationTarget> targets) throws IOException {
        List<LabelledDecision> decisions = new ArrayList<>();
        for (Path log : flowLogs) {
            decisions.addAll(LabelledLogs.read(log));
        }
        TreeMap<String, Integer> loggedBy = new TreeMap<>(CanonicalJson::compareCodePoints);
        decisions.forEach(d -> loggedBy.merge(d.decider(), 1, Integer::sum));
        if (decisions.isEmpty()) {
            return new Evaluation(0, loggedBy, List.of());
        }
        Map<String, List<LabelledDecision>> bySite = new TreeMap<>(CanonicalJson::compareCodePoints);
        decisions.forEach(d -> bySite.computeIfAbsent(d.site(), s -> new ArrayList<>()).add(d));
        List<Target> estimated = new ArrayList<>();
        for (EvaluationTarget t : targets) {
            Estimates all = Estimator.of(t, decisions, decisions);
            Map<String, Estimates> sites = new LinkedHashMap<>();
            bySite.forEach((site, at) -> sites.put(site, Estimator.of(t, at, decisions)));
            estimated.add(new Target(t, all, sites));
        }
        return new Evaluation(decisions.size(), loggedBy, estimated);
    }
}
