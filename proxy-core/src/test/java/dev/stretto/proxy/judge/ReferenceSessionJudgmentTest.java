package dev.stretto.proxy.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.oracle.MockOracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.Fixtures;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The reference's retail session, recorded with the judge on and the mock oracle: its cancel
 * call gives the request key the reference logged (formats 4.4) and the very same confirm line.
 */
class ReferenceSessionJudgmentTest {

    static final String LOG = "home/logs/retail/20260928T020401.312Z-14780.jsonl";

    /** The session as the judge saw it: everything before the client sent the cancel call (id 7). */
    static Episode episodeBeforeTheCancel() throws Exception {
        SessionLog log = SessionLog.read(Fixtures.file(LOG));
        List<LogEntry> before = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == Source.CLIENT && e.payload() instanceof Payload.Message m
                    && m.tree().map(t -> t.path("id").asInt() == 7).orElse(false)) {
                break;
            }
            before.add(e);
        }
        assertEquals(16, before.size(), "the cancel call is the 17th entry after the header");
        return Episode.of(new SessionLog(log.header(), before));
    }

    static final JsonNode CANCEL = CanonicalJson.parse("{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"}");

    @Test
    void theCancelCallsRequestHasTheVerifiedKey() throws Exception {
        Consultation c = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG), "jev-latest")
                .consult(episodeBeforeTheCancel(), "cancel_pending_order", CANCEL, true);
        assertEquals("69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5", c.confirmed().key());
        assertEquals("{\"model\":\"jev-latest\",\"state\":{\"agent_said_last\":\"Order #W61a is pending. Shall I cancel it,"
                + " as ordered by mistake?\",\"call_about_to_be_made\":{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":"
                + "\"ordered by mistake\"},\"tool\":\"cancel_pending_order\"},\"customer_replied\":\"Yes, cancel it.\"},"
                + "\"questions\":{\"confirmed\":{\"type\":\"noul\",\"instructions\":\"" + ConfirmQuestions.CONFIRMED.instructions()
                + "\",\"criteria\":{\"true\":\"" + ConfirmQuestions.CONFIRMED.criteria().whenTrue() + "\",\"false\":\""
                + ConfirmQuestions.CONFIRMED.criteria().whenFalse() + "\"}}}}", c.confirmed().toJson());
    }

    @Test
    void withTheMockOracleTheConfirmLineIsTheReferencesLine() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG), "jev-latest");
        Consultation c = judge.consult(episodeBeforeTheCancel(), "cancel_pending_order", CANCEL, true);
        List<Reply> replies = new ArrayList<>();
        try (MockOracle mock = new MockOracle()) {
            for (Request r : c.requests()) {
                replies.add(Reply.ask(mock, r));
            }
        }
        Judgment j = judge.conclude(c, replies, 0);
        assertEquals("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":false,"
                + "\"fails\":false,\"key\":\"69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5\",\"ms\":0,"
                + "\"p_yes\":0.5,\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,"
                + "\"word_list\":true}", j.logLine());
        assertFalse(j.refuses());
        assertEquals(JudgeSettings.DEFAULT_QUESTIONS - 1, judge.questionsLeft());
    }
}
