package dev.stretto.proxy.flow.learn.features;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.Encoder;
import dev.stretto.proxy.flow.learn.Vocab;
import dev.stretto.proxy.flow.learn.habit.BackoffCounts;
import dev.stretto.proxy.flow.learn.habit.EncodedEpisode;
import dev.stretto.proxy.flow.model.Backoff;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.math.Fnv1a64;
import dev.stretto.proxy.math.Libm;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.LongStream;

/**
 * Chooses code features greedily by grouped 5-fold cross-validation (the reference's
 * {@code select}): the evidence of a set of fields is the log-likelihood of each fold's
 * episodes under a back-off model counted on the other folds, with symbols carrying the
 * set's feature ids. The candidate that raises it most (the last of equals) is added while
 * it raises it by at least {@link #MIN_GAIN} nats, up to {@link #MAX_FIELDS} fields.
 */
public final class FeatureSelection {

    static final double MIN_GAIN = 5.0;
    static final int MAX_FIELDS = 8;
    private static final int FOLDS = 5;

    /**
     * What selection found.
     *
     * @param map      the fitted map of the chosen fields (empty when none helped)
     * @param bestGain the gain of the best candidate of the last round (the one that stopped
     *                 selection, or the last choice when the candidates ran out), or NaN when
     *                 there was no candidate to try
     */
    public record Result(FeatureMap map, double bestGain) {
    }

    private final List<List<AgentStep>> steps;
    private final List<List<JsonNode>> outputs;
    private final int[] folds;
    private final Vocab vocab;
    private final double alpha;

    /**
     * @param steps   the training episodes' steps
     * @param outputs their parsed outputs, one per step
     * @param taskIds each episode's task id, which picks its fold
     */
    public FeatureSelection(List<List<AgentStep>> steps, List<List<JsonNode>> outputs, List<String> taskIds,
                            Vocab vocab, double alpha) {
        this.steps = steps;
        this.outputs = outputs;
        this.vocab = vocab;
        this.alpha = alpha;
        this.folds = taskIds.stream().mapToInt(Fnv1a64::fold).toArray();
    }

    /** Selects among {@code candidates}. */
    public Result select(List<ToolField> candidates) {
        List<ToolField> chosen = new ArrayList<>();
        List<ToolField> left = new ArrayList<>(candidates);
        double current = evidence(chosen);
        double bestGain = Double.NaN;
        while (chosen.size() < MAX_FIELDS && !left.isEmpty()) {
            ToolField best = null;
            double bestEvidence = Double.NEGATIVE_INFINITY;
            for (ToolField c : left) {
                List<ToolField> trial = new ArrayList<>(chosen);
                trial.add(c);
                double ev = evidence(trial);
                if (best == null || ev >= bestEvidence) {
                    best = c;
                    bestEvidence = ev;
                }
            }
            bestGain = bestEvidence - current;
            if (!(bestGain >= MIN_GAIN)) {
                break;
            }
            chosen.add(best);
            left.remove(best);
            current = bestEvidence;
        }
        FeatureMap map = chosen.isEmpty() ? FeatureMap.EMPTY : FeatureMaps.fit(chosen, steps, outputs);
        return new Result(map, bestGain);
    }

    /** The cross-validated log-likelihood of the episodes with the given fields' features. */
    double evidence(List<ToolField> fields) {
        FeatureMap map = fields.isEmpty() ? FeatureMap.EMPTY : FeatureMaps.fit(fields, steps, outputs);
        List<EncodedEpisode> encoded = new ArrayList<>(steps.size());
        for (int e = 0; e < steps.size(); e++) {
            encoded.add(Encoder.encode(steps.get(e), outputs.get(e), vocab, map, 1.0));
        }
        double total = 0.0;
        for (int f = 0; f < FOLDS; f++) {
            List<EncodedEpisode> train = new ArrayList<>();
            for (int e = 0; e < encoded.size(); e++) {
                if (folds[e] != f) {
                    train.add(encoded.get(e));
                }
            }
            Backoff model = BackoffCounts.of(train).toBackoff(alpha, vocab.modelSize());
            double ll = 0.0;
            for (int e = 0; e < encoded.size(); e++) {
                if (folds[e] == f) {
                    EncodedEpisode ep = encoded.get(e);
                    List<Long> symbols = LongStream.of(ep.symbols()).boxed().toList();
                    for (int t = 0; t < ep.length(); t++) {
                        ll += Libm.log(model.predict(symbols.subList(0, t))[ep.actions()[t]]);
                    }
                }
            }
            total += ll;
        }
        return total;
    }
}
