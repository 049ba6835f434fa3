package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.RetailGuardsEndToEndTest.withId;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.judge.ConfirmQuestions;
import dev.stretto.proxy.judge.Exchange;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.MockOracle;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ServiceSettings;
import dev.stretto.proxy.oracle.ReplayOracle;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.TokenUsage;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The confirmation judge through the real proxy in front of the real {@code stretto-mcp-demo
 * --world retail}: customer 61 asks to cancel an order, the agent proposes it, the customer
 * says yes, and the agent cancels, as in the reference's recorded session. The model's
 * answers come from the mock oracle, or from a cache this test writes, replayed.
 */
class ConfirmJudgeEndToEndTest {

    static final String CANCEL = "{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"}";
    static final String PROPOSAL = "Order #W61a is pending. Shall I cancel it, as ordered by mistake?";
    static final String YES = "Yes, cancel it.";
    static final String CANCELLED = "{\"order_id\":\"#W61a\",\"status\":\"cancelled\"}";
    static final String REFUSED_015 = "Refused by the policy check, so cancel_pending_order was not run and nothing"
            + " changed: the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15);"
            + " describe the change and ask the customer to confirm it first.";

    @TempDir
    Path tmp;

    private Path chat() {
        return tmp.resolve("chat.jsonl");
    }

    private Path logs() {
        return tmp.resolve("logs");
    }

    private OracleCache cache() {
        return new OracleCache(tmp.resolve("cache"));
    }

    private ProxyConfig config(JudgeSettings settings, Oracle oracle, Path confirmLog, boolean commit) {
        return ProxyConfig.builder(Demo.retail()).record(logs()).domain("retail")
                .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).context(chat())
                        .commit(commit).oracle(oracle).judge(new ConfirmJudge(settings, ServiceSettings.DEFAULT_MODEL, confirmLog)).build())
                .build();
    }

    private ProxyConfig config(JudgeSettings settings, Oracle oracle) {
        return config(settings, oracle, null, false);
    }

    private void say(String role, String content) throws Exception {
        Files.writeString(chat(), "{\"role\":\"" + role + "\",\"content\":\"" + content + "\"}\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    /** The reference session up to the agent's proposal and the customer's yes, before the cancel call. */
    private void upToTheYes(LiveHost host) throws Exception {
        host.handshake();
        say("user", "Hi, I'm c61@example.con, no, c61@example.com. Please cancel my order, I ordered it by mistake.");
        assertEquals("Error: User not found", LiveHost.text(host.call(3, "find_user_id_by_email",
                "{\"email\":\"c61@example.con\"}")));
        assertEquals("user_61", LiveHost.text(host.call(4, "find_user_id_by_email", "{\"email\":\"c61@example.com\"}")));
        host.call(5, "get_user_details", "{\"user_id\":\"user_61\"}");
        host.call(6, "get_order_details", "{\"order_id\":\"#W61a\"}");
        say("assistant", PROPOSAL);
        say("user", YES);
    }

    /**
     * Runs the reference session with {@code config} up to the yes, then the cancel call
     * ({@code tool}: the call itself, or a commit of it); returns the
     * agent's answer once the session has ended.
     */
    private JsonNode cancelAfterTheYes(ProxyConfig config, String tool, String arguments) throws Exception {
        JsonNode answer;
        try (LiveHost host = LiveHost.start(config)) {
            upToTheYes(host);
            answer = host.call(7, tool, arguments);
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        return answer;
    }

    private String cancelAfterTheYes(ProxyConfig config) throws Exception {
        return LiveHost.text(cancelAfterTheYes(config, "cancel_pending_order", CANCEL));
    }

    /** The request of one of the judge's questions about the cancel call after that yes. */
    static Request question(String id) {
        var question = switch (id) {
            case "confirmed" -> ConfirmQuestions.CONFIRMED;
            case "proposed" -> ConfirmQuestions.PROPOSED;
            default -> ConfirmQuestions.DESCRIBED;
        };
        return Request.of(ServiceSettings.DEFAULT_MODEL,
                new Exchange(PROPOSAL, YES).state("cancel_pending_order", CanonicalJson.parse(CANCEL)), id, question);
    }

    /** Caches the model's answer {@code pYes} to question {@code id} about the cancel call. */
    private void answer(String id, double pYes) {
        cache().put(question(id).key(), Response.of("jev-1.13.0", Map.of(id, new Answer.Noul(pYes)), TokenUsage.NONE));
    }

    private List<String> confirmLines() throws Exception {
        try (Stream<Path> files = Files.list(logs())) {
            List<Path> found = files.filter(f -> f.getFileName().toString().endsWith(".confirm.jsonl")).toList();
            assertEquals(1, found.size(), "one confirm log beside the session log: " + found);
            return Files.readAllLines(found.getFirst(), StandardCharsets.UTF_8);
        }
    }

    /** The line with its {@code ms} (how long the call waited, which varies) set to 0. */
    static String withoutMs(String line) {
        return line.replaceFirst("\"ms\":\\d+,", "\"ms\":0,");
    }

    private SessionLog sessionLog() throws Exception {
        try (Stream<Path> files = Files.list(logs())) {
            return SessionLog.read(files.filter(f -> !f.getFileName().toString().endsWith(".confirm.jsonl"))
                    .findFirst().orElseThrow());
        }
    }

    @Test
    void inLogModeTheMockOraclesJudgmentIsTheReferencesLineAndTheCallGoesThrough() throws Exception {
        assertEquals(CANCELLED, cancelAfterTheYes(config(JudgeSettings.of(JudgeSettings.Mode.LOG), new MockOracle())));
        assertEquals(List.of("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":false,"
                + "\"fails\":false,\"key\":\"69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5\",\"ms\":0,"
                + "\"p_yes\":0.5,\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,"
                + "\"word_list\":true}"), confirmLines().stream().map(ConfirmJudgeEndToEndTest::withoutMs).toList());
        assertEquals(1, withId(sessionLog(), 7, Source.SERVER).size());
    }

    @Test
    void enforceRefusesAWriteTheModelSaysWasNotAgreedToWithTheExactText() throws Exception {
        answer("confirmed", 0.15);
        JsonNode refused = cancelAfterTheYes(config(JudgeSettings.of(JudgeSettings.Mode.ENFORCE),
                new ReplayOracle(cache())), "cancel_pending_order", CANCEL);
        assertEquals(REFUSED_015, LiveHost.text(refused));
        assertTrue(refused.path("result").path("isError").asBoolean());
        assertTrue(withId(sessionLog(), 7, Source.SERVER).isEmpty(), "the server never saw the refused call");
        assertEquals(1, withId(sessionLog(), 7, Source.PROXY).size());
        assertEquals(List.of("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":true,\"key\":\"" + question("confirmed").key() + "\",\"ms\":0,\"p_yes\":0.15,"
                + "\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":true}"),
                confirmLines().stream().map(ConfirmJudgeEndToEndTest::withoutMs).toList());
    }

    @Test
    void aJudgeThatCannotAnswerRefusesNothingAndLogsWhy() throws Exception {
        assertEquals(CANCELLED, cancelAfterTheYes(config(JudgeSettings.of(JudgeSettings.Mode.ENFORCE),
                new ReplayOracle(cache()))));
        String key = question("confirmed").key();
        assertEquals(List.of("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"error\":\"replay cache miss for request " + key + "\",\"fails\":false,\"key\":\"" + key + "\",\"ms\":0,"
                + "\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":true,\"word_list\":true}"),
                confirmLines().stream().map(ConfirmJudgeEndToEndTest::withoutMs).toList());
    }

    @Test
    void onceTheSessionsQuestionsAreSpentAWriteIsSkippedAndGoesThrough() throws Exception {
        // One question left, and a judgment with a second question needs two: nothing is asked.
        JudgeSettings settings = JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withQuestions(1)
                .withSecond(JudgeSettings.Second.PROPOSED, false);
        answer("confirmed", 0.15);
        assertEquals(CANCELLED, cancelAfterTheYes(config(settings, new ReplayOracle(cache()))));
        assertEquals(List.of("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":false,\"key\":\"" + question("confirmed").key() + "\",\"ms\":0,\"proposal_check\":[],"
                + "\"second_key\":\"" + question("proposed").key() + "\",\"skipped\":\"the session's question budget is"
                + " spent\",\"tool\":\"cancel_pending_order\",\"unknown\":true,\"word_list\":true}"),
                confirmLines().stream().map(ConfirmJudgeEndToEndTest::withoutMs).toList());
    }

    @Test
    void aCountingSecondQuestionProposedThatSaysNoRefusesWithBothAnswers() throws Exception {
        answer("confirmed", 0.9);
        answer("proposed", 0.2);
        JudgeSettings settings = JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.PROPOSED, false);
        assertEquals("Refused by the policy check, so cancel_pending_order was not run and nothing changed: the"
                + " customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.90, p_second"
                + " 0.20); describe the change and ask the customer to confirm it first.",
                cancelAfterTheYes(config(settings, new ReplayOracle(cache()))));
        assertEquals(List.of("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":true,\"key\":\"" + question("confirmed").key() + "\",\"ms\":0,\"p_second\":0.2,\"p_yes\":0.9,"
                + "\"proposal_check\":[],\"second_key\":\"" + question("proposed").key() + "\",\"tool\":"
                + "\"cancel_pending_order\",\"unknown\":false,\"word_list\":true}"),
                confirmLines().stream().map(ConfirmJudgeEndToEndTest::withoutMs).toList());
    }

    @Test
    void aShadowSecondQuestionDescribedIsLoggedButDoesNotCount() throws Exception {
        answer("confirmed", 0.9);
        answer("described", 0.1);
        JudgeSettings settings = JudgeSettings.of(JudgeSettings.Mode.ENFORCE).withSecond(JudgeSettings.Second.DESCRIBED, true);
        assertEquals(CANCELLED, cancelAfterTheYes(config(settings, new ReplayOracle(cache()))));
        assertEquals(List.of("{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":true,"
                + "\"fails\":false,\"key\":\"" + question("confirmed").key() + "\",\"ms\":0,\"p_second\":0.1,\"p_yes\":0.9,"
                + "\"proposal_check\":[],\"second_key\":\"" + question("described").key() + "\",\"second_shadow\":true,"
                + "\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":true}"),
                confirmLines().stream().map(ConfirmJudgeEndToEndTest::withoutMs).toList());
    }

    @Test
    void theJudgeChecksEachCallOfAStrettoCommitAndARefusalStopsIt() throws Exception {
        answer("confirmed", 0.15);
        JsonNode answer = cancelAfterTheYes(config(JudgeSettings.of(JudgeSettings.Mode.ENFORCE),
                new ReplayOracle(cache()), null, true), "stretto_commit", "{\"calls\":[{\"name\":\"cancel_pending_order\","
                + "\"arguments\":" + CANCEL + "}]}");
        assertEquals("cancel_pending_order " + CANCEL + " was refused by the policy check: the customer has not"
                + " explicitly agreed to this exact change (confirmation judge: p_yes 0.15); describe the change and"
                + " ask the customer to confirm it first", LiveHost.text(answer));
        assertTrue(answer.path("result").path("isError").asBoolean());
        List<String> lines = confirmLines();
        assertEquals(1, lines.size());
        assertTrue(lines.getFirst().contains("\"enforced\":true,\"fails\":true,"), lines.getFirst());
        assertTrue(sessionLog().entries().stream().noneMatch(e -> e.payload() instanceof Payload.Message m
                && m.json().contains("\"id\":\"stretto-1\"")), "the refused call was never sent");
    }

    @Test
    void aConfirmLogGivenByPathIsAppendedToEvenWithoutARecording() throws Exception {
        Path confirmLog = tmp.resolve("judged.jsonl");
        Files.writeString(confirmLog, "{\"earlier\":true}\n");
        ProxyConfig config = ProxyConfig.builder(Demo.retail()).domain("retail")
                .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).context(chat())
                        .oracle(new MockOracle()).judge(new ConfirmJudge(JudgeSettings.of(JudgeSettings.Mode.LOG),
                                ServiceSettings.DEFAULT_MODEL, confirmLog)).build())
                .build();
        assertEquals(CANCELLED, cancelAfterTheYes(config));
        List<String> lines = Files.readAllLines(confirmLog);
        assertEquals(2, lines.size(), lines.toString());
        assertEquals("{\"earlier\":true}", lines.getFirst());
        assertTrue(lines.get(1).startsWith("{\"arguments\":{\"order_id\":\"#W61a\""), lines.get(1));
        assertFalse(Files.exists(logs()), "nothing recorded");
    }

    @Test
    void aConfirmLogInADirectoryNotMadeYetIsMadeWithItForItsOwnerOnly() throws Exception {
        Path confirmLog = tmp.resolve("judged").resolve("confirm.jsonl");
        assertEquals(CANCELLED, cancelAfterTheYes(config(JudgeSettings.of(JudgeSettings.Mode.LOG), new MockOracle(),
                confirmLog, false)));
        assertEquals(1, Files.readAllLines(confirmLog).size());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(confirmLog)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(confirmLog.getParent())));
    }

    @Test
    void retainDaysPrunesTheOldAnswersOfTheOracleCacheTheSessionAsks() throws Exception {
        answer("confirmed", 0.9);
        String old = "ab" + "0".repeat(62);
        cache().put(old, Response.of("jev-1.13.0", Map.of("confirmed", new Answer.Noul(0.2)), TokenUsage.NONE));
        Files.setLastModifiedTime(cache().fileOf(old), FileTime.from(Instant.now().minus(Duration.ofDays(31))));
        ProxyConfig config = ProxyConfig.builder(Demo.retail()).domain("retail").retainDays(30)
                .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .active(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).context(chat())
                        .oracle(new ReplayOracle(cache())).judge(new ConfirmJudge(JudgeSettings.of(
                                JudgeSettings.Mode.ENFORCE), ServiceSettings.DEFAULT_MODEL, null)).build())
                .build();
        assertEquals(CANCELLED, cancelAfterTheYes(config));
        assertEquals(List.of(question("confirmed").key()), cache().keys(), "the old answer is gone, the fresh one used");
    }
}
