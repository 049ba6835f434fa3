package dev.stretto.proxy.flow.arbiter;

import static dev.stretto.proxy.flow.FlowTesting.RETAIL;
import static dev.stretto.proxy.flow.FlowTesting.cutAt;
import static dev.stretto.proxy.flow.FlowTesting.flow;
import static dev.stretto.proxy.flow.FlowTesting.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.FlowRun;
import dev.stretto.proxy.flow.run.FlowSession;
import dev.stretto.proxy.flow.run.RunStep;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ReplayOracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.TokenUsage;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The shipped arbiter (retail-5-sessions-shipped-arbiter.flow.json) deciding after the retail
 * session's {@code get_order_details} call, with the System-One answers replayed from a cache
 * this test writes (issue 11).
 */
class ArbiterDecisionTest {

    private static final Flow ARBITER = flow(NextStepRequestTest.ARBITER);
    private static final SessionLog LOG = log(RETAIL);
    private static final JsonNode RESPONSE_6 = CanonicalJson.parse("{\"id\":6,\"jsonrpc\":\"2.0\",\"result\":{"
            + "\"content\":[{\"text\":\"{}\",\"type\":\"text\"}],\"isError\":false}}");

    @TempDir
    Path cacheDir;

    private final List<String> lines = new ArrayList<>();

    private FlowSession session(Flow flow) throws ProxyStartException {
        return FlowSession.start(flow, "a.flow.json", FlowOptions.DEFAULTS, LOG.session(), lines::add,
                w -> { throw new AssertionError(w); }, () -> 0L);
    }

    /** The answers the test's cache holds: next, go_on, tool and the three predicates. */
    private static Response answers(boolean withTool) {
        Map<String, Answer> a = new LinkedHashMap<>();
        a.put("next", new Answer.Choice("get_order_details",
                Map.of("get_order_details", 0.5, "get_product_details", 0.2, "respond", 0.3), 0.5));
        a.put("go_on", new Answer.Noul(0.6));
        if (withTool) {
            a.put("tool", new Answer.Choice("get_order_details",
                    Map.of("get_order_details", 0.75, "get_product_details", 0.25), 0.75));
        }
        a.put("pred_list_pending", new Answer.Noul(0.9));
        a.put("pred_needs_options", new Answer.Noul(0.2));
        a.put("pred_must_ask", new Answer.Noul(0.1));
        return Response.of("jev-1.13.0", a, new TokenUsage(1200, 40));
    }

    private OracleOutcome replay(Request request) throws InterruptedException {
        return OracleOutcome.ask(new ReplayOracle(new OracleCache(cacheDir)), request);
    }

    @Test
    void flowsWithFoldsAreServedByTheArbiterWhichAsksOneRequestPerDecision() throws Exception {
        FlowSession s = session(ARBITER);
        assertEquals(DeciderKind.ARBITER, s.decider());
        FlowRun run = s.startRun(RESPONSE_6.get("id"), "get_order_details", RESPONSE_6);
        RunStep.Ask ask = assertInstanceOf(RunStep.Ask.class, run.decide(cutAt(LOG, "6")));
        assertEquals(1, s.questions());
        assertEquals(List.of("go_on", "next", "pred_list_pending", "pred_must_ask", "pred_needs_options", "tool"),
                List.copyOf(ask.request().questions().keySet()));
        new OracleCache(cacheDir).put(ask.request().key(), answers(true));

        RunStep.Lookup lookup = assertInstanceOf(RunStep.Lookup.class, run.resume(replay(ask.request())));
        assertEquals("get_order_details", lookup.tool());
        assertEquals("{\"order_id\":\"#W61b\"}", CanonicalJson.write(lookup.arguments()));
        assertEquals(1, s.questions());

        JsonNode line = CanonicalJson.parse(lines.getFirst());
        assertEquals(ask.request().key(), line.get("key").textValue());
        assertEquals("{\"get_order_details\":0.5,\"get_product_details\":0.2,\"respond\":0.3}",
                CanonicalJson.write(line.get("oracle")));
        assertEquals("{\"list_pending\":0.9,\"must_ask\":0.1,\"needs_options\":0.2}",
                CanonicalJson.write(line.get("predicates")));
        assertEquals("get_order_details", line.get("site").textValue());
        assertEquals(0.9, line.get("binding").doubleValue());

        double[] expected = byHand().probs();
        JsonNode probs = line.get("probs");
        List<String> options = new ArrayList<>();
        probs.fieldNames().forEachRemaining(options::add);
        assertEquals(List.of("get_order_details", "get_product_details", "respond"), options);
        assertEquals(expected[0], probs.get("get_order_details").doubleValue(), 1e-12);
        assertEquals(expected[1], probs.get("get_product_details").doubleValue(), 1e-12);
        assertEquals(expected[2], probs.get("respond").doubleValue(), 1e-12);
        assertEquals(expected[0], line.get("prob").doubleValue(), 1e-12);
    }

