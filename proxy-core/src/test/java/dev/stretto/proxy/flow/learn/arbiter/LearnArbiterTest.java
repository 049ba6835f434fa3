package dev.stretto.proxy.flow.learn.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.Oracle;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.OracleSettings;
import dev.stretto.proxy.flow.FlowException;
import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.Learning;
import dev.stretto.proxy.flow.Progress;
import dev.stretto.proxy.flow.arbiter.Arbiter;
import dev.stretto.proxy.flow.arbiter.ArbiterAnswers;
import dev.stretto.proxy.flow.arbiter.OptionFeatures;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Fold;
import dev.stretto.proxy.flow.model.Predicate;
import dev.stretto.proxy.flow.predict.Predictions;
import dev.stretto.proxy.flow.predict.Steps;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.TokenUsage;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.UnaryOperator;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Learning ({@link Learning}, what {@code stretto learn} runs) on its arbiter path and with an
 * arbiter from a file, on the six shop sessions, with the System-One answers in a cache this
 * test writes.
 */
class LearnArbiterTest {

    private static final String SHOP = "home/logs/shop";
    private static final List<String> HELD_OUT = List.of("20260928T020400.587Z-14486", "20260928T020400.679Z-14565");
    private static final String PREDICATES = "{\"predicates\":["
            + "{\"id\":\"more\",\"favors\":\"any_lookup\",\"question\":\"Is more to look up?\",\"yes\":\"More.\","
            + "\"no\":\"Nothing.\"},"
            + "{\"id\":\"ask\",\"favors\":\"hand_back\",\"question\":\"Must it ask the customer?\",\"yes\":\"Ask.\","
            + "\"no\":\"Go on.\"}]}";
    private static final Pattern COMPILED = Pattern.compile("\"compiled_unix_ms\":\\d+");

    @TempDir
    Path tmp;

    /**
     * What learning said and whether it wrote the flow.
     *
     * @param status 0 when the flow was written to its file, 1 when learning refused the input
     * @param err    each progress line and the refusal as {@code stretto learn} prints them
     */
    record Run(int status, String err) {
    }

    /** Learns from the shop sessions as {@code how} sets the path up, writing the flow to {@code out}. */
    private static Run learn(Path out, UnaryOperator<Learning> how) throws IOException {
        StringBuilder err = new StringBuilder();
        Progress lines = line -> err.append("stretto: ").append(line).append('\n');
        try {
            FlowFiles.write(how.apply(Learning.fromDirectory(Fixtures.file(SHOP)).domain("shop")).progress(lines)
                    .learn().flow(), out);
            return new Run(0, err.toString());
        } catch (FlowException e) {
            lines.line(e.getMessage());
            return new Run(1, err.toString());
        } catch (InterruptedException e) {
            throw new AssertionError(e);
        }
    }

    private static Oracle oracle(OracleMode mode, Path cache) {
        OracleSettings.Builder b = OracleSettings.builder(mode);
        return (cache == null ? b : b.cache(cache)).build().open();
    }

    /** The flow the arbiter path learns its habit into: habit-only over the four training sessions. */
    private Flow trainingHabit(List<Predicate> predicates) throws Exception {
        Path train = Files.createDirectories(tmp.resolve("train"));
        try (var files = Files.list(Fixtures.file(SHOP))) {
            for (Path f : files.toList()) {
                if (HELD_OUT.stream().noneMatch(h -> f.getFileName().toString().startsWith(h))) {
                    Files.copy(f, train.resolve(f.getFileName()));
                }
            }
        }
        Flow habit = Flow.of(Learning.fromDirectory(train).domain("shop").habitOnly().learn().flow());
        return habit.withArbiter(habit.provenance(), predicates, predicates, List.of(), "jev-latest", false);
    }

    private static List<Episode> heldOut() throws IOException {
        List<Episode> episodes = new ArrayList<>();
        for (String id : HELD_OUT) {
            Episode e = Timeline.of(SessionLog.read(Fixtures.file(SHOP + "/" + id + ".jsonl"))).episode();
            episodes.add(new Episode(e.id(), e.id(), 0, "shop", e.agentModel(), 1.0, e.events()));
        }
        return episodes;
    }

