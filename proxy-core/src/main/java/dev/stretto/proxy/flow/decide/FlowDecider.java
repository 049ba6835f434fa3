package dev.stretto.proxy.flow.decide;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.bind.Binder;
import dev.stretto.proxy.flow.bind.BindingView;
import dev.stretto.proxy.flow.bind.Mention;
import dev.stretto.proxy.flow.bind.Pick;
import dev.stretto.proxy.flow.bind.WriteVerbs;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.flow.predict.Step;
import dev.stretto.proxy.flow.predict.Steps;
import dev.stretto.proxy.math.Fnv1a64;
import dev.stretto.proxy.math.SplitMix64;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.json.RustText;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * How the flow decides after a call (the reference's {@code next_explored}), step by step,
 * with its exact hand-back reasons:
 * <ol>
 *   <li>The last step must be a tool call ({@code the last step is not a tool call}).</li>
 *   <li>The site is that call's tool, {@code " (error)"} added when it failed.</li>
 *   <li>A promoted flow acts only at promoted sites ({@code the site is not promoted}).</li>
 *   <li>A per-site threshold above 1 switches the site off ({@code the site is switched off});
 *       one of at most 1 replaces the served threshold.</li>
 *   <li>A site that offers no lookups hands back ({@code no lookups followed here in training}).</li>
 *   <li>The scorer weighs the options ({@code respond} and the offered lookups).</li>
 *   <li>Habit and arbiter, lookup first: the likeliest lookup, if at least the threshold, bound,
 *       and still at least the threshold times its binding's chance
 *       ({@code <tool> at <p>, below <threshold>}; {@code <tool>: <why>};
 *       {@code <tool> at <p>, times <chance> for its arguments, below <threshold>};
 *       {@code no lookup to make}).</li>
 *   <li>Reach: among the lookups at least at the threshold that bind, the best probability
 *       times chance; without one, the last binding failure, else the likeliest lookup under
 *       the threshold, else {@code no lookup to make}.</li>
 *   <li>A lookup with thresholds of its own at the site ({@link LookupThresholds}, format 3)
 *       is held to the one of its case instead of the site's: whether the customer mentioned
 *       its picked values, else whether the last result shows a new value the customer
 *       mentioned, either with the write's verb the customer said it with. Reach then takes
 *       the best of the lookups whose probability times chance reaches their own threshold.</li>
 *   <li>With {@link Exploration}, a seeded draw may take another lookup that binds instead,
 *       and the decision carries its {@link Policy}.</li>
 * </ol>
 * Stateless between decisions; one instance serves a session.
 */
public final class FlowDecider {

    private final Flow flow;
    private final Scorer scorer;
    private final double threshold;
    private final Exploration exploration;
    private final String taskId;
    private final Binder binder;
    private final Predictions predictions;
    private final WriteVerbs verbs;

    /**
     * A decider.
     *
     * @param flow        the flow
     * @param scorer      how the options are weighed
     * @param threshold   the served threshold ({@code --flow-threshold}, 0.3 by default)
     * @param exploration exploration, or null
     * @param taskId      the task id ({@code --task-id}, else the session id)
     */
    public FlowDecider(Flow flow, Scorer scorer, double threshold, Exploration exploration, String taskId) {
        this.flow = Objects.requireNonNull(flow, "flow");
        this.verbs = WriteVerbs.of(flow.manifest());
        this.scorer = Objects.requireNonNull(scorer, "scorer");
        this.threshold = threshold;
        this.exploration = exploration;
        this.taskId = Objects.requireNonNull(taskId, "taskId");
        this.binder = new Binder(flow);
        this.predictions = new Predictions(flow);
    }

    /** The decider's kind. */
    public DeciderKind kind() {
        return scorer.kind();
    }

    /**
     * Decides what follows the last call of {@code cut}.
     *
     * @param argumentNames the arguments a tool requires, for lookups training never made
     *                      (offered by {@code every_read}); null for a tool it cannot tell
     */
    public DecisionStep decide(EpisodeCut cut, Function<String, List<String>> argumentNames) {
        return decide(cut, argumentNames, null);
    }

    /**
     * Decides what follows the last call of {@code cut}, with what {@code memo} kept from the
     * session's earlier decisions: the same decision as {@link #decide(EpisodeCut, Function)},
     * at a cost that does not grow with all the session has said and answered so far.
     *
     * @param memo the session's memo, or null to decide from scratch
     */
    public DecisionStep decide(EpisodeCut cut, Function<String, List<String>> argumentNames, DecisionMemo memo) {
        List<Step> steps = memo == null ? Steps.of(flow, cut.episode()) : memo.steps().of(cut.episode());
        if (steps.isEmpty() || !steps.getLast().isCall()) {
            return new DecisionStep.Decided(Decision.handBack("the last step is not a tool call", null));
        }
        Step last = steps.getLast();
        Sites.Site site = new Sites.Site(last.tool(), last.failed());
        String name = site.name();
        if (flow.promoted() != null && !flow.promoted().promotes(name)) {
            return new DecisionStep.Decided(Decision.handBack("the site is not promoted", name));
        }
        double applies = threshold;
        Double own = flow.thresholds().get(name);
        if (own != null) {
            if (own > 1) {
                return new DecisionStep.Decided(Decision.handBack("the site is switched off", name));
            }
            applies = own;
        }
        List<String> offered = flow.sites().offered(site);
        if (offered.isEmpty()) {
            return new DecisionStep.Decided(Decision.handBack("no lookups followed here in training", name));
        }
        SiteQuestion question = new SiteQuestion(cut, steps, Steps.history(steps), site, offered, taskId);
        Context context = new Context(question, name, applies, argumentNames, memo);
        return next(context, scorer.score(question));
    }

    private record Context(SiteQuestion question, String site, double threshold,
                           Function<String, List<String>> argumentNames, DecisionMemo memo) {
    }

    private DecisionStep next(Context c, Scoring scoring) {
        return switch (scoring) {
            case Scoring.Scored s -> new DecisionStep.Decided(decide(c, s));
            case Scoring.Ask ask -> new DecisionStep.AskOracle(ask.request(),
                    outcome -> next(c, ask.then().apply(outcome)));
            case Scoring.HandBack h -> new DecisionStep.Decided(new Decision(false, null, null, h.reason(), c.site(),
                    Map.of(), null, null, null, Map.of(), h.key(), null));
        };
    }

    /** A proposal before exploration: the rule's lookup, or handing back with what explains it. */
    private record Proposal(String tool, ObjectNode arguments, String reason, Double prob, Double binding) {
    }

    private Decision decide(Context c, Scoring.Scored s) {
        BindingView view = c.memo() == null ? BindingView.of(c.question().cut())
                : BindingView.of(c.question().cut(), c.memo().binding());
        Map<String, Pick> picks = new LinkedHashMap<>();
        Function<String, Pick> bind = tool -> picks.computeIfAbsent(tool,
                t -> binder.pick(view, t, c.argumentNames() == null ? null : c.argumentNames().apply(t)));
        Map<String, Double> probs = s.probs();
        Function<String, Double> thresholds = tool -> threshold(c, tool, bind, view);
        Proposal proposal = scorer.kind() == DeciderKind.REACH
                ? bestBound(c, probs, bind, thresholds) : lookupFirst(c, probs, bind, thresholds);
        Policy policy = null;
        if (exploration != null) {
            Explored explored = explore(c, probs, bind, proposal);
            proposal = explored.proposal();
            policy = explored.policy();
        }
        boolean lookup = proposal.reason() == null;
        return new Decision(lookup, lookup ? proposal.tool() : null, lookup ? proposal.arguments() : null,
                proposal.reason(), c.site(), probs, proposal.prob(), proposal.binding(), s.oracle(), s.predicates(),
                s.key(), policy);
    }

    /**
     * The threshold {@code tool} must reach here: its own for the case the decision is in
     * ({@link LookupThresholds}), else the site's. Only a lookup that has thresholds of its own
     * at this site is bound to find its case.
     */
    private double threshold(Context c, String tool, Function<String, Pick> bind, BindingView view) {
        LookupThresholds own = flow.lookupThresholds();
        if (own.isEmpty() || !own.values().getOrDefault(c.site(), Map.of()).containsKey(tool)) {
            return c.threshold();
        }
        Double t = own.get(c.site(), tool, caseOf(bind.apply(tool), view, verbs));
        return t == null ? c.threshold() : t;
    }

    /**
     * The case of a lookup's binding: whether the customer mentioned every picked value, else
     * whether the last result shows a new value the customer mentioned; either with the verb of
     * a write the customer said the mention with ({@link WriteVerbs#saidWith}).
     *
     * @param pick  the lookup's binding
     * @param view  what the binding was made in
     * @param verbs the verbs of the flow's writes
     * @return the case
     */
    public static LookupThresholds.When caseOf(Pick pick, BindingView view, WriteVerbs verbs) {
        if (pick instanceof Pick.Bound b && b.mention() == Mention.PICKED) {
            return new LookupThresholds.When(LookupThresholds.Case.MENTIONED, verbs.saidWith(view.customer(), b.saidAs()));
        }
        String found = view.newMention();
        return found == null ? LookupThresholds.When.of(LookupThresholds.Case.UNMENTIONED)
                : new LookupThresholds.When(LookupThresholds.Case.AFTER_MENTION, verbs.saidWith(view.customer(), found));
    }

    /** The offered lookups that have a probability, in option order. */
    private static List<String> lookups(Context c, Map<String, Double> probs) {
        return c.question().offered().stream().filter(probs::containsKey).toList();
    }

    private static Proposal lookupFirst(Context c, Map<String, Double> probs, Function<String, Pick> bind,
                                        Function<String, Double> thresholds) {
        String best = null;
        for (String tool : lookups(c, probs)) {
            if (best == null || probs.get(tool) > probs.get(best)) {
                best = tool;
            }
        }
        if (best == null) {
            return new Proposal(null, null, "no lookup to make", null, null);
        }
        double p = probs.get(best);
        double t = thresholds.apply(best);
        if (p < t) {
            return below(best, p, t);
        }
        return bound(best, p, bind.apply(best), t);
    }

    private static Proposal bestBound(Context c, Map<String, Double> probs, Function<String, Pick> bind,
                                      Function<String, Double> thresholds) {
        // The best lookup whose probability times chance reaches its threshold; else the best of
        // those whose probability alone does, whose shortfall is the reason to hand back.
        String best = null;
        double bestScore = 0;
        String nearest = null;
        double nearestScore = 0;
        String failed = null;
        for (String tool : lookups(c, probs)) {
            double p = probs.get(tool);
            double t = thresholds.apply(tool);
            if (p < t) {
                continue;
            }
            if (bind.apply(tool) instanceof Pick.Bound b) {
                double score = p * b.chance();
                if (score >= t) {
                    if (best == null || score > bestScore) {
                        best = tool;
                        bestScore = score;
                    }
                } else if (nearest == null || score > nearestScore) {
                    nearest = tool;
                    nearestScore = score;
                }
            } else {
                failed = tool;
            }
        }
        String chosen = best != null ? best : nearest != null ? nearest : failed;
        if (chosen != null) {
            return bound(chosen, probs.get(chosen), bind.apply(chosen), thresholds.apply(chosen));
        }
        String likeliest = null;
        for (String tool : lookups(c, probs)) {
            if (likeliest == null || probs.get(tool) > probs.get(likeliest)) {
                likeliest = tool;
            }
        }
        return likeliest == null ? new Proposal(null, null, "no lookup to make", null, null)
                : below(likeliest, probs.get(likeliest), thresholds.apply(likeliest));
    }

    private static Proposal below(String tool, double p, double threshold) {
        if (threshold > 1) {
            return new Proposal(tool, null, tool + " at " + RustText.twoDecimals(p)
                    + ", switched off here in this case", p, null);
        }
        return new Proposal(tool, null, tool + " at " + RustText.twoDecimals(p) + ", below "
                + RustText.display(threshold), p, null);
    }

    /** The proposal for a lookup whose probability passed the threshold, once bound (or not). */
    private static Proposal bound(String tool, double p, Pick pick, double threshold) {
        return switch (pick) {
            case Pick.Unbound u -> new Proposal(tool, null, tool + ": " + u.why(), p, null);
            case Pick.Bound b -> p * b.chance() < threshold
                    ? new Proposal(tool, null, tool + " at " + RustText.twoDecimals(p) + ", times "
                            + RustText.twoDecimals(b.chance()) + " for its arguments, below "
                            + RustText.display(threshold), p, b.chance())
                    : new Proposal(tool, b.arguments(), null, p, b.chance());
        };
    }

    private record Explored(Proposal proposal, Policy policy) {
    }

    private Explored explore(Context c, Map<String, Double> probs, Function<String, Pick> bind, Proposal rule) {
        String greedy = rule.reason() == null ? rule.tool() : null;
        Map<String, Double> habit = predictions.habitPrior(c.question().history(), c.question().offered());
        List<Policy.Option> options = new ArrayList<>();
        List<String> alternatives = new ArrayList<>();
        for (String tool : c.question().offered()) {
            double p = probs.getOrDefault(tool, 0.0);
            Pick pick = bind.apply(tool);
            if (pick instanceof Pick.Bound b) {
                options.add(new Policy.Option(tool, p, habit.get(tool), b.chance(), b.arguments(), null));
                if (p > 0 && !tool.equals(greedy)) {
                    alternatives.add(tool);
                }
            } else {
                options.add(new Policy.Option(tool, p, habit.get(tool), null, null, ((Pick.Unbound) pick).why()));
            }
        }
        double epsilon = exploration.epsilon();
        Proposal chosen = rule;
        boolean explored = false;
        double propensity = 1.0;
        if (!alternatives.isEmpty() && epsilon > 0) {
            Episode episode = c.question().cut().episode();
            long key = c.memo() == null ? Fnv1a64.hash(taskId + "/" + ContentKey.of(episode))
                    : c.memo().keys().hash(taskId, episode);
            SplitMix64 draws = new SplitMix64(exploration.seed() ^ key);
            if (draws.nextDouble() < epsilon) {
                double total = 0.0;
                for (String tool : alternatives) {
                    total += probs.get(tool);
                }
                double left = draws.nextDouble() * total;
                String pick = alternatives.getLast();
                for (String tool : alternatives) {
                    left -= probs.get(tool);
                    if (left < 0) {
                        pick = tool;
                        break;
                    }
                }
                Pick.Bound b = (Pick.Bound) bind.apply(pick);
                chosen = new Proposal(pick, b.arguments(), null, probs.get(pick), b.chance());
                explored = true;
                propensity = epsilon * probs.get(pick) / total;
            } else {
                propensity = 1 - epsilon;
            }
        }
        Policy policy = new Policy(scorer.kind().wireName(), c.threshold(), epsilon, explored, greedy, propensity,
                taskId, c.question().cut().episode().events().size(), options);
        return new Explored(chosen, policy);
    }
}