    /**
     * The decision's probabilities worked out from the numbers in the flow file and the answers,
     * without the arbiter's code. History: find_user_id_by_email failed (id 4: symbol
     * (4*4+1)*4096 = 69632), then ok (65536), get_user_details ok (id 9: 147456),
     * get_order_details ok (id 7: 114688). Options in name order: get_order_details (7),
     * get_product_details (8), respond.
     */
    private record HandWork(double[] prior, double[][] x, double[] probs) {
    }

    private static HandWork byHand() {
        // The habit: vocab_size 18, alpha = beta = 8.017279693592648. Counts from the file:
        // level 0 [] : n7 = 9, n8 = 3, total 44; level 1 [114688]: n7 = 6, n8 = 2, total 9;
        // level 2 [147456, 114688]: n7 = 2, total 2; top (1, [147456, 114688]) repeats level 2.
        double a = 8.017279693592648;
        double p7 = 1.0 / 18;
        double p8 = 1.0 / 18;
        p7 = (9 + a * p7) / (44 + a);
        p8 = (3 + a * p8) / (44 + a);
        p7 = (6 + a * p7) / (9 + a);
        p8 = (2 + a * p8) / (9 + a);
        p7 = (2 + a * p7) / (2 + a);
        p8 = (a * p8) / (2 + a);
        p7 = (2 + a * p7) / (2 + a);
        p8 = (a * p8) / (2 + a);
        double respond = 1 - p7 - p8;
        // Site get_order_details: rates [1618, 1152, 1618], agree 0.7518280522933747, cover 0.9909151340571681.
        double r = (1152 + 10 * 0.7518280522933747) / (1618 + 10);
        double coverage = (1618 + 10 * 0.9909151340571681) / (1618 + 10);
        // Features: habit, next, split (go_on 0.6 times the tool shares 0.75 / 0.25; respond 1 - 0.6),
        // respond, list_pending (same lookup: yes 0.9), needs_options (any lookup: 0.2),
        // must_ask (hand back: 0.1), reliability on the picked option (get_order_details).
        double[][] x = {
            {Math.log(p7), Math.log(0.5), Math.log(0.6 * 0.75), 0, Math.log(0.9 / 0.1), Math.log(0.2 / 0.8), 0,
                Math.log(r / (1 - r))},
            {Math.log(p8), Math.log(0.2), Math.log(0.6 * 0.25), 0, 0, Math.log(0.2 / 0.8), 0, 0},
            {Math.log(respond), Math.log(0.3), Math.log(1 - 0.6), 1, 0, 0, Math.log(0.1 / 0.9), 0},
        };
        double[] w = {0.2719489498384302, 0.1673080203464346, 0.34536493295912846, 0.23139391841515733,
            0.9338724443545685, 0.25637401504797896, 0.3028698185574397, 0.3231925457536992};
        double[] e = new double[3];
        double sum = 0;
        for (int i = 0; i < 3; i++) {
            double s = 0;
            for (int k = 0; k < w.length; k++) {
                s += x[i][k] * w[k];
            }
            e[i] = Math.exp(s);
            sum += e[i];
        }
        return new HandWork(new double[] {p7, p8, respond}, x,
                new double[] {e[0] / sum * coverage, e[1] / sum * coverage, e[2] / sum * coverage});
    }

