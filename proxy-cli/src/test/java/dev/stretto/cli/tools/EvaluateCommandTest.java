package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.Estimates;
import dev.stretto.proxy.flow.Evaluation;
import dev.stretto.proxy.flow.EvaluationTarget;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto evaluate} on a small labelled log of four decisions logged by the reach decider
 * exploring with epsilon 0.2, at two sites:
 * <ul>
 *   <li>A at s1: L1 (p 0.8, habit 0.6, binding 0.9) and L2 (0.4, 0.3, 0.5); the rule's L1 taken,
 *       propensity 0.8; labels L1 used, turn; L2 a detour.</li>
 *   <li>B at s1: the same options; L2 explored, propensity 0.2 * 0.4 / 0.4 = 0.2; labels L1 used;
 *       L2 used, turn.</li>
 *   <li>C at s2: L3 (p 0.2, habit 0.5, binding 0.8); the rule hands back (0.2 < 0.3), propensity
 *       0.8; label L3 used, turn.</li>
 *   <li>D at s2: the same; L3 explored, propensity 0.2; label L3 a detour.</li>
 * </ul>
 */
class EvaluateCommandTest {

    @TempDir
    Path tmp;

    private static StrettoTest.Run run(String... args) {
        return StrettoTest.run(false, args);
    }

    private static String option(String tool, double p, double habit, Double binding) {
        return "{\"arguments\":" + (binding == null ? "null" : "{\"id\":\"x\"}") + ",\"binding\":" + binding
                + ",\"habit\":" + habit + ",\"p\":" + p + ",\"tool\":\"" + tool + "\"}";
    }

    private static String label(boolean used, boolean detour, boolean turn) {
        return "{\"detour\":" + detour + ",\"turn\":" + turn + ",\"used\":" + used + "}";
    }

    private static String decision(int after, String site, String tool, String greedy, double propensity,
                                   String options, String labels) {
        String action = tool == null ? "\"action\":\"hand_back\"" : "\"action\":\"lookup\"";
        return "{" + action + ",\"address\":\"decide#0\",\"after\":" + after + (tool == null ? ""
                : ",\"arguments\":{\"id\":\"x\"}") + ",\"labels\":[" + labels + "],\"policy\":{\"decider\":\"reach\","
                + "\"epsilon\":0.2,\"events\":5,\"explored\":" + (tool != null && !tool.equals(greedy)) + ",\"greedy\":"
                + (greedy == null ? "null" : "\"" + greedy + "\"") + ",\"options\":[" + options + "],\"propensity\":"
                + propensity + ",\"task_id\":\"t\",\"threshold\":0.3}" + (tool == null ? ",\"reason\":\"r\"" : "")
                + ",\"site\":\"" + site + "\"" + (tool == null ? "" : ",\"tool\":\"" + tool + "\"") + "}";
    }

    /** The estimates of one target over every decision of {@code log}, through the API. */
    private static Estimates estimates(Path log, String target) throws Exception {
        return Evaluation.of(List.of(log), List.of(EvaluationTarget.parse(target))).targets().getFirst().all();
    }

    private Path smallLog() throws Exception {
        String s1 = option("L1", 0.8, 0.6, 0.9) + "," + option("L2", 0.4, 0.3, 0.5);
        String s2 = option("L3", 0.2, 0.5, 0.8);
        String run = "{\"after\":1,\"run\":{\"call\":\"c\",\"failed\":false,\"max_lookups\":8,\"sites\":[[\"decide#0\","
                + "0,0.0]],\"surprise\":-0.0}}";
        return Files.writeString(tmp.resolve("s.flow.jsonl"), String.join("\n",
                decision(1, "s1", "L1", "L1", 0.8, s1, label(true, false, true) + "," + label(false, true, false)),
                run,
                decision(2, "s1", "L2", "L1", 0.2, s1, label(true, false, false) + "," + label(true, false, true)),
                decision(3, "s2", null, null, 0.8, s2, label(true, false, true)),
                decision(4, "s2", "L3", null, 0.2, s2, label(false, true, false))) + "\n");
    }

