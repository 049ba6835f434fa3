package dev.stretto.proxy.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.JevOracle;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ServiceSettings;
import dev.stretto.proxy.oracle.ReplayOracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.SystemOneClient;
import dev.stretto.proxy.oracle.TokenUsage;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.json.CanonicalJson;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Verdicts from answers, through a replay oracle over a cache this test writes: what the
 * reference's retail session gets when the model says other things than the mock.
 */
class JudgeTest {

    private static final String TOOL = "cancel_pending_order";
    private static final JsonNode ARGS = ReferenceSessionJudgmentTest.CANCEL;
    private static final String REFUSED_015 = "Refused by the policy check, so cancel_pending_order was not run and"
            + " nothing changed: the customer has not explicitly agreed to this exact change (confirmation judge:"
            + " p_yes 0.15); describe the change and ask the customer to confirm it first.";

    @TempDir
    Path dir;

    private OracleCache cache;
    private Episode episode;

    @BeforeEach
    void setUp() throws Exception {
        cache = new OracleCache(dir);
        episode = ReferenceSessionJudgmentTest.episodeBeforeTheCancel();
    }

    /** Stores the model's answer to the request of {@code questionId} about this call. */
    private void answer(Request request, String questionId, double pYes) {
        cache.put(request.key(), Response.of("jev-1.13.0", Map.of(questionId, new Answer.Noul(pYes)), new TokenUsage(900, 1)));
    }

    private Judgment judge(Judge judge, Consultation c) throws InterruptedException {
        List<Reply> replies = new ArrayList<>();
        try (Oracle replay = new ReplayOracle(cache)) {
            for (Request r : c.requests()) {
                replies.add(Reply.ask(replay, r));
            }
        }
        return judge.conclude(c, replies, 42);
    }