    @Test
    void theFeaturesOfEachOptionAreTheHandComputedOnesInWeightOrder() {
        HandWork hand = byHand();
        List<String> offered = List.of("get_order_details", "get_product_details");
        Map<String, Double> prior = Map.of("get_order_details", hand.prior()[0], "get_product_details", hand.prior()[1],
                "respond", hand.prior()[2]);
        ArbiterAnswers answers = ArbiterAnswers.of(answers(true), offered, ARBITER.predicates());
        OptionFeatures f = OptionFeatures.of(offered, prior, answers, ARBITER.weighed(), "get_order_details");
        assertEquals(List.of("get_order_details", "get_product_details", "respond"), f.options());
        assertEquals(0, f.picked());
        double[][] x = f.withReliability(Arbiter.reliability(ARBITER.folds().getFirst().rates(), "get_order_details"));
        for (int i = 0; i < 3; i++) {
            for (int k = 0; k < 8; k++) {
                assertEquals(hand.x()[i][k], x[i][k], 1e-12, "feature " + k + " of option " + i);
            }
        }
        assertTrue(hand.probs()[0] > 0.3 && hand.probs()[0] > hand.probs()[1], "get_order_details leads");
    }

    @Test
    void aSiteTheFoldNeverJudgedTakesTheOverallRates() {
        Fold.Rates rates = ARBITER.folds().getFirst().rates();
        assertEquals(0.7518280522933747, Arbiter.reliability(rates, "get_user_details (error)"));
        assertEquals(0.9909151340571681, Arbiter.coverage(rates, "get_user_details (error)"));
        assertEquals((26 + 10 * 0.7518280522933747) / 36, Arbiter.reliability(rates, "calculate"));
    }

    @Test
    void aReplayMissHandsBackWithTheModelsErrorAndTheKey() throws Exception {
        FlowSession s = session(ARBITER);
        FlowRun run = s.startRun(RESPONSE_6.get("id"), "get_order_details", RESPONSE_6);
        RunStep.Ask ask = assertInstanceOf(RunStep.Ask.class, run.decide(cutAt(LOG, "6")));
        assertInstanceOf(RunStep.Finished.class, run.resume(replay(ask.request())));
        JsonNode line = CanonicalJson.parse(lines.getFirst());
        String key = ask.request().key();
        assertEquals("hand_back", line.get("action").textValue());
        assertEquals("the System-One model failed: replay cache miss for request " + key,
                line.get("reason").textValue());
        assertEquals(key, line.get("key").textValue());
        assertEquals("{}", CanonicalJson.write(line.get("probs")));
    }

    @Test
    void anAnswerWithoutTheToolQuestionIsIncomplete() throws Exception {
        FlowSession s = session(ARBITER);
        FlowRun run = s.startRun(RESPONSE_6.get("id"), "get_order_details", RESPONSE_6);
        RunStep.Ask ask = assertInstanceOf(RunStep.Ask.class, run.decide(cutAt(LOG, "6")));
        new OracleCache(cacheDir).put(ask.request().key(), answers(false));
        assertInstanceOf(RunStep.Finished.class, run.resume(replay(ask.request())));
        JsonNode line = CanonicalJson.parse(lines.getFirst());
        assertEquals("the System-One answer was incomplete", line.get("reason").textValue());
        assertEquals(ask.request().key(), line.get("key").textValue());
    }

    @Test
    void anArbiterWhoseWeightsDoNotMatchItsPredicatesCannotBeServed() {
        Fold f = ARBITER.folds().getFirst();
        Fold shorter = new Fold(f.weights().subList(0, 7), f.rates());
        Flow bad = new Flow(ARBITER.format(), ARBITER.provenance(), ARBITER.vocab(), ARBITER.manifest(), ARBITER.map(),
                ARBITER.group(), ARBITER.habit(), ARBITER.sites(), ARBITER.predicates(), ARBITER.weighed(),
                List.of(shorter, shorter, shorter, shorter, shorter), ARBITER.bindings(), ARBITER.model(),
                ARBITER.program(), null, ARBITER.thresholds(), ARBITER.contracts(), ARBITER.reach());
        assertEquals("the flow a.flow.json cannot be served with its arbiter: its arbiter weighs 3 predicates, which"
                        + " takes 8 weights per fold, not 7",
                assertThrows(ProxyStartException.class, () -> session(bad)).getMessage());
    }
}
