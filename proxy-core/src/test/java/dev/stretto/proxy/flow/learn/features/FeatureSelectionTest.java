package dev.stretto.proxy.flow.learn.features;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.learn.Encoder;
import dev.stretto.proxy.flow.learn.Vocab;
import dev.stretto.proxy.flow.model.FeatureMap;
import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Features;
import dev.stretto.proxy.flow.predict.Step;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Code features (stretto-learn 3.5): candidates, selection by cross-validation, the map. */
class FeatureSelectionTest {

    private static JsonNode json(String s) {
        return CanonicalJson.parse(s);
    }

    @Test
    void candidatesAreFieldsWithTwoToEightValuesNoneCoveringAlmostAll() {
        List<AgentStep> steps = new ArrayList<>();
        List<JsonNode> outputs = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            steps.add(new AgentStep("get", Step.OK, null));
            outputs.add(json("{\"status\":\"" + (i % 2 == 0 ? "ok" : "late") + "\",\"id\":\"x" + i + "\","
                    + "\"kind\":\"order\",\"items\":" + (i < 3 ? "[]" : "[1,2]") + ",\"pay\":{\"card\":" + i % 3
                    + ",\"meta\":{}}}"));
            steps.add(new AgentStep("list", Step.OK, null));
            outputs.add(json(i < 5 ? "[1]" : "[]"));
        }
        List<ToolField> c = FeatureCandidates.discover(List.of(steps), List.of(outputs));
        // id has 10 values (too many), kind one (too few); scalars before lengths, then by path.
        assertEquals(List.of(new ToolField("get", new FeatureMap.Scalar("pay.card")),
                new ToolField("get", new FeatureMap.Scalar("status")),
                new ToolField("get", new FeatureMap.Len("items")),
                new ToolField("list", new FeatureMap.Len(""))), c);
    }

    @Test
    void aFieldThatDecidesTheNextStepIsChosenAndNumberedPerTool() {
        // check says ok (then the agent replies) or bad (then it calls fix), 40 sessions.
        List<List<AgentStep>> steps = new ArrayList<>();
        List<List<JsonNode>> outputs = new ArrayList<>();
        List<String> tasks = new ArrayList<>();
        for (int i = 0; i < 40; i++) {
            boolean bad = i % 2 == 1;
            List<AgentStep> s = new ArrayList<>(List.of(new AgentStep("check", Step.OK, null)));
            List<JsonNode> o = new ArrayList<>(List.of(json("{\"status\":\"" + (bad ? "bad" : "ok") + "\"}")));
            if (bad) {
                s.add(new AgentStep("fix", Step.OK, null));
                o.add(null);
            }
            s.add(new AgentStep(null, Step.ENDED, null));
            o.add(null);
            steps.add(s);
            outputs.add(o);
            tasks.add("session-" + i);
        }
        Vocab vocab = Vocab.of(steps, List.of());
        List<ToolField> candidates = FeatureCandidates.discover(steps, outputs);
        FeatureSelection.Result r = new FeatureSelection(steps, outputs, tasks, vocab, 0.5).select(candidates);
        assertEquals(Map.of("check", List.of(new FeatureMap.Scalar("status"))), r.map().fields());
        assertEquals(Map.of(new FeatureMap.Key("check", List.of("bad")), 1, new FeatureMap.Key("check", List.of("ok")), 2),
                r.map().ids());
        assertTrue(r.bestGain() >= FeatureSelection.MIN_GAIN, "the one candidate gained " + r.bestGain());
        long[] symbols = Encoder.encode(steps.get(1), outputs.get(1), vocab, r.map(), 1.0).symbols();
        assertEquals((1L * 4) * 4096 + 1, symbols[0]); // check (id 1), ok outcome, feature 1 (bad)
    }

    @Test
    void aCombinationPast63GetsNoId() {
        List<AgentStep> steps = new ArrayList<>();
        List<JsonNode> outputs = new ArrayList<>();
        for (int i = 0; i < 70; i++) {
            steps.add(new AgentStep("t", Step.OK, null));
            outputs.add(json("{\"n\":\"" + (100 + i) + "\"}"));
        }
        FeatureMap map = FeatureMaps.fit(List.of(new ToolField("t", new FeatureMap.Scalar("n"))), List.of(steps),
                List.of(outputs));
        assertEquals(63, map.ids().size());
        assertEquals(63, Features.of(map, "t", outputs.get(62)));
        assertEquals(0, Features.of(map, "t", outputs.get(63)));
    }
}