    /** The answers this test gives to question {@code i}: varied, so that the fit has something to fit. */
    static Response answers(int i, List<String> offered, boolean complete) {
        Map<String, Answer> a = new LinkedHashMap<>();
        Map<String, Double> next = new HashMap<>();
        double lookups = 0.35 + 0.1 * (i % 5);
        offered.forEach(o -> next.put(o, lookups / offered.size()));
        next.put("respond", 1 - lookups);
        String choice = lookups >= 0.5 ? offered.getFirst() : "respond";
        a.put("next", new Answer.Choice(choice, next, 0.7));
        if (complete) {
            a.put("go_on", new Answer.Noul(0.25 + 0.15 * (i % 4)));
        }
        if (offered.size() > 1) {
            Map<String, Double> shares = new HashMap<>();
            offered.forEach(o -> shares.put(o, 1.0 / offered.size()));
            a.put("tool", new Answer.Choice(offered.getFirst(), shares, 0.5));
        }
        a.put("pred_more", new Answer.Noul(0.2 + 0.1 * (i % 6)));
        a.put("pred_ask", new Answer.Noul(0.7 - 0.1 * (i % 5)));
        return Response.of("jev-1.13.0", a, new TokenUsage(100, 10));
    }

    @Test
    void theArbiterPathFitsOnTheHeldOutAnswersOfAReplayedCache() throws Exception {
        Path predicatesFile = Files.writeString(tmp.resolve("predicates.json"), PREDICATES);
        Flow asking = trainingHabit(dev.stretto.proxy.flow.file.ArbiterFiles.predicates(PREDICATES));
        List<HeldOutDecision> decisions = new ArrayList<>();
        List<ArbiterQuestions.Asked> asked = ArbiterQuestions.of(asking, heldOut(), decisions);
        // c2: after find_user, get_user and each get_order; c5 the same, and after its cancel, whose site offers
        // nothing, so nothing is asked there.
        assertEquals(9, decisions.size());
        assertEquals(8, asked.size());
        Path cacheDir = tmp.resolve("cache");
        OracleCache cache = new OracleCache(cacheDir);
        for (int i = 0; i < asked.size(); i++) {
            cache.put(asked.get(i).request().key(), answers(i, asked.get(i).decision().offered(), i != 3));
        }

        Path out = tmp.resolve("shop.flow.json");
        Run r;
        try (Oracle replay = oracle(OracleMode.REPLAY, cacheDir)) {
            r = learn(out, l -> l.arbiter(replay).predicates(predicatesFile));
        }
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: held out 2 of 6 tasks to fit the arbiter on; the habit learns from the"
                + " other 4\n"), r.err());
        assertTrue(r.err().contains("stretto: 6 sessions, 4 training, 4 successful with "), r.err());
        assertTrue(r.err().contains("stretto: arbiter: 9 decisions in the 2 held-out sessions, 8 at sites with"
                + " lookups to ask about (8 answered in the cache " + cacheDir + ")\n"), r.err());
        assertTrue(r.err().contains("stretto: arbiter: 7 cases (1 incomplete answers left out), 7 with the agent's"
                + " choice offered; 7 weights fitted in "), r.err());

        Flow flow = Flow.of(FlowFiles.read(out));
        assertEquals(4, flow.provenance().habitEpisodes());
        assertEquals(7, flow.provenance().arbiterCases());
        assertEquals("jev-latest", flow.model());
        assertEquals(asking.predicates(), flow.predicates());
        assertEquals(flow.predicates(), flow.weighed());
        assertEquals(5, flow.folds().size());
        assertTrue(flow.folds().stream().allMatch(f -> f.equals(flow.folds().getFirst())), "five identical folds");
        assertFalse(flow.sites().everyRead());
        assertEquals(asking.habit(), flow.habit());

        // The rates, counted here from the answers given: who the model picked, and what the agent did.
        Map<String, double[]> bySite = new java.util.TreeMap<>();
        double agreed = 0;
        List<Integer> complete = new ArrayList<>();
        for (int i = 0; i < asked.size(); i++) {
            if (i == 3) {
                continue;
            }
            complete.add(i);
            HeldOutDecision d = asked.get(i).decision();
            String picked = 0.35 + 0.1 * (i % 5) >= 0.5 ? d.offered().getFirst() : "respond";
            double[] n = bySite.computeIfAbsent(d.site().name(), s -> new double[3]);
            n[0]++;
            n[2]++;
            if (picked.equals(d.agentOption())) {
                n[1]++;
                agreed++;
            }
        }
        Fold fold = flow.folds().getFirst();
        List<Fold.SiteRates> expected = new ArrayList<>();
        bySite.forEach((site, n) -> expected.add(new Fold.SiteRates(site, n[0], n[1], n[2])));
        assertEquals(new Fold.Rates(expected, agreed / 7, 1.0), fold.rates());

        // The weights: the penalised objective's gradient, computed here, is zero there (to what the Newton
        // stopping rule leaves: an iteration gaining under 1e-9 is the last, its gradient about the square of
        // the one before).
        double[] w = fold.weights().stream().mapToDouble(Double::doubleValue).toArray();
        double[] gradient = new double[w.length];
        Predictions predictions = new Predictions(asking);
        for (int i : complete) {
            HeldOutDecision d = asked.get(i).decision();
            ArbiterAnswers answers = ArbiterAnswers.of(answers(i, d.offered(), true), d.offered(),
                    asking.predicates());
            List<Long> history = Steps.history(Steps.of(asking, d.view().episode()));
            OptionFeatures f = OptionFeatures.of(d.offered(), predictions.habitPrior(history, d.offered()), answers,
                    asking.weighed(), d.site().tool());
            double[][] x = f.withReliability(Arbiter.reliability(fold.rates(), d.site().name()));
            int actual = f.options().indexOf(d.agentOption());
            double[] e = new double[x.length];
            double sum = 0;
            for (int o = 0; o < x.length; o++) {
                double s = 0;
                for (int k = 0; k < w.length; k++) {
                    s += x[o][k] * w[k];
                }
                e[o] = Math.exp(s);
                sum += e[o];
            }
            for (int k = 0; k < w.length; k++) {
                double mean = 0;
                for (int o = 0; o < x.length; o++) {
                    mean += e[o] / sum * x[o][k];
                }
                gradient[k] += x[actual][k] - mean;
            }
        }
        for (int k = 0; k < w.length; k++) {
            assertEquals(0.0, gradient[k] - w[k], 1e-6, "gradient " + k);
        }
    }

    @Test
    void manifestOptionsOfferEveryReadAndRefitHabitLearnsTheHabitFromEverySession() throws IOException {
        Path out = tmp.resolve("shop.flow.json");
        Run r;
        try (Oracle mock = oracle(OracleMode.MOCK, null)) {
            r = learn(out, l -> l.arbiter(mock).offerEveryRead(true).refitHabit(true));
        }
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("(mock answers)"), r.err());
        assertTrue(r.err().contains("stretto: learning the habit again from every session (--refit-habit)\n"), r.err());
        Flow flow = Flow.of(FlowFiles.read(out));
        assertTrue(flow.sites().everyRead());
        assertEquals(6, flow.provenance().habitEpisodes());
        assertEquals(5, flow.folds().getFirst().weights().size());
        assertTrue(flow.provenance().arbiterCases() > 8, "every read is asked about at every site after a call");
        String habitOnly = Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8);
        Flow reference = Flow.of(FlowFiles.parse(habitOnly));
        assertEquals(reference.habit(), flow.habit());
        assertEquals(reference.bindings(), flow.bindings());
    }

    @Test
    void questionsTheCacheCannotAnswerStopLearningBeforeAnythingIsAsked() throws IOException {
        Path out = tmp.resolve("f.json");
        Path cacheDir = tmp.resolve("empty-cache");
        Run replay;
        try (Oracle o = oracle(OracleMode.REPLAY, cacheDir)) {
            replay = learn(out, l -> l.arbiter(o));
        }
        assertEquals(1, replay.status());
        assertTrue(replay.err().contains("stretto: --oracle replay answers from the cache only, and 8 of the 8"
                + " questions are not in " + cacheDir + " (the first: "), replay.err());

        Run noKey;
        try (Oracle o = oracle(OracleMode.JEV, cacheDir)) {
            noKey = learn(out, l -> l.arbiter(o));
        }
        assertEquals(1, noKey.status());
        assertTrue(noKey.err().endsWith("stretto: 8 questions about the held-out sessions are not in the cache "
                + cacheDir + ", and asking System-One (--oracle jev, the default) needs a TypeSafe API key: set"
                + " TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE, or use --oracle replay with a cache of answers,"
                + " --oracle mock to try it out, or --habit-only to learn without a model\n"), noKey.err());

        Run broke;
        try (Oracle o = OracleSettings.builder(OracleMode.JEV).cache(cacheDir).apiKey(ApiKey.of("sk-test")).build()
                .open()) {
            broke = learn(out, l -> l.arbiter(o).budget(0));
        }
        assertEquals(1, broke.status());
        assertTrue(broke.err().matches("(?s).*stretto: the 8 questions not in the cache " + Pattern.quote(
                cacheDir.toString()) + " would cost about \\$0\\.\\d{4}, more than --oracle-budget \\$0\\.0000: raise"
                + " the budget to ask them\n"), broke.err());
        assertFalse(broke.err().contains("sk-test"));
        assertTrue(Files.notExists(out));
    }

    @Test
    void anArbiterFileGivesTheHabitOnlyFlowFiveCopiesOfItsFold() throws IOException {
        String fitted = "{\"weights\":[0.5,0.25,0.125,-1.0,2.0,0.75],\"rates\":{\"sites\":[[\"get_order_details\","
                + "[10.0,7.0,9.0]]],\"agree\":0.7,\"cover\":0.9}}";
        String predicate = "{\"id\":\"more\",\"favors\":{\"lookup\":\"get_order_details\"},\"question\":\"More?\","
                + "\"yes\":\"Yes.\",\"no\":\"No.\"}";
        Path file = Files.writeString(tmp.resolve("retail.arbiter.json"), "{\n  \"stretto_arbiter\": 1,\n"
                + "  \"domain\": \"retail\",\n  \"provenance\": {\"stretto\": \"0.1.0\", \"sources\": [\"gpt-4.1\","
                + " \"o4-mini\"], \"habit_episodes\": 0, \"arbiter_cases\": 812, \"compiled_unix_ms\": 1},\n"
                + "  \"predicates\": [" + predicate + "],\n  \"weighed\": [" + predicate + "],\n"
                + "  \"fitted\": " + fitted + ",\n  \"model\": \"jev-latest\"\n}\n");
        Path out = tmp.resolve("shop.flow.json");
        Run r = learn(out, l -> l.arbiterFrom(file));
        assertEquals(0, r.status(), r.err());
        String written = COMPILED.matcher(Files.readString(out, StandardCharsets.UTF_8)).replaceFirst("");
        String reference = COMPILED.matcher(Files.readString(Fixtures.file("home/shop.flow.json"),
                StandardCharsets.UTF_8)).replaceFirst("");
        String arbiterFields = "\"predicates\":[" + predicate + "],\"weighed\":[" + predicate + "],\"folds\":["
                + String.join(",", java.util.Collections.nCopies(5, fitted)) + "]";
        String expected = reference
                .replace("\"sources\":[\"quickstart\"]", "\"sources\":[\"quickstart\",\"arbiter (retail): gpt-4.1\","
                        + "\"arbiter (retail): o4-mini\"]")
                .replace("\"arbiter_cases\":0", "\"arbiter_cases\":812")
                .replace("\"predicates\":[],\"weighed\":[],\"folds\":[]", arbiterFields)
                .replace("\"model\":\"\"", "\"model\":\"jev-latest\"");
        assertEquals(expected, written);
    }

    @Test
    void aFlowWithAnArbiterLendsItsFoldsSourcesAndCasesAsTheyAre() throws IOException {
        Path out = tmp.resolve("shop.flow.json");
        Path from = Fixtures.file("retail-5-sessions-shipped-arbiter.flow.json");
        Run r = learn(out, l -> l.arbiterFrom(from));
        assertEquals(0, r.status(), r.err());
        Flow shipped = Flow.of(FlowFiles.read(from));
        Flow flow = Flow.of(FlowFiles.read(out));
        List<String> sources = new ArrayList<>(List.of("quickstart"));
        shipped.provenance().sources().forEach(s -> sources.add("arbiter: " + s));
        assertEquals(sources, flow.provenance().sources());
        assertEquals("arbiter: arbiter (retail): claude-3-7-sonnet-20250219", flow.provenance().sources().get(2));
        assertEquals(4513, flow.provenance().arbiterCases());
        assertEquals(6, flow.provenance().habitEpisodes());
        assertEquals(shipped.folds(), flow.folds());
        assertEquals(shipped.predicates(), flow.predicates());
        assertEquals(shipped.weighed(), flow.weighed());
        assertEquals("jev-latest", flow.model());
        Flow habitOnly = Flow.of(FlowFiles.read(Fixtures.file("home/shop.flow.json")));
        assertEquals(habitOnly.format(), flow.format(), "the version is the habit's, not recomputed");
        assertEquals(habitOnly.habit(), flow.habit());
        assertEquals(habitOnly.sites(), flow.sites());
    }

    @Test
    void aFlowWithoutAnArbiterHasNoneToLend() throws IOException {
        Run r = learn(tmp.resolve("f.json"), l -> l.arbiterFrom(Fixtures.file("home/shop.flow.json")));
        assertEquals(1, r.status());
        assertTrue(r.err().endsWith("stretto: the flow to take an arbiter from has none\n"), r.err());
    }
}