    @Test
    void theFourEstimatorsOfAHabitTargetAreTheHandComputedOnes() throws Exception {
        Evaluation evaluation = Evaluation.of(List.of(smallLog()), List.of(EvaluationTarget.parse("h=habit@0.3")));
        assertEquals(4, evaluation.decisions());
        Estimates e = evaluation.targets().getFirst().all();
        // The habit target takes L1 at s1 (0.6 >= 0.3, 0.6 * 0.9 >= 0.3) and L3 at s2 (0.5 * 0.8 >= 0.3).
        // Weights: A 1/0.8 = 1.25 (L1 was taken), B 0, C 0 (handed back), D 1/0.2 = 5.
        assertEquals(0, e.unsupported());
        assertEquals(6.25 * 6.25 / (1.25 * 1.25 + 25), e.ess(), 1e-12);
        Estimates.Metric used = e.metrics().get(1);
        // Direct: the target's options' used labels: A 1, B 1, C 1, D 0; mean 0.75, sd 0.5, error 0.25.
        assertEquals(new Estimates.Estimate(0.75, 0.25), used.direct());
        // IPS: 1.25 * 1 (A), 0, 0, 5 * 0 (D): mean 0.3125; terms' sd sqrt(3 * 0.3125^2 + 0.9375^2) / sqrt(3).
        assertEquals(0.3125, used.ips().value(), 1e-15);
        assertEquals(Math.sqrt((3 * 0.3125 * 0.3125 + 0.9375 * 0.9375) / 3) / 2, used.ips().error(), 1e-15);
        // SNIPS: sum(w m) / sum(w) = 1.25 / 6.25.
        assertEquals(0.2, used.snips().value(), 1e-15);
        // Doubly robust, model = mean label per site and lookup (s1 L1: used 1; s2 L3: used 0.5):
        // A 1 + 1.25 (1 - 1) = 1; B 1; C 0.5; D 0.5 + 5 (0 - 0.5) = -2; mean 0.125.
        assertEquals(0.125, used.dr().value(), 1e-15);
        Estimates.Metric detours = e.metrics().get(2);
        // IPS detours: D 5 * 1, the rest 0: 1.25; SNIPS 5 / 6.25 = 0.8; DR: 0, 0, 0.5, 0.5 + 5 * 0.5 = 3 -> 0.875.
        assertEquals(1.25, detours.ips().value(), 1e-15);
        assertEquals(0.8, detours.snips().value(), 1e-15);
        assertEquals(0.875, detours.dr().value(), 1e-15);
        Estimates.Metric turns = e.metrics().get(3);
        // Direct turns: 1, 0, 1, 0: 0.5 with sd sqrt(1/3); DR: A 0.5 + 1.25 * 0.5, B 0.5, C 0.5, D 0.5 - 2.5.
        assertEquals(0.5, turns.direct().value());
        assertEquals(Math.sqrt(1.0 / 3) / 2, turns.direct().error(), 1e-15);
        assertEquals((1.125 + 0.5 + 0.5 - 2) / 4, turns.dr().value(), 1e-15);
        Estimates.Metric lookups = e.metrics().get(0);
        assertEquals(new Estimates.Estimate(1.0, 0.0), lookups.direct());
        assertEquals(1.5625, lookups.ips().value(), 1e-15);
        assertEquals(1.0, lookups.snips().value(), 1e-15);
    }

    @Test
    void aReachTargetHandsBackBelowTheThresholdAndIsWeightedWhereTheLogDidToo() throws Exception {
        Estimates e = estimates(smallLog(), "r=reach@0.3");
        // L1 at s1 (0.72 beats 0.2); at s2 L3's 0.2 is below 0.3: hand back. Weights 1.25, 0, 1.25, 0.
        assertEquals(2.0, e.ess(), 1e-12);
        assertEquals(new Estimates.Estimate(0.5, Math.sqrt(1.0 / 3) / 2), e.metrics().get(0).direct());
        assertEquals(0.3125, e.metrics().get(1).ips().value(), 1e-15);
        assertEquals(0.5, e.metrics().get(1).snips().value(), 1e-15);
    }

