package dev.stretto.proxy.flow.arbiter;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.decide.Scorer;
import dev.stretto.proxy.flow.decide.Scoring;
import dev.stretto.proxy.flow.decide.SiteQuestion;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.math.Fnv1a64;
import dev.stretto.proxy.oracle.Request;
import java.util.Map;

/**
 * The arbiter decider: at each site it asks the System-One model one {@link NextStepRequest}
 * and judges the answers with the fold of the task ({@code fnv1a64(task_id) % 5}). A failed
 * request hands back with {@code the System-One model failed: <error>}, an answer missing a
 * question with {@code the System-One answer was incomplete}. The decision logs the
 * {@code next} answer's distribution ({@code oracle}), each predicate's probability of yes
 * ({@code predicates}) and the request's cache key ({@code key}).
 */
public final class ArbiterScorer implements Scorer {

    /** How many folds an arbiter has. */
    public static final int FOLDS = 5;

    private final Flow flow;
    private final NextStepRequest requests;
    private final Predictions predictions;

    /**
     * The arbiter of {@code flow}.
     *
     * @throws IllegalArgumentException when the flow has no arbiter, or one this build cannot
     *                                  judge with (not five folds, or weights that do not
     *                                  match its weighed predicates), saying which
     */
    public ArbiterScorer(Flow flow) {
        if (!flow.hasArbiter()) {
            throw new IllegalArgumentException("the flow has no arbiter (no folds)");
        }
        if (flow.folds().size() != FOLDS) {
            throw new IllegalArgumentException("its arbiter has " + flow.folds().size() + " folds, not " + FOLDS);
        }
        int weights = OptionFeatures.weightCount(flow.weighed().size());
        for (Fold f : flow.folds()) {
            if (f.weights().size() != weights) {
                throw new IllegalArgumentException("its arbiter weighs " + flow.weighed().size()
                        + " predicates, which takes " + weights + " weights per fold, not " + f.weights().size());
            }
        }
        for (Predicate w : flow.weighed()) {
            if (flow.predicates().stream().noneMatch(p -> p.id().equals(w.id()))) {
                throw new IllegalArgumentException("its arbiter weighs the predicate " + w.id()
                        + ", which it does not ask (it is not among \"predicates\")");
            }
        }
        if (flow.model().isEmpty()) {
            throw new IllegalArgumentException("its arbiter names no System-One model (\"model\" is empty)");
        }
        this.flow = flow;
        this.requests = new NextStepRequest(flow);
        this.predictions = new Predictions(flow);
    }

    @Override
    public DeciderKind kind() {
        return DeciderKind.ARBITER;
    }

    @Override
    public Scoring score(SiteQuestion q) {
        Request request = requests.request(q.site(), q.offered(), q.cut().episode());
        return new Scoring.Ask(request, outcome -> switch (outcome) {
            case OracleOutcome.Failed f -> Scoring.HandBack.modelFailed(f.error(), f.key());
            case OracleOutcome.Answered a -> judged(q, a);
        });
    }

    private Scoring judged(SiteQuestion q, OracleOutcome.Answered a) {
        ArbiterAnswers answers = ArbiterAnswers.of(a.response(), q.offered(), flow.predicates());
        if (answers == null) {
            return Scoring.HandBack.incomplete(a.key());
        }
        OptionFeatures features = OptionFeatures.of(q.offered(), predictions.habitPrior(q.history(), q.offered()),
                answers, flow.weighed(), q.site().tool());
        Fold fold = flow.folds().get(Fnv1a64.fold(q.taskId()));
        Map<String, Double> probs = Arbiter.judge(fold, q.site().name(), features);
        ObjectNode oracle = JsonNodeFactory.instance.objectNode();
        answers.next().forEach(oracle::put);
        return new Scoring.Scored(probs, oracle, answers.predicates(), a.key());
    }
}
