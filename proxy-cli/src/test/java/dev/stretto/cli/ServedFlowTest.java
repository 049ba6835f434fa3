package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.FlowLog;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.Fixtures;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flows served by {@code stretto-proxy --flow} (the command's own code, in this JVM) in front of
 * the real {@code stretto-mcp-demo --world retail}, with recorded sessions replayed as their
 * hosts sent them ({@link ProxyReplay}): the reference's served session gives the reference's
 * lookups and flow log, and each option changes what it should.
 */
class ServedFlowTest {

    private static final String SERVED = "home/served/shop/20260928T020401.117Z-14662";
    private static final String RETAIL = "home/logs/retail/20260928T020401.312Z-14780.jsonl";
    private static final String C1 = "home/logs/shop/20260928T020400.548Z-14457.jsonl";
    private static final String SHOP_FLOW = Fixtures.file("home/shop.flow.json").toString();

    @TempDir
    Path tmp;

    private Map<String, String> env() {
        return Map.of("HOME", tmp.toString());
    }

    private static SessionLog fixture(String name) throws Exception {
        return SessionLog.read(Fixtures.file(name));
    }

    /** Replays {@code log} with {@code --record DIR --context FILE} (a new conversation) and {@code options}. */
    private ProxyReplay.Result replay(String log, List<String> options, String... demo) throws Exception {
        Files.deleteIfExists(tmp.resolve("chat.jsonl"));
        List<String> args = new ArrayList<>(List.of("--record", logs().toString(), "--context",
                tmp.resolve("chat.jsonl").toString()));
        args.addAll(options);
        return ProxyReplay.replay(fixture(log), tmp.resolve("chat.jsonl"), env(), args, demo);
    }

    private Path logs() {
        return tmp.resolve("logs");
    }

    /** The session log the replay recorded. */
    private SessionLog recorded() throws Exception {
        List<Path> logs = SessionLog.logFiles(logs());
        assertEquals(1, logs.size(), logs.toString());
        return SessionLog.read(logs.getFirst());
    }

    /** The flow log next to the recorded session log. */
    private List<String> flowLog() throws Exception {
        return Files.readAllLines(FlowLog.besideSessionLog(SessionLog.logFiles(logs()).getFirst()),
                StandardCharsets.UTF_8);
    }

    private static List<String> messages(SessionLog log, Source from) {
        List<String> out = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == from && e.payload() instanceof Payload.Message m) {
                out.add(m.json());
            }
        }
        return out;
    }

    private static List<String> withoutMs(List<String> lines) {
        return lines.stream().map(l -> l.replaceFirst(",\"ms\":[0-9]+,", ",\"ms\":_,")).toList();
    }

    @Test
    void theServedSessionReplayedThroughTheProxyMakesTheReferencesLookupsAndWritesItsFlowLog() throws Exception {
        SessionLog reference = fixture(SERVED + ".jsonl");
        ProxyReplay.Result r = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", SHOP_FLOW));
        assertEquals(0, r.status(), r.stderr());
        SessionLog ours = recorded();
        List<String> proxy = messages(ours, Source.PROXY);
        assertEquals(messages(reference, Source.PROXY), proxy, "the lookups stretto-1 to 3 and the reply, byte for byte");
        assertEquals(4, proxy.size());
        assertEquals(withoutMs(Files.readAllLines(Fixtures.file(SERVED + ".flow.jsonl"), StandardCharsets.UTF_8)),
                withoutMs(flowLog()));
        assertTrue(r.received().contains(proxy.getLast()), "the host got the reply with the lookups appended");
        assertTrue(r.stderr().contains("stretto-proxy: serving the shop flow from " + SHOP_FLOW + ", deciding with reach\n"),
                r.stderr());
    }

    /** shop.flow.json with {@code text} inserted before its contracts (format 2 when {@code v2}). */
    private Path shopWith(String name, String text, boolean v2) throws Exception {
        String flow = Files.readString(Path.of(SHOP_FLOW), StandardCharsets.UTF_8);
        int at = flow.indexOf(",\"contracts\":");
        String changed = flow.substring(0, at) + text + flow.substring(at);
        Path file = tmp.resolve(name);
        Files.writeString(file, v2 ? changed.replaceFirst("^\\{\"stretto_flow\":1,", "{\"stretto_flow\":2,") : changed,
                StandardCharsets.UTF_8);
        return file;
    }

    @Test
    void inShadowTheHostGetsTheServersBytesAndEachCallOneShadowDecision() throws Exception {
        ProxyReplay.Result r = replay(C1, List.of("--domain", "shop", "--flow", SHOP_FLOW, "--flow-shadow"));
        assertEquals(0, r.status(), r.stderr());
        SessionLog ours = recorded();
        assertEquals(List.of(), messages(ours, Source.PROXY), "the proxy sent nothing of its own");
        List<String> server = messages(ours, Source.SERVER);
        assertEquals(server, r.received(), "every line the host got is the server's, as the server wrote it");
        List<String> lines = flowLog();
        assertEquals(10, lines.size(), "five calls, a decision and a run line each");
        for (int i = 0; i < 10; i += 2) {
            assertTrue(lines.get(i).contains(",\"shadow\":true,"), lines.get(i));
            assertTrue(lines.get(i + 1).endsWith(",\"sites\":[[\"decide#0\",0,0.0]],\"surprise\":-0.0}}"), lines.get(i + 1));
        }
        assertTrue(lines.get(0).startsWith("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":3,\"arguments\":"
                + "{\"user_id\":\"user_1\"},\"binding\":0.875,"), lines.get(0));
        assertTrue(lines.get(0).endsWith(",\"shadow\":true,\"site\":\"find_user_id_by_email\",\"tool\":\"get_user_details\"}"),
                lines.get(0));
        assertTrue(r.stderr().contains(", deciding with reach, in shadow\n"), r.stderr());
    }

    @Test
    void exploringWithAFixedSeedDrawsTheLookupTheSeedGivesWithItsPropensity() throws Exception {
        ProxyReplay.Result r = replay(RETAIL, List.of("--domain", "retail", "--flow",
                Fixtures.file("retail-5-sessions.flow.json").toString(), "--flow-shadow", "--flow-threshold", "0.7",
                "--flow-explore", "0.4", "--flow-explore-seed", "0", "--task-id", "20260928T020401.312Z-14780"));
        assertEquals(0, r.status(), r.stderr());
        String after6 = flowLog().stream().filter(l -> l.contains("\"after\":6,") && l.contains("\"action\""))
                .findFirst().orElseThrow();
        JsonNode d = CanonicalJson.parse(after6);
        assertEquals("get_product_details", d.path("tool").asText());
        assertEquals("{\"product_id\":\"p1\"}", CanonicalJson.write(d.path("arguments")));
        JsonNode policy = d.path("policy");
        assertEquals("{\"decider\":\"habit\",\"epsilon\":0.4,\"events\":9,\"explored\":true,\"greedy\":null,"
                + "\"options\":[{\"arguments\":{\"order_id\":\"#W61b\"},\"binding\":0.9,\"habit\":0.6400934855303034,"
                + "\"p\":0.6400934855303034,\"tool\":\"get_order_details\"},{\"arguments\":{\"product_id\":\"p1\"},"
                + "\"binding\":0.5,\"habit\":0.09527122311941329,\"p\":0.09527122311941329,\"tool\":\"get_product_details\"}],"
                + "\"propensity\":0.05182257021517998,\"task_id\":\"20260928T020401.312Z-14780\",\"threshold\":0.7}",
                CanonicalJson.write(policy));
    }

    /**
     * The format-1 flows, without reach counts, served with the habit decider on the retail
     * session (c61: a failed email, then the right one, the user, order #W61a, a cancel). Where
     * the history is the agent's own, the probabilities are those HabitFlowsTest computed from the
     * flows' counts; the proxy's own lookups then count as steps as the agent's calls do.
     */
    @Test
    void theFormatOneRetailFlowsAreServedWithTheHabitDecider() throws Exception {
        ProxyReplay.Result five = replay(RETAIL, List.of("--domain", "retail", "--flow",
                Fixtures.file("retail-5-sessions.flow.json").toString()));
        assertEquals(0, five.status(), five.stderr());
        assertTrue(five.stderr().contains("deciding with habit\n"), five.stderr());
        List<String> lines = withoutMs(flowLog());
        assertEquals(12, lines.size(), lines.toString());
        assertEquals("{\"action\":\"hand_back\",\"address\":\"decide#0\",\"after\":4,\"binding\":null,\"key\":null,"
                + "\"ms\":_,\"oracle\":{},\"predicates\":{},\"prob\":0.25266646721134445,\"probs\":{\"get_user_details\":"
                + "0.25266646721134445,\"respond\":0.7473335327886556},\"reason\":\"get_user_details at 0.25, below 0.3\","
                + "\"site\":\"find_user_id_by_email\"}", lines.get(2));
        assertEquals("{\"action\":\"lookup\",\"address\":\"decide#1\",\"after\":5,\"arguments\":{\"order_id\":\"#W61b\"},"
                + "\"binding\":0.9,\"key\":null,\"ms\":_,\"oracle\":{},\"predicates\":{},\"prob\":0.6400934855303034,"
                + "\"probs\":{\"get_order_details\":0.6400934855303034,\"get_product_details\":0.09527122311941329,"
                + "\"respond\":0.2646352913502833},\"site\":\"get_order_details\",\"tool\":\"get_order_details\"}", lines.get(5));
        assertEquals("{\"after\":5,\"run\":{\"call\":\"get_user_details\",\"failed\":false,\"max_lookups\":8,\"sites\":"
                + "[[\"decide#0\",4,0.0],[\"outcome#0\",true,-0.0953101798043249],[\"decide#1\",4,0.0],"
                + "[\"outcome#1\",true,-0.0953101798043249],[\"decide#2\",0,0.0]],\"surprise\":0.1906203596086498}}",
                lines.get(7));
        assertTrue(lines.get(6).contains("\"reason\":\"get_order_details: nothing left to pass as `order_id`\""),
                lines.get(6));
        assertEquals(List.of("stretto-1", "stretto-2", "5"), ids(messages(recorded(), Source.PROXY)));
        deleteTree(logs());

        ProxyReplay.Result ten = replay(RETAIL, List.of("--domain", "retail", "--flow",
                Fixtures.file("retail-10-sessions.flow.json").toString()));
        assertEquals(0, ten.status(), ten.stderr());
        lines = withoutMs(flowLog());
        assertEquals("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":4,\"arguments\":{\"user_id\":\"user_61\"},"
                + "\"binding\":0.9,\"key\":null,\"ms\":_,\"oracle\":{},\"predicates\":{},\"prob\":0.4153996537791144,"
                + "\"probs\":{\"get_user_details\":0.4153996537791144,\"respond\":0.5846003462208855},"
                + "\"site\":\"find_user_id_by_email\",\"tool\":\"get_user_details\"}", lines.get(2));
        assertTrue(lines.get(3).contains("\"prob\":0.8348391095510218,") && lines.get(4).contains("\"prob\":0.9090328906353874,"),
                lines.subList(3, 5).toString());
        assertEquals("{\"after\":4,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",6,0.0],[\"outcome#0\",true,-0.10536051565782628],[\"decide#1\",4,0.0],"
                + "[\"outcome#1\",true,-0.03390155167568134],[\"decide#2\",4,0.0],[\"outcome#2\",true,-0.03390155167568134],"
                + "[\"decide#3\",0,0.0]],\"surprise\":0.17316361900918897}}", lines.get(6));
        List<String> proxy = messages(recorded(), Source.PROXY);
        assertEquals(List.of("stretto-1", "stretto-2", "stretto-3", "4"), ids(proxy));
        assertTrue(ten.received().contains(proxy.getLast()));
        assertTrue(proxy.getLast().contains("get_user_details {\\\"user_id\\\":\\\"user_61\\\"}:\\n{\\\"email\\\""),
                proxy.getLast());
    }

    private static List<String> ids(List<String> messages) {
        return messages.stream().map(m -> CanonicalJson.parse(m).get("id").asText()).toList();
    }

    private static void deleteTree(Path dir) throws Exception {
        try (var files = Files.walk(dir)) {
            for (Path f : files.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(f);
            }
        }
    }

    @Test
    void onlyTheToolsOfFlowToolsAreLookedUp() throws Exception {
        ProxyReplay.Result r = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", SHOP_FLOW, "--flow-tools",
                "get_order_details", "--flow-tools=cancel_pending_order"));
        assertEquals(0, r.status(), r.stderr());
        assertEquals(List.of(), messages(recorded(), Source.PROXY), "get_user_details is not among them");
        List<String> lines = flowLog();
        assertTrue(lines.get(0).startsWith("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":3,"), lines.get(0));
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",0,0.0]],\"surprise\":-0.0}}", lines.get(1));
    }

    @Test
    void aPromotedFlowHandsBackAtAnUnpromotedSiteAndLooksUpAtAPromotedOne() throws Exception {
        Path promoted = shopWith("promoted.flow.json", ",\"promoted\":{\"bar\":{\"threshold\":0.3,\"min_used\":0.7,"
                + "\"min_lower\":0.5,\"min_tasks\":3},\"sites\":{\"get_user_details\":{\"decisions\":6,\"lookups\":6,"
                + "\"used\":6,\"tasks\":6,\"lower\":0.6,\"promoted\":true},\"find_user_id_by_email\":{\"decisions\":6,"
                + "\"lookups\":6,\"used\":1,\"tasks\":6,\"lower\":0.01,\"promoted\":false}}}", false);
        ProxyReplay.Result r = replay(C1, List.of("--domain", "shop", "--flow", promoted.toString()));
        assertEquals(0, r.status(), r.stderr());
        List<String> lines = flowLog();
        assertTrue(lines.get(0).contains("\"reason\":\"the site is not promoted\",\"site\":\"find_user_id_by_email\""),
                lines.get(0));
        assertTrue(lines.get(2).startsWith("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":4,"
                + "\"arguments\":{\"order_id\":\"#W1a\"}"), lines.get(2));
        assertEquals("{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                + "{\"order_id\":\"#W1a\"},\"name\":\"get_order_details\"}}", messages(recorded(), Source.PROXY).getFirst());
        assertTrue(lines.get(3).contains("\"reason\":\"the site is not promoted\",\"site\":\"get_order_details\""),
                "a site never scored is not promoted: " + lines.get(3));
    }

    @Test
    void aToolTheServerListsAsAWriteOrNotAtAllIsNotLookedUp() throws Exception {
        for (String[] demo : List.of(new String[] {"--hint", "get_user_details=false"},
                new String[] {"--hide", "get_user_details"})) {
            ProxyReplay.Result r = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", SHOP_FLOW), demo);
            assertEquals(0, r.status(), r.stderr());
            assertEquals(List.of(), messages(recorded(), Source.PROXY), String.join(" ", demo));
            List<String> lines = flowLog();
            assertTrue(lines.get(0).contains("\"action\":\"lookup\"") && lines.get(1).contains("[[\"decide#0\",0,0.0]]"),
                    "logged as proposed, not made: " + lines);
            deleteTree(logs());
        }
    }

    @Test
    void aToolWhoseInputChangedSinceTheFlowWasLearnedIsNotLookedUpAndSaidOnce() throws Exception {
        String flow = Files.readString(Path.of(SHOP_FLOW), StandardCharsets.UTF_8)
                .replace("\"get_user_details\":\"user_id:string!\"", "\"get_user_details\":\"user_id:integer!\"");
        Path changed = tmp.resolve("pinned.flow.json");
        Files.writeString(changed, flow, StandardCharsets.UTF_8);
        ProxyReplay.Result r = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", changed.toString()));
        assertEquals(0, r.status(), r.stderr());
        assertEquals(List.of(), messages(recorded(), Source.PROXY));
        assertEquals(1, r.stderr().split("stretto-proxy: get_user_details's input changed since the flow was learned"
                + " \\(user_id:integer! \u2192 user_id:string!\\); the flow no longer looks it up\n", -1).length - 1,
                r.stderr());
    }

    /** The arbiter's answers to a decision at a site offering {@code lookups}: the first lookup likely, 0.5 for the rest. */
    private static String answers(boolean complete, String... lookups) {
        CachedAnswers a = CachedAnswers.response();
        Map<String, Double> next = new LinkedHashMap<>();
        for (int i = 0; i < lookups.length; i++) {
            next.put(lookups[i], i == 0 ? 0.8 : 0.1 / (lookups.length - 1));
        }
        next.put("respond", lookups.length == 1 ? 0.2 : 0.1);
        a.choice("next", lookups[0], next, 0.8);
        if (complete) {
            a.noul("go_on", 0.9);
        }
        if (lookups.length > 1) {
            Map<String, Double> tool = new LinkedHashMap<>();
            for (int i = 0; i < lookups.length; i++) {
                tool.put(lookups[i], i == 0 ? 0.9 : 0.1 / (lookups.length - 1));
            }
            a.choice("tool", lookups[0], tool, 0.9);
        }
        for (String predicate : List.of("list_pending", "needs_options", "must_ask")) {
            a.noul("pred_" + predicate, 0.5);
        }
        return a.json("jev-test");
    }

    /** The decision line logged after call {@code after}. */
    private static JsonNode decisionAfter(List<String> lines, int after) {
        return CanonicalJson.parse(lines.stream().filter(l -> l.startsWith("{\"action\":") && l.contains(",\"after\":" + after
                + ",")).findFirst().orElseThrow(() -> new AssertionError("no decision after " + after + ": " + lines)));
    }

    @Test
    void theArbiterIsServedWithAnswersFromACacheTheTestWritesAndEachDecisionCountsAQuestion() throws Exception {
        String arbiter = Fixtures.file("retail-5-sessions-shipped-arbiter.flow.json").toString();
        Path cacheDir = tmp.resolve("cache");
        List<String> replay = List.of("--domain", "retail", "--flow", arbiter, "--oracle", "replay", "--oracle-cache",
                cacheDir.toString());
        List<String> shadow = new ArrayList<>(replay);
        shadow.add("--flow-shadow");

        // In shadow nothing is looked up, so each decision asks the same request every time.
        ProxyReplay.Result empty = replay(RETAIL, shadow);
        assertEquals(0, empty.status(), empty.stderr());
        assertTrue(empty.stderr().contains("deciding with arbiter, in shadow\n"), empty.stderr());
        Map<Integer, String> keys = new LinkedHashMap<>();
        for (int after : new int[] {4, 5, 6}) {
            JsonNode d = decisionAfter(flowLog(), after);
            keys.put(after, d.path("key").asText());
            assertTrue(keys.get(after).matches("[0-9a-f]{64}"), d.toString());
            assertEquals("the System-One model failed: replay cache miss for request " + keys.get(after),
                    d.path("reason").asText());
        }
        assertEquals("no lookups followed here in training", decisionAfter(flowLog(), 3).path("reason").asText(),
                "a site without lookups asks nothing");
        deleteTree(logs());

        CachedAnswers.put(cacheDir, keys.get(4), answers(true, "get_user_details"));
        CachedAnswers.put(cacheDir, keys.get(5), answers(false, "get_order_details"));
        ProxyReplay.Result cached = replay(RETAIL, shadow);
        assertEquals(0, cached.status(), cached.stderr());
        JsonNode four = decisionAfter(flowLog(), 4);
        assertEquals(keys.get(4), four.path("key").asText());
        assertEquals("{\"get_user_details\":0.8,\"respond\":0.2}", CanonicalJson.write(four.path("oracle")));
        assertEquals("{\"list_pending\":0.5,\"must_ask\":0.5,\"needs_options\":0.5}",
                CanonicalJson.write(four.path("predicates")));
        assertEquals("lookup", four.path("action").asText(), four.toString());
        assertEquals("{\"user_id\":\"user_61\"}", CanonicalJson.write(four.path("arguments")));
        assertEquals("the System-One answer was incomplete", decisionAfter(flowLog(), 5).path("reason").asText());
        assertEquals("the System-One model failed: replay cache miss for request " + keys.get(6),
                decisionAfter(flowLog(), 6).path("reason").asText());
        deleteTree(logs());

        // Served, with one question for the session: the decision after call 4 asks it and looks the user up
        // (whose outcome has ln(4/5): get_user_details succeeded 3 times of 3 in training); the run's next
        // decision, and every later run, would ask another.
        List<String> oneQuestion = new ArrayList<>(replay);
        oneQuestion.addAll(List.of("--flow-questions", "1"));
        ProxyReplay.Result served = replay(RETAIL, oneQuestion);
        assertEquals(0, served.status(), served.stderr());
        List<String> lines = flowLog();
        assertEquals(4, lines.size(), "a run after call 3 (asking nothing), one after call 4, none later: " + lines);
        assertEquals("{\"after\":4,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",6,0.0],[\"outcome#0\",true,-0.2231435513142097]],\"surprise\":0.2231435513142097}}",
                lines.get(3));
        assertEquals("{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                + "{\"user_id\":\"user_61\"},\"name\":\"get_user_details\"}}", messages(recorded(), Source.PROXY).getFirst());
    }

    @Test
    void aThresholdTheBindingTakesTheLookupBelowAndASwitchedOffSiteHandBackWithTheirReasons() throws Exception {
        ProxyReplay.Result high = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", SHOP_FLOW,
                "--flow-threshold", "0.9"));
        assertEquals(0, high.status(), high.stderr());
        assertTrue(flowLog().getFirst().contains("\"reason\":\"get_user_details at 0.99, times 0.88 for its arguments,"
                + " below 0.9\""), flowLog().getFirst());
        assertEquals(List.of(), messages(recorded(), Source.PROXY));
        deleteTree(logs());

        Path off = shopWith("off.flow.json", ",\"thresholds\":{\"find_user_id_by_email\":1.5}", true);
        ProxyReplay.Result switchedOff = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", off.toString()));
        assertEquals(0, switchedOff.status(), switchedOff.stderr());
        assertEquals("{\"action\":\"hand_back\",\"address\":\"decide#0\",\"after\":3,\"binding\":null,\"key\":null,"
                + "\"ms\":_,\"oracle\":{},\"predicates\":{},\"prob\":null,\"probs\":{},\"reason\":\"the site is switched off\","
                + "\"site\":\"find_user_id_by_email\"}", withoutMs(flowLog()).getFirst());
    }

    @Test
    void theLookupsPerCallCapARunAndFlowLogPutsTheLogWhereItSays() throws Exception {
        ProxyReplay.Result r = replay(SERVED + ".jsonl", List.of("--domain", "shop", "--flow", SHOP_FLOW,
                "--flow-per-call", "1", "--flow-log", "~/flows/served.flow.jsonl"));
        assertEquals(0, r.status(), r.stderr());
        assertEquals(List.of("stretto-1", "3"), ids(messages(recorded(), Source.PROXY)));
        List<String> lines = Files.readAllLines(tmp.resolve("flows/served.flow.jsonl"), StandardCharsets.UTF_8);
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":1,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",true,-0.13353139262452263]],"
                + "\"surprise\":0.13353139262452263}}", lines.get(1), "the capped decision is not logged");
        assertEquals(4, lines.size());
        assertFalse(Files.exists(FlowLog.besideSessionLog(SessionLog.logFiles(logs()).getFirst())),
                "nothing next to the session log");
    }
}
