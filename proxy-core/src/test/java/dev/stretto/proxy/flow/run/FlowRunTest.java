package dev.stretto.proxy.flow.run;

import static dev.stretto.proxy.flow.FlowTesting.SERVED;
import static dev.stretto.proxy.flow.FlowTesting.cutAt;
import static dev.stretto.proxy.flow.FlowTesting.flow;
import static dev.stretto.proxy.flow.FlowTesting.log;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.IntNode;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.flow.DeciderKind;
import dev.stretto.proxy.flow.decide.OracleOutcome;
import dev.stretto.proxy.flow.decide.Scorer;
import dev.stretto.proxy.flow.decide.Scoring;
import dev.stretto.proxy.flow.decide.SiteQuestion;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.Question;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.TokenUsage;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.EpisodeCut;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.SessionLog;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** One flow run driven step by step, as the proxy's actor drives it (formats 3.3 to 3.6). */
class FlowRunTest {

    private static final Flow SHOP = flow("home/shop.flow.json");
    private static final SessionLog LOG = log(SERVED);
    private static final JsonNode RESPONSE_3 = CanonicalJson.parse(
            "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"user_41\",\"type\":\"text\"}],\"isError\":false}}");
    private static final String USER_41 = "{\"email\":\"c41@example.com\",\"orders\":[\"#W41a\",\"#W41b\"],"
            + "\"payment_methods\":{\"credit_card_41\":{\"source\":\"credit_card\"}},\"user_id\":\"user_41\"}";

    private final List<String> lines = new ArrayList<>();
    private final List<String> warnings = new ArrayList<>();

    private FlowSession session(FlowOptions options) throws ProxyStartException {
        return FlowSession.start(SHOP, "shop.flow.json", options, LOG.session(), lines::add, warnings::add, () -> 0L);
    }

    private FlowSession session(Flow flow, Scorer scorer, FlowOptions options) {
        return FlowSession.start(flow, scorer, options, LOG.session(), lines::add, warnings::add, () -> 0L);
    }

    private static FlowOptions options(int perCall, int perSession, int questions, Set<String> tools, boolean shadow) {
        return new FlowOptions(0.3, null, perCall, perSession, questions, tools, shadow, null, null);
    }

    private static JsonNode result(String id, String text, boolean isError) {
        return CanonicalJson.parse("{\"id\":\"" + id + "\",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                + CanonicalJson.write(com.fasterxml.jackson.databind.node.TextNode.valueOf(text))
                + ",\"type\":\"text\"}],\"isError\":" + isError + "}}");
    }

    private static RunStep.Lookup lookup(RunStep step) {
        return assertInstanceOf(RunStep.Lookup.class, step);
    }

    private static RunStep.Finished finished(RunStep step) {
        return assertInstanceOf(RunStep.Finished.class, step);
    }

    /** The cut at call 3 with the proxy's lookup stretto-1 and its result appended. */
    private static EpisodeCut afterLookup(String tool, String args, boolean error, String content) {
        EpisodeCut at3 = cutAt(LOG, "3");
        List<Event> events = new ArrayList<>(at3.episode().events());
        events.add(new Event.Assistant(null, List.of(new ToolCall("stretto-1", tool, CanonicalJson.parse(args))), null));
        events.add(new Event.ToolResult("stretto-1", tool, error, content));
        Episode e = at3.episode();
        return new EpisodeCut(new Episode(e.id(), e.taskId(), e.trial(), e.domain(), e.agentModel(), e.reward(), events),
                List.of());
    }

