package dev.stretto.proxy.flow.model;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.testing.ReferenceData;
import java.io.IOException;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * The invariants of formats 2.2 on every example flow: counting learned them, so a reader
 * that mixes up fields breaks them. All four flows satisfy all of them.
 */
class FlowInvariantsTest {

    private static Flow read(String fixture) throws IOException {
        return FlowFile.read(ReferenceData.file(fixture));
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json"})
    void eachHabitContextsTotalIsTheSumOfItsCounts(String fixture) throws IOException {
        for (Map<List<Long>, Counts> level : read(fixture).habit().base().levels()) {
            for (Map.Entry<List<Long>, Counts> e : level.entrySet()) {
                double sum = e.getValue().byAction().values().stream().mapToDouble(Double::doubleValue).sum();
                assertEquals(e.getValue().total(), sum, 1e-9, fixture + " " + e.getKey());
            }
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json"})
    void everyLevelCountsTheSameStepsAndSumsToTheLevelBelow(String fixture) throws IOException {
        Flow flow = read(fixture);
        checkLevels(flow.habit().base(), fixture + " habit");
        if (flow.reach() != null) {
            checkLevels(flow.reach(), fixture + " reach");
        }
    }

    private static void checkLevels(Backoff model, String what) {
        List<Map<List<Long>, Counts>> levels = model.levels();
        double steps = total(levels.get(0));
        for (int j = 1; j < levels.size(); j++) {
            assertEquals(steps, total(levels.get(j)), 1e-9, what + " level " + j);
            Map<List<Long>, Map<Integer, Double>> byAction = new HashMap<>();
            Map<List<Long>, Double> totals = new HashMap<>();
            for (Map.Entry<List<Long>, Counts> e : levels.get(j).entrySet()) {
                List<Long> suffix = e.getKey().subList(1, e.getKey().size());
                totals.merge(suffix, e.getValue().total(), Double::sum);
                Map<Integer, Double> sums = byAction.computeIfAbsent(suffix, k -> new TreeMap<>());
                e.getValue().byAction().forEach((a, n) -> sums.merge(a, n, Double::sum));
            }
            assertEquals(levels.get(j - 1).keySet(), totals.keySet(), what + " level " + (j - 1) + " contexts");
            for (Map.Entry<List<Long>, Counts> e : levels.get(j - 1).entrySet()) {
                assertEquals(e.getValue().total(), totals.get(e.getKey()), 1e-9, what + " " + e.getKey());
                assertEquals(e.getValue().byAction(), byAction.get(e.getKey()), what + " " + e.getKey());
            }
        }
    }

    private static double total(Map<List<Long>, Counts> level) {
        return level.values().stream().mapToDouble(Counts::total).sum();
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json"})
    void theGroupLayerRepeatsLevelTwoUnderGroupOneWithBetaEqualToAlpha(String fixture) throws IOException {
        Flow flow = read(fixture);
        Map<Habit.GroupContext, Counts> expected = new HashMap<>();
        flow.habit().base().levels().get(2).forEach((h, c) -> expected.put(new Habit.GroupContext(1, h), c));
        assertEquals(expected, flow.habit().top());
        assertEquals(flow.habit().base().alpha(), flow.habit().beta());
        assertEquals(1, flow.group());
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json"})
    void siteCountsAreTheLevelOneCountsOfTheSitesSymbolForReadTools(String fixture) throws IOException {
        Flow flow = read(fixture);
        Map<List<Long>, Counts> level1 = flow.habit().base().levels().get(1);
        int checked = 0;
        for (Map.Entry<List<Long>, Counts> e : level1.entrySet()) {
            long symbol = e.getKey().get(0);
            if (symbol == Backoff.PAD) {
                continue;
            }
            long step = symbol / 4096;
            String tool = flow.toolOf((int) (step / 4));
            if (tool == null) {
                continue;
            }
            Map<String, Long> next = flow.sites().next().getOrDefault(new Sites.Site(tool, step % 4 == 1), Map.of());
            for (String read : flow.sites().reads()) {
                assertEquals((double) next.getOrDefault(read, 0L), e.getValue().of(flow.actionId(read)),
                        fixture + " after " + tool + " then " + read);
                checked++;
            }
        }
        assertEquals(true, checked > 0);
    }

    @ParameterizedTest
    @ValueSource(strings = {"retail-5-sessions.flow.json", "retail-10-sessions.flow.json",
            "retail-5-sessions-shipped-arbiter.flow.json", "home/shop.flow.json"})
    void aLookupsCallsInBindingsAreItsLevelZeroCount(String fixture) throws IOException {
        Flow flow = read(fixture);
        Counts level0 = flow.habit().base().levels().get(0).get(List.of());
        flow.bindings().args().forEach((tool, a) ->
                assertEquals((double) a.calls(), level0.of(flow.actionId(tool)), fixture + " " + tool));
    }
}
