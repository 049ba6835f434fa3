package dev.stretto.proxy.flow.run;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.Exploration;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.testing.ReferenceData;
import java.util.ArrayList;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * A session's decisions made with what it kept from earlier ones are the decisions made from
 * scratch: on long generated sessions (seeded calls, results, failures, pipelined calls,
 * conversation lines and the runs' own lookups), two sessions of the same flow decide side by
 * side, one remembering and one not, and every step and every flow-log line must match as it
 * is made.
 */
class IncrementalDecisionsTest {

    @ParameterizedTest(name = "{0} with {1}, exploring {2}, seed {3}")
    @CsvSource({
            "home/shop.flow.json, REACH, 0, 1",
            "home/shop.flow.json, HABIT, 0, 2",
            "home/shop.flow.json, HABIT, 0.3, 3",
            "retail-10-sessions.flow.json, HABIT, 0, 4",
            "retail-10-sessions.flow.json, HABIT, 0.5, 5",
            "retail-5-sessions.flow.json, HABIT, 0.2, 6",
    })
    void rememberingSessionsDecideAsSessionsThatStartFromScratch(String file, DeciderKind decider, double epsilon,
                                                                long seed) throws Exception {
        Flow flow = FlowFile.read(ReferenceData.file(file));
        FlowOptions options = new FlowOptions(0.3, decider, 8, Integer.MAX_VALUE, 300, null, false,
                epsilon > 0 ? new Exploration(epsilon, seed) : null, null);
        List<String> kept = new ArrayList<>();
        List<String> fresh = new ArrayList<>();
        long[] clocks = {0, 0};
        FlowSession remembering = FlowSession.start(flow, file, options, "s-" + seed, kept::add, kept::add,
                () -> clocks[0] += 3);
        FlowSession scratch = FlowSession.start(flow, file, options, "s-" + seed, fresh::add, fresh::add,
                () -> clocks[1] += 3).fromScratch();
        Map<FlowRun, FlowRun> twins = new IdentityHashMap<>();
        int[] decisions = {0};
        new GeneratedSession(seed, 30).play(600, new GeneratedSession.Runs() {
            @Override
            public FlowRun start(JsonNode after, String tool, JsonNode response) {
                assertEquals(scratch.mayStart(), remembering.mayStart());
                if (!remembering.mayStart()) {
                    return null;
                }
                FlowRun run = remembering.startRun(after, tool, response);
                twins.put(run, scratch.startRun(after, tool, response));
                return run;
            }

            @Override
            public void answered(FlowRun run, String id, JsonNode response) {
                run.answered(id, response);
                twins.get(run).answered(id, response);
            }
        }, (run, cut) -> {
            RunStep step = run.decide(cut);
            RunStep expected = twins.get(run).decide(cut);
            decisions[0]++;
            assertEquals(fresh, kept, "the flow log after decision " + decisions[0]);
            assertEquals(describe(expected), describe(step), "decision " + decisions[0]);
            return step;
        });
        assertTrue(decisions[0] > 400, decisions[0] + " decisions");
        assertTrue(kept.stream().anyMatch(l -> l.startsWith("{\"action\":\"lookup\"")), "some decisions look up");
    }

    private static String describe(RunStep step) {
        return switch (step) {
            case RunStep.Lookup l -> "lookup " + l.tool() + " " + l.arguments();
            case RunStep.Finished f -> "finished " + f.reply() + " " + f.record();
            case RunStep.Ask a -> "ask " + a.request();
        };
    }
}