    @Test
    void aRunStopsSilentlyAtTheLookupsPerCall() throws ProxyStartException {
        FlowRun run = session(options(1, 40, 300, null, false)).startRun(IntNode.valueOf(3), "find_user_id_by_email",
                RESPONSE_3);
        assertEquals("3", run.cutAt());
        RunStep.Lookup l = lookup(run.decide(cutAt(LOG, "3")));
        assertEquals("get_user_details", l.tool());
        assertEquals("{\"user_id\":\"user_41\"}", CanonicalJson.write(l.arguments()));
        run.answered("stretto-1", result("stretto-1", USER_41, false));
        assertEquals("stretto-1", run.cutAt());
        RunStep.Finished done = finished(run.decide(cutAt(LOG, "stretto-1")));
        assertEquals(2, lines.size(), "no decision line for the capped decision");
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":1,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",true,-0.13353139262452263]],"
                + "\"surprise\":0.13353139262452263}}", lines.get(1));
        assertEquals("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"user_41\",\"type\":\"text\"},"
                + "{\"text\":\"--- Also looked up automatically (current results; no need to repeat these calls) ---"
                + "\\n\\nget_user_details {\\\"user_id\\\":\\\"user_41\\\"}:\\n" + USER_41.replace("\"", "\\\"")
                + "\",\"type\":\"text\"}],\"isError\":false}}", done.reply());
        assertTrue(run.finished());
    }

    @Test
    void theSessionsLookupsCapStopsARunAndNoOtherStarts() throws ProxyStartException {
        FlowSession s = session(options(8, 1, 300, null, false));
        assertTrue(s.mayStart());
        FlowRun run = s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
        assertEquals(false, s.mayStart(), "one run at a time");
        lookup(run.decide(cutAt(LOG, "3")));
        run.answered("stretto-1", result("stretto-1", USER_41, false));
        finished(run.decide(cutAt(LOG, "stretto-1")));
        assertEquals(1, s.lookups());
        assertEquals(false, s.mayStart());
        assertThrows(IllegalStateException.class, () -> s.startRun(IntNode.valueOf(4), "x", RESPONSE_3));
    }

    @Test
    void inShadowTheDecisionIsLoggedButNothingIsLookedUp() throws ProxyStartException {
        FlowSession s = session(options(8, 40, 300, null, true));
        RunStep.Finished done = finished(s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3)
                .decide(cutAt(LOG, "3")));
        assertNull(done.reply());
        assertTrue(lines.get(0).startsWith("{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":3,"));
        assertTrue(lines.get(0).contains(",\"shadow\":true,\"site\":\"find_user_id_by_email\",\"tool\":\"get_user_details\"}"));
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",0,0.0]],\"surprise\":-0.0}}", lines.get(1));
        assertEquals(0, s.lookups());
        assertTrue(s.mayStart());
    }

    @Test
    void aToolOutsideFlowToolsIsLoggedAsProposedButNotLookedUp() throws ProxyStartException {
        FlowSession s = session(options(8, 40, 300, Set.of("get_order_details"), false));
        RunStep.Finished done = finished(s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3)
                .decide(cutAt(LOG, "3")));
        assertNull(done.reply());
        assertTrue(lines.get(0).startsWith("{\"action\":\"lookup\""));
        assertTrue(lines.get(1).contains("\"sites\":[[\"decide#0\",0,0.0]]"));
        assertEquals(List.of(), warnings);
    }

    @Test
    void aChangedContractStopsTheLookupAndIsReportedOnce() throws ProxyStartException {
        FlowSession s = session(FlowOptions.DEFAULTS);
        s.listed(CanonicalJson.parse("{\"tools\":[{\"name\":\"get_user_details\",\"annotations\":{\"readOnlyHint\":true},"
                + "\"inputSchema\":{\"type\":\"object\",\"properties\":{\"user_id\":{\"type\":\"integer\"},"
                + "\"verbose\":{\"type\":\"boolean\"}},\"required\":[\"user_id\"]}}]}"));
        for (int i = 0; i < 2; i++) {
            FlowRun run = s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
            assertNull(finished(run.decide(cutAt(LOG, "3"))).reply());
        }
        assertEquals(List.of("get_user_details's input changed since the flow was learned (user_id:string! \u2192"
                + " user_id:integer!, verbose:boolean); the flow no longer looks it up"), warnings);
        assertTrue(lines.get(1).contains("\"sites\":[[\"decide#0\",0,0.0]]"));
    }

    @Test
    void aToolTheServerMarksWritingOrDoesNotListIsNotLookedUp() throws ProxyStartException {
        FlowSession s = session(FlowOptions.DEFAULTS);
        s.listed(CanonicalJson.parse("{\"tools\":[{\"name\":\"get_user_details\",\"annotations\":{\"readOnlyHint\":false}}]}"));
        finished(s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3).decide(cutAt(LOG, "3")));
        FlowSession t = session(FlowOptions.DEFAULTS);
        t.listed(CanonicalJson.parse("{\"tools\":[]}"));
        finished(t.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3).decide(cutAt(LOG, "3")));
        FlowSession u = session(FlowOptions.DEFAULTS);
        u.listed(CanonicalJson.parse("{\"tools\":[{\"name\":\"get_user_details\"}]}"));
        lookup(u.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3).decide(cutAt(LOG, "3")));
        assertEquals(List.of(), warnings);
    }

    @Test
    void aFailedLookupIsKeptWithErrorAndTheRunGoesOnAtItsErrorSite() throws ProxyStartException {
        FlowRun run = session(FlowOptions.DEFAULTS).startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
        lookup(run.decide(cutAt(LOG, "3")));
        run.answered("stretto-1", CanonicalJson.parse("{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\","
                + "\"error\":{\"code\":-32000,\"message\":\"boom\"}}"));
        RunStep.Finished done = finished(run.decide(afterLookup("get_user_details", "{\"user_id\":\"user_41\"}", true,
                "boom")));
        assertTrue(lines.get(1).contains("\"reason\":\"no lookups followed here in training\",\"site\":\"get_user_details (error)\""),
                lines.get(1));
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",false,-2.0794415416798357],[\"decide#1\",0,0.0]],"
                + "\"surprise\":2.0794415416798357}}", lines.get(2));
        assertTrue(done.reply().contains("\\n\\nget_user_details {\\\"user_id\\\":\\\"user_41\\\"} (error):\\nboom\""),
                done.reply());
    }

    @Test
    void aLookupWithoutAnswerEndsTheRunWithTheLookupsMadeSoFar() throws ProxyStartException {
        FlowRun run = session(FlowOptions.DEFAULTS).startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
        lookup(run.decide(cutAt(LOG, "3")));
        RunStep.Finished done = finished(run.timedOut(60));
        assertNull(done.reply());
        assertEquals(List.of("no answer to get_user_details within 60 s; going on without it"), warnings);
        assertTrue(lines.get(1).contains("\"sites\":[[\"decide#0\",3,0.0]],\"surprise\":-0.0"), lines.get(1));
        assertThrows(IllegalStateException.class, () -> run.answered("stretto-1", RESPONSE_3));
    }

    @Test
    void aDeciderThatFailsHandsBackWithAMessage() {
        Scorer broken = new Scorer() {
            @Override
            public DeciderKind kind() {
                return DeciderKind.HABIT;
            }

            @Override
            public Scoring score(SiteQuestion q) {
                throw new IllegalStateException("counts are missing");
            }
        };
        FlowRun run = session(SHOP, broken, FlowOptions.DEFAULTS).startRun(IntNode.valueOf(3), "find_user_id_by_email",
                RESPONSE_3);
        finished(run.decide(cutAt(LOG, "3")));
        assertEquals(List.of("the flow failed, handing back: counts are missing"), warnings);
        assertEquals(List.of("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,"
                + "\"max_lookups\":8,\"sites\":[],\"surprise\":-0.0}}"), lines);
    }

    /** A scorer that asks the model once per decision and turns its answer into probabilities. */
    private static Scorer asking() {
        return new Scorer() {
            @Override
            public DeciderKind kind() {
                return DeciderKind.ARBITER;
            }

            @Override
            public Scoring score(SiteQuestion q) {
                return new Scoring.Ask(Request.of("m", CanonicalJson.parse("{}"), "go", new Question.Noul("go?", null)),
                        outcome -> switch (outcome) {
                            case OracleOutcome.Answered a -> {
                                double p = ((Answer.Noul) a.response().answers().get("go")).noul();
                                yield new Scoring.Scored(Map.of(q.offered().get(0), p, "respond", 0.1),
                                        CanonicalJson.parse("{\"p\":" + p + "}"), Map.of(), a.key());
                            }
                            case OracleOutcome.Failed f -> Scoring.HandBack.modelFailed(f.error(), f.key());
                        });
            }
        };
    }

    private static OracleOutcome answered(double p, String key) {
        return new OracleOutcome.Answered(Response.of("m", Map.of("go", new Answer.Noul(p)), TokenUsage.NONE), key);
    }

    @Test
    void aDecisionThatAsksTheModelWaitsForItsAnswerAndCountsAQuestion() {
        FlowSession s = session(SHOP, asking(), options(8, 40, 300, null, false));
        FlowRun run = s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
        RunStep.Ask ask = assertInstanceOf(RunStep.Ask.class, run.decide(cutAt(LOG, "3")));
        assertEquals("{\"model\":\"m\",\"state\":{},\"questions\":{\"go\":{\"type\":\"noul\",\"instructions\":\"go?\"}}}",
                ask.request().toJson());
        assertEquals(1, s.questions());
        assertThrows(IllegalStateException.class, () -> run.decide(cutAt(LOG, "3")));
        RunStep.Lookup l = lookup(run.resume(answered(0.8, "k1")));
        assertEquals("get_user_details", l.tool());
        assertTrue(lines.get(0).contains("\"key\":\"k1\""), lines.get(0));
        assertTrue(lines.get(0).contains("\"oracle\":{\"p\":0.8}"), lines.get(0));
        run.answered("stretto-1", result("stretto-1", USER_41, false));
        assertInstanceOf(RunStep.Ask.class, run.decide(cutAt(LOG, "stretto-1")));
        finished(run.resume(new OracleOutcome.Failed("replay cache miss for request k2", "k2")));
        assertTrue(lines.get(1).contains("\"reason\":\"the System-One model failed: replay cache miss for request k2\""),
                lines.get(1));
        assertEquals(2, s.questions());
    }

    @Test
    void theQuestionsCapStopsRunsFromStarting() {
        FlowSession s = session(SHOP, asking(), options(8, 40, 1, null, false));
        FlowRun run = s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
        run.decide(cutAt(LOG, "3"));
        lookup(run.resume(answered(0.8, "k1")));
        run.answered("stretto-1", result("stretto-1", USER_41, false));
        finished(run.decide(cutAt(LOG, "stretto-1")));
        assertEquals(false, s.mayStart());
    }

    @Test
    void aLookupTheProgramDoesNotOfferHandsBackWithAMessage() {
        Sites s = SHOP.sites();
        Sites narrower = new Sites(List.of("find_user_id_by_email", "get_order_details"), s.next(), s.feeds(), false);
        Flow f = new Flow(SHOP.format(), SHOP.provenance(), SHOP.vocab(), SHOP.manifest(), SHOP.map(), SHOP.group(),
                SHOP.habit(), narrower, SHOP.predicates(), SHOP.weighed(), SHOP.folds(), SHOP.bindings(), SHOP.model(),
                SHOP.program(), null, SHOP.thresholds(), SHOP.contracts(), SHOP.reach());
        FlowRun run = session(f, Scorer.reach(f), FlowOptions.DEFAULTS).startRun(IntNode.valueOf(3),
                "find_user_id_by_email", RESPONSE_3);
        finished(run.decide(cutAt(LOG, "3")));
        assertEquals(List.of("the flow chose get_user_details, which its program does not offer; handing back"), warnings);
    }

    @Test
    void onlyAResponseWithAResultStartsARun() throws ProxyStartException {
        FlowSession s = session(FlowOptions.DEFAULTS);
        assertEquals(true, FlowSession.follows(CanonicalJson.parse("{\"id\":1,\"result\":{\"isError\":true}}")));
        JsonNode error = CanonicalJson.parse("{\"id\":1,\"error\":{\"code\":-32602,\"message\":\"bad\"}}");
        assertEquals(false, FlowSession.follows(error));
        assertThrows(IllegalArgumentException.class, () -> s.startRun(IntNode.valueOf(1), "t", error));
        FlowRun failed = s.startRun(IntNode.valueOf(1), "find_user_id_by_email", CanonicalJson.parse(
                "{\"id\":1,\"result\":{\"content\":[],\"isError\":true}}"));
        finished(failed.abandon());
        assertEquals(List.of("{\"after\":1,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":true,"
                + "\"max_lookups\":8,\"sites\":[],\"surprise\":-0.0}}"), lines);
    }

    @Test
    void anAbandonedRunEndsWithWhatItHas() throws ProxyStartException {
        FlowSession s = session(FlowOptions.DEFAULTS);
        FlowRun run = s.startRun(IntNode.valueOf(3), "find_user_id_by_email", RESPONSE_3);
        lookup(run.decide(cutAt(LOG, "3")));
        run.answered("stretto-1", result("stretto-1", USER_41, false));
        RunStep.Finished done = finished(run.abandon());
        assertTrue(done.reply().contains("get_user_details {\\\"user_id\\\":\\\"user_41\\\"}:"));
        assertEquals(2, done.record().visits().size());
        assertTrue(s.mayStart());
    }
}
