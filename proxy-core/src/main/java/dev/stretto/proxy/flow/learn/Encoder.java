package dev.stretto.proxy.flow.learn;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.habit.EncodedEpisode;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Features;
import java.util.List;

/**
 * Turns an episode's steps into the habit's symbols:
 * {@code (action * 4 + outcome) * 4096 + min(feature, 4095)}.
 */
public final class Encoder {

    private static final int FEATURES = 4096;

    private Encoder() {
    }

    /** The symbols and actions of one episode. */
    public static EncodedEpisode encode(List<AgentStep> steps, List<JsonNode> outputs, Vocab vocab, FeatureMap map,
                                        double weight) {
        long[] symbols = new long[steps.size()];
        int[] actions = new int[steps.size()];
        for (int t = 0; t < steps.size(); t++) {
            AgentStep s = steps.get(t);
            int action = vocab.id(s);
            int feature = Math.min(s.isRespond() ? 0 : Features.of(map, s.tool(), outputs.get(t)), FEATURES - 1);
            actions[t] = action;
            symbols[t] = ((long) action * 4 + s.outcome()) * FEATURES + feature;
        }
        return new EncodedEpisode(symbols, actions, weight);
    }
}
