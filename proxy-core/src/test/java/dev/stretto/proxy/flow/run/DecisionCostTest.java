package dev.stretto.proxy.flow.run;

import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.testing.ReferenceData;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.junit.jupiter.api.Test;

/**
 * What one decision costs at the start and at the end of a long session: 4,000 agent calls,
 * each followed by a run of shop.flow.json (reach) with no session limit, driven as the actor
 * drives it. Prints the mean time of a decision over the first and the last 100 answered calls.
 */
class DecisionCostTest {

    static final int CALLS = 4_000;
    static final int WINDOW = 100;

    @Test
    void decisionsAtTheStartAndTheEndOfAFourThousandCallSession() throws Exception {
        Flow shop = FlowFile.read(ReferenceData.file("home/shop.flow.json"));
        FlowOptions options = new FlowOptions(0.3, null, 8, Integer.MAX_VALUE, 300, null, false, null, null);
        FlowSession session = FlowSession.start(shop, "shop.flow.json", options, "s", line -> { }, w -> { },
                System::currentTimeMillis);
        List<long[]> timed = new ArrayList<>();
        int[] calls = {0};
        new GeneratedSession(11, 200).play(CALLS, new GeneratedSession.Runs() {
            @Override
            public FlowRun start(com.fasterxml.jackson.databind.JsonNode after, String tool,
                                 com.fasterxml.jackson.databind.JsonNode response) {
                calls[0]++;
                return session.mayStart() ? session.startRun(after, tool, response) : null;
            }

            @Override
            public void answered(FlowRun run, String id, com.fasterxml.jackson.databind.JsonNode response) {
                run.answered(id, response);
            }
        }, (run, cut) -> {
            long t0 = System.nanoTime();
            RunStep step = run.decide(cut);
            timed.add(new long[] {calls[0], System.nanoTime() - t0});
            return step;
        });
        double start = meanUs(timed, 0, WINDOW);
        double end = meanUs(timed, calls[0] - WINDOW, calls[0]);
        System.out.printf(Locale.ROOT, "flow decisions after %d answered calls (%d decisions): %.1f us each after"
                + " the first %d calls, %.1f us after the last %d%n", calls[0], timed.size(), start, WINDOW, end, WINDOW);
    }

    private static double meanUs(List<long[]> timed, int fromCall, int toCall) {
        return timed.stream().filter(t -> t[0] > fromCall && t[0] <= toCall).mapToLong(t -> t[1]).average()
                .orElseThrow() / 1000.0;
    }
}