    @Test
    void theReportShowsEachTargetOverAllSitesAndAtEachSite() throws Exception {
        Path log = smallLog();
        // IPS lookups: terms 1.25, 0, 0, 5, mean 1.5625, sd sqrt(16.796875 / 3), error 1.183; SNIPS the terms
        // times 4 / 6.25; DR turns: 1.125, 0.5, 0.5, -2, mean 0.03125, error 0.693.
        StrettoTest.Run r = run("evaluate", "--target", "h=habit@0.3", "--min-ess", "1", log.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(String.join("\n",
                "4 labelled decisions from 1 file, logged by reach (4).",
                "",
                "target h = habit@0.3",
                "  all sites: 4 decisions, effective sample size 1.471, 0 unsupported",
                "    metric    direct            IPS               SNIPS             doubly robust",
                "    lookups   1.000 ± 0.000     1.563 ± 1.183     1.000 ± 0.757     1.000 ± 0.000",
                "    used      0.750 ± 0.250     0.313 ± 0.313     0.200 ± 0.200     0.125 ± 0.718",
                "    detours   0.250 ± 0.250     1.250 ± 1.250     0.800 ± 0.800     0.875 ± 0.718",
                "    turns     0.500 ± 0.289     0.313 ± 0.313     0.200 ± 0.200     0.031 ± 0.693",
                "  at s1: 2 decisions, effective sample size 1.000, 0 unsupported",
                "    metric    direct            IPS               SNIPS             doubly robust",
                "    lookups   1.000 ± 0.000     0.625 ± 0.625     1.000 ± 1.000     1.000 ± 0.000",
                "    used      1.000 ± 0.000     0.625 ± 0.625     1.000 ± 1.000     1.000 ± 0.000",
                "    detours   0.000 ± 0.000     0.000 ± 0.000     0.000 ± 0.000     0.000 ± 0.000",
                "    turns     0.500 ± 0.500     0.625 ± 0.625     1.000 ± 1.000     0.813 ± 0.313",
                "  at s2: 2 decisions, effective sample size 1.000, 0 unsupported",
                "    metric    direct            IPS               SNIPS             doubly robust",
                "    lookups   1.000 ± 0.000     2.500 ± 2.500     1.000 ± 1.000     1.000 ± 0.000",
                "    used      0.500 ± 0.500     0.000 ± 0.000     0.000 ± 0.000     -0.750 ± 1.250",
                "    detours   0.500 ± 0.500     2.500 ± 2.500     1.000 ± 1.000     1.750 ± 1.250",
                "    turns     0.500 ± 0.500     0.000 ± 0.000     0.000 ± 0.000     -0.750 ± 1.250",
                ""), r.out());
        StrettoTest.Run floor = run("evaluate", "--target", "h=habit@0.3", log.toString());
        assertTrue(floor.out().contains("  all sites: 4 decisions, effective sample size 1.471, 0 unsupported (below 10:"
                + " weighted estimates refused)\n    metric    direct            IPS               SNIPS             doubly"
                + " robust\n    lookups   1.000 ± 0.000     -                 -                 -\n"), floor.out());
    }

    @Test
    void aLookupTheLogCouldNeverHaveTakenIsUnsupported() throws Exception {
        // The habit target prefers L1, whose logged p is 0: no exploration could have taken it.
        Path log = Files.writeString(tmp.resolve("u.flow.jsonl"), decision(1, "s1", "L2", "L2", 1.0,
                option("L1", 0.0, 0.9, 0.9) + "," + option("L2", 0.5, 0.1, 0.9),
                label(true, false, true) + "," + label(false, false, false)) + "\n");
        assertEquals(1, estimates(log, "h=habit@0.3").unsupported());
    }

    @Test
    void decisionsThatCannotBeEvaluatedAreNamedWithFileAndLine() throws Exception {
        Path log = smallLog();
        StrettoTest.Run arbiter = run("evaluate", "--target", "a=arbiter@0.3", log.toString());
        assertEquals(1, arbiter.status());
        assertEquals("stretto: " + log + ":1: --target a decides with the logged arbiter probabilities, but this"
                + " decision was logged by reach\n", arbiter.err());
        Path noLabels = Files.writeString(tmp.resolve("n.flow.jsonl"), Files.readString(log)
                .replaceFirst(",\"labels\":\\[[^\\]]*\\]", ""));
        StrettoTest.Run missing = run("evaluate", "--target", "h=habit@0.3", noLabels.toString());
        assertEquals(1, missing.status());
        assertEquals("stretto: " + noLabels + ":1: a decision without \"labels\": each decision needs a list of"
                + " {\"used\", \"detour\", \"turn\"}, one per option of its policy\n", missing.err());
        Path short_ = Files.writeString(tmp.resolve("x.flow.jsonl"), Files.readString(log)
                .replaceFirst(",\\{\"detour\":true,\"turn\":false,\"used\":false\\}\\]", "]"));
        StrettoTest.Run mismatch = run("evaluate", "--target", "h=habit@0.3", short_.toString());
        assertEquals(1, mismatch.status());
        assertEquals("stretto: " + short_ + ":1: 1 labels for 2 options of the policy\n", mismatch.err());
    }

    @Test
    void usageErrorsSayWhatIsWrong() {
        assertUsage("at least one --target NAME=DECIDER@THRESHOLD is needed", "evaluate", "x.flow.jsonl");
        assertUsage("--target takes NAME=DECIDER@THRESHOLD (such as greedy=reach@0.3), not 'reach'", "evaluate",
                "--target", "reach", "x.flow.jsonl");
        assertUsage("--target g=best@0.3: unknown decider 'best' (arbiter, habit or reach)", "evaluate", "--target",
                "g=best@0.3", "x.flow.jsonl");
        assertUsage("--target g=habit@2: the threshold must be a number from 0 to 1", "evaluate", "--target",
                "g=habit@2", "x.flow.jsonl");
        assertUsage("no flow log given", "evaluate", "--target", "g=habit@0.3");
        assertUsage("--min-ess takes a number, 0 or more, not 'many'", "evaluate", "--target", "g=habit@0.3",
                "--min-ess", "many", "x.flow.jsonl");
    }

    private static void assertUsage(String message, String... args) {
        StrettoTest.Run r = run(args);
        assertEquals(2, r.status(), r.err());
        assertEquals("stretto: evaluate: " + message + " (see 'stretto evaluate --help')\n", r.err());
    }
}
