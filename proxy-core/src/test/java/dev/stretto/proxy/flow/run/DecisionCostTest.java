package dev.stretto.proxy.flow.run;

import dev.stretto.proxy.flow.decide.Exploration;
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
 * drives it (the episode cut at the run's call, then the decision), after a shorter session
 * that compiles the code; then the same session explored (epsilon 0.1). Prints the mean and
 * median time of a decision over the first and the last 100 answered calls.
 */
class DecisionCostTest {

    static final int CALLS = 4_000;
    static final int WINDOW = 100;

    @Test
    void decisionsAtTheStartAndTheEndOfAFourThousandCallSession() throws Exception {
        Flow shop = FlowFile.read(ReferenceData.file("home/shop.flow.json"));
        FlowOptions served = new FlowOptions(0.3, null, 8, Integer.MAX_VALUE, 300, null, false, null, null);
        FlowOptions exploring = new FlowOptions(0.3, null, 8, Integer.MAX_VALUE, 300, null, false,
                new Exploration(0.1, 7), null);
        play(shop, served, 3, 1_000); // compiles the code paths, so that the first calls measured are not the slowest
        report("", play(shop, served, 11, CALLS));
        report(", exploring", play(shop, exploring, 11, CALLS));
    }

    private static void report(String how, List<long[]> timed) {
        int calls = (int) timed.getLast()[0];
        System.out.printf(Locale.ROOT, "flow decisions%s after %d answered calls (%d decisions), mean (median) after"
                        + " the first %d calls: %.1f (%.1f) us; after the last %d: %.1f (%.1f) us%n", how, calls,
                timed.size(), WINDOW, meanUs(timed, 0, WINDOW), medianUs(timed, 0, WINDOW), WINDOW,
                meanUs(timed, calls - WINDOW, calls), medianUs(timed, calls - WINDOW, calls));
    }

    /** Plays a generated session; for each decision, the number of answered calls so far and its time in ns. */
    private static List<long[]> play(Flow shop, FlowOptions options, long seed, int calls) throws Exception {
        FlowSession session = FlowSession.start(shop, "shop.flow.json", options, "s", line -> { }, w -> { },
                System::currentTimeMillis);
        List<long[]> timed = new ArrayList<>();
        int[] answered = {0};
        GeneratedSession generated = new GeneratedSession(seed, 200);
        generated.play(calls, new GeneratedSession.Runs() {
            @Override
            public FlowRun start(com.fasterxml.jackson.databind.JsonNode after, String tool,
                                 com.fasterxml.jackson.databind.JsonNode response) {
                answered[0]++;
                return session.mayStart() ? session.startRun(after, tool, response) : null;
            }

            @Override
            public void answered(FlowRun run, String id, com.fasterxml.jackson.databind.JsonNode response) {
                run.answered(id, response);
            }
        }, (run, cut) -> {
            long t0 = System.nanoTime();
            RunStep step = run.decide(cut);
            timed.add(new long[] {answered[0], generated.lastCutNs() + System.nanoTime() - t0});
            return step;
        });
        return timed;
    }

    private static double meanUs(List<long[]> timed, int fromCall, int toCall) {
        return timed.stream().filter(t -> t[0] > fromCall && t[0] <= toCall).mapToLong(t -> t[1]).average()
                .orElseThrow() / 1000.0;
    }

    private static double medianUs(List<long[]> timed, int fromCall, int toCall) {
        long[] ns = timed.stream().filter(t -> t[0] > fromCall && t[0] <= toCall).mapToLong(t -> t[1]).sorted()
                .toArray();
        return ns[ns.length / 2] / 1000.0;
    }
}