    @Test
    void enforceRefusesAFailingAnswerWithTheExactText() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        answer(c.confirmed(), "confirmed", 0.15);
        Judgment j = judge(judge, c);
        assertTrue(j.fails());
        assertFalse(j.unknown());
        assertEquals(REFUSED_015, j.refusal());
        assertEquals("the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15);"
                + " describe the change and ask the customer to confirm it first", j.refusalReason());
        assertEquals("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":true,\"key\":\"" + c.confirmed().key() + "\",\"ms\":42,\"p_yes\":0.15,\"proposal_check\":[],"
                + "\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":true}", j.logLine());
    }

    @Test
    void logModeJudgesTheSameButRefusesNothing() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, false);
        answer(c.confirmed(), "confirmed", 0.15);
        Judgment j = judge(judge, c);
        assertTrue(j.fails());
        assertNull(j.refusal());
        assertNull(j.refusalReason());
        assertTrue(j.logLine().contains("\"enforced\":false,\"fails\":true,"), j.logLine());
        assertTrue(j.logLine().endsWith("\"word_list\":false}"), j.logLine());
    }

    @Test
    void anAnswerAtTheThresholdPassesAndOneBelowFails() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withThreshold(0.7), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        answer(c.confirmed(), "confirmed", 0.7);
        assertFalse(judge(judge, c).refuses());
        answer(c.confirmed(), "confirmed", 0.69);
        assertTrue(judge(judge, c).refusal().contains("(confirmation judge: p_yes 0.69)"));
    }

    @Test
    void theSecondQuestionProposedIsASeparateRequestAboutTheSameStateAndCounts() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED, false), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        assertEquals(List.of(c.confirmed(), c.second()), c.requests());
        assertEquals(c.confirmed().state(), c.second().state());
        assertEquals(List.of("proposed"), List.copyOf(c.second().questions().keySet()));
        assertEquals(ConfirmQuestions.PROPOSED, c.second().questions().get("proposed"));
        answer(c.confirmed(), "confirmed", 0.9);
        answer(c.second(), "proposed", 0.2);
        Judgment j = judge(judge, c);
        assertTrue(j.fails());
        assertEquals("Refused by the policy check, so cancel_pending_order was not run and nothing changed: the customer"
                + " has not explicitly agreed to this exact change (confirmation judge: p_yes 0.90, p_second 0.20);"
                + " describe the change and ask the customer to confirm it first.", j.refusal());
        assertTrue(j.refusal().endsWith(": " + j.refusalReason() + "."), j.refusalReason());
        assertTrue(j.logLine().contains("\"p_second\":0.2,\"p_yes\":0.9,"), j.logLine());
        assertTrue(j.logLine().contains("\"second_key\":\"" + c.second().key() + "\""), j.logLine());
        assertFalse(j.logLine().contains("second_shadow"), j.logLine());
        assertEquals(JudgeSettings.DEFAULT_QUESTIONS - 2, judge.questionsLeft());
    }

    @Test
    void theSecondQuestionDescribedAsksWhetherTheAgentDescribedThisExactChange() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.DESCRIBED, false), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        assertEquals(ConfirmQuestions.DESCRIBED, c.second().questions().get("described"));
        assertEquals("An agent in a customer-service chat is about to make the change in call_about_to_be_made. The"
                + " policy requires the agent to describe a change before the customer agrees to it. Did"
                + " agent_said_last, the agent's message before the customer's reply, describe this exact change?",
                ConfirmQuestions.DESCRIBED.instructions());
        answer(c.confirmed(), "confirmed", 0.8);
        answer(c.second(), "described", 0.75);
        Judgment j = judge(judge, c);
        assertFalse(j.fails());
        assertFalse(j.unknown());
        assertEquals(0.75, j.pSecond());
    }

    @Test
    void aShadowSecondAnswerIsLoggedButDoesNotCount() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED, true), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        answer(c.confirmed(), "confirmed", 0.9);
        answer(c.second(), "proposed", 0.2);
        Judgment j = judge(judge, c);
        assertFalse(j.fails());
        assertNull(j.refusal());
        assertEquals("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":false,\"key\":\"" + c.confirmed().key() + "\",\"ms\":42,\"p_second\":0.2,\"p_yes\":0.9,"
                + "\"proposal_check\":[],\"second_key\":\"" + c.second().key() + "\",\"second_shadow\":true,"
                + "\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":true}", j.logLine());
    }

    @Test
    void aShadowSecondDoesNotNameItselfInARefusal() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED, true), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        answer(c.confirmed(), "confirmed", 0.15);
        answer(c.second(), "proposed", 0.2);
        assertEquals(REFUSED_015, judge(judge, c).refusal());
    }

    @Test
    void whenTheBudgetIsSpentNothingIsAskedAndTheJudgmentIsUnknown() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withQuestions(1), ServiceSettings.DEFAULT_MODEL);
        Consultation first = judge.consult(episode, TOOL, ARGS, true);
        assertEquals(1, first.requests().size());
        assertEquals(0, judge.questionsLeft());
        Consultation second = judge.consult(episode, TOOL, ARGS, true);
        assertEquals(List.of(), second.requests());
        Judgment j = judge.conclude(second, List.of(), 0);
        assertTrue(j.unknown());
        assertFalse(j.fails());
        assertNull(j.refusal());
        assertEquals("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":false,\"key\":\"69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5\",\"ms\":0,"
                + "\"proposal_check\":[],\"skipped\":\"the session's question budget is spent\","
                + "\"tool\":\"cancel_pending_order\",\"unknown\":true,\"word_list\":true}", j.logLine());
    }

    @Test
    void aJudgmentNeedingTwoQuestionsAsksNoneWhenOnlyOneIsLeft() {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG).withSecond(JudgeSettings.Second.PROPOSED, false)
                .withQuestions(1), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        assertEquals(Consultation.BUDGET_SPENT, c.skipped());
        assertEquals(1, judge.questionsLeft());
        assertTrue(judge.conclude(c, List.of(), 0).logLine().contains("\"second_key\":\"" + c.second().key() + "\""));
    }

    @Test
    void aReplayMissRefusesNothingAndIsLoggedAsTheError() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        Judgment j = judge(judge, c);
        assertTrue(j.unknown());
        assertFalse(j.fails());
        assertNull(j.refusal());
        assertNull(j.pYes());
        assertEquals("replay cache miss for request " + c.confirmed().key(), j.error());
        assertTrue(j.logLine().contains("\"error\":\"replay cache miss for request " + c.confirmed().key() + "\","),
                j.logLine());
    }

    @Test
    void anOracleErrorRefusesNothing() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        // jev without a key: the error every question of the session then gets.
        try (Oracle jev = new JevOracle(cache, new SystemOneClient(ServiceSettings.defaults()))) {
            Judgment j = judge.conclude(c, List.of(Reply.ask(jev, c.confirmed())), 5);
            assertEquals("no TypeSafe API key is set (TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE)", j.error());
            assertTrue(j.unknown());
            assertNull(j.refusal());
        }
    }

    @Test
    void anAnswerThatIsNotAYesNoAnswerRefusesNothing() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        cache.put(c.confirmed().key(), Response.of("jev", Map.of("confirmed",
                new Answer.Choice("yes", Map.of("yes", 0.2, "no", 0.8), 0.6)), TokenUsage.NONE));
        Judgment j = judge(judge, c);
        assertEquals("no yes/no answer to confirmed", j.error());
        assertTrue(j.unknown());
        assertNull(j.refusal());
    }

    @Test
    void aFailingFirstAnswerRefusesEvenWhenTheSecondIsMissing() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED, false), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        answer(c.confirmed(), "confirmed", 0.15);
        Judgment j = judge(judge, c);
        assertTrue(j.fails());
        assertFalse(j.unknown(), "unknown only when nothing failed");
        assertEquals(REFUSED_015, j.refusal());
        assertEquals("replay cache miss for request " + c.second().key(), j.error());
    }

    @Test
    void aPassingFirstAnswerWithTheCountingSecondMissingIsUnknown() throws Exception {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED, false), ServiceSettings.DEFAULT_MODEL);
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        answer(c.confirmed(), "confirmed", 0.95);
        Judgment j = judge(judge, c);
        assertTrue(j.unknown());
        assertNull(j.refusal());
    }

    @Test
    void theModelIdIsPartOfTheRequest() {
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG), "jev-1.14.0");
        Consultation c = judge.consult(episode, TOOL, ARGS, true);
        assertEquals("jev-1.14.0", c.confirmed().model());
        assertFalse(c.confirmed().key().equals("69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5"));
    }

    @Test
    void theProposalCheckIsLoggedWithEachFlag() {
        Episode twoCards = ProposalCheckTest.episode(ProposalCheckTest.USER_WITH_TWO_CARDS,
                "I have two cards: the Visa ending 7447 and the Mastercard ending 1920.",
                "Please charge the Visa ending 7447.");
        Judge judge = new Judge(JudgeSettings.of(JudgeSettings.Mode.LOG), ServiceSettings.DEFAULT_MODEL);
        JsonNode args = CanonicalJson.parse("{\"order_id\":\"#W1\",\"payment_method_id\":\"credit_card_1920\"}");
        Consultation c = judge.consult(twoCards, "modify_pending_order_payment", args, true);
        Judgment j = judge.conclude(c, List.of(new Reply.Failed("offline")), 0);
        assertTrue(j.logLine().contains(
                "\"proposal_check\":[{\"argument\":\"payment_method_id\",\"value\":\"credit_card_1920\"}]"), j.logLine());
    }
}
