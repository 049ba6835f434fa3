package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import dev.stretto.proxy.judge.ConfirmQuestions;
import dev.stretto.proxy.judge.Exchange;
import dev.stretto.proxy.oracle.Answer;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ServiceSettings;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.proxy.oracle.Response;
import dev.stretto.proxy.oracle.TokenUsage;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The confirmation judge through the launchers: bin/stretto-proxy --guards --context
 * --confirm-judge in front of bin/stretto-mcp-demo --world retail, with the model's answers
 * from the mock oracle, a replay cache the test writes, or a System-One service on 127.0.0.1
 * (the real one is remote); then the confirm log, and bin/stretto show.
 */
class ConfirmJudgeIT {

    /** The reference's retail session, recorded with the judge on and the mock oracle. */
    static final Path REFERENCE = Repo.root().resolve("testdata/reference/home/logs/retail/20260928T020401.312Z-14780.jsonl");

    /** Its confirm line (formats 4.4), the cache-key test vector. */
    static final String REFERENCE_LINE = "{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},"
            + "\"enforced\":false,\"fails\":false,\"key\":\"69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5\","
            + "\"ms\":0,\"p_yes\":0.5,\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,"
            + "\"word_list\":true}";

    static final String CANCEL = "{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"}";

    @TempDir
    Path dir;

    private Path chat() {
        return dir.resolve("chat.jsonl");
    }

    private Path logs() {
        return dir.resolve("logs");
    }

    private List<String> judgeArgs(String... more) {
        List<String> args = new ArrayList<>(List.of("--record", logs().toString(), "--domain", "retail", "--guards",
                "--context", chat().toString()));
        args.addAll(List.of(more));
        args.addAll(List.of("--", Repo.bin("stretto-mcp-demo"), "--world", "retail"));
        return args;
    }

    private Proc proxy(Map<String, String> env, List<String> args) throws IOException {
        return Proc.proxy(env, args.toArray(String[]::new));
    }

    private void say(String line) throws IOException {
        Files.writeString(chat(), line + "\n", StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private void say(String role, String content) throws IOException {
        say("{\"role\":\"" + role + "\",\"content\":\"" + content + "\"}");
    }

    /** Customer 61 up to the customer's yes to the agent's proposal to cancel #W61a. */
    private void upToTheYes(Host host) throws Exception {
        host.send(Host.initialize(1, "2025-06-18", "{}"));
        host.response(1);
        host.send(Host.INITIALIZED);
        say("user", "Please cancel my order, I ordered it by mistake. I'm c61@example.com.");
        assertEquals("user_61", call(host, 2, "find_user_id_by_email", "{\"email\":\"c61@example.com\"}"));
        call(host, 3, "get_user_details", "{\"user_id\":\"user_61\"}");
        call(host, 4, "get_order_details", "{\"order_id\":\"#W61a\"}");
        say("assistant", "Order #W61a is pending. Shall I cancel it, as ordered by mistake?");
        say("user", "Yes, cancel it.");
    }

    /** Calls a tool and returns the text of its result. */
    private static String call(Host host, int id, String tool, String arguments) throws Exception {
        host.send(Host.call(id, tool, arguments));
        return host.response(id).at("/result/content/0/text").asText();
    }

    private static Request confirmed() {
        return Request.of(ServiceSettings.DEFAULT_MODEL, new Exchange("Order #W61a is pending. Shall I cancel it, as"
                        + " ordered by mistake?", "Yes, cancel it.").state("cancel_pending_order",
                        SessionLogFile.JSON.createObjectNode().put("order_id", "#W61a").put("reason", "ordered by mistake")),
                ConfirmQuestions.CONFIRMED_ID, ConfirmQuestions.CONFIRMED);
    }

    private Path confirmLog() throws IOException {
        try (Stream<Path> files = Files.list(logs())) {
            List<Path> found = files.filter(f -> f.getFileName().toString().endsWith(".confirm.jsonl")).toList();
            assertEquals(1, found.size(), "one confirm log beside the session log: " + found);
            return found.getFirst();
        }
    }

    private Path sessionLog() throws IOException {
        Path confirmLog = confirmLog();
        String name = confirmLog.getFileName().toString();
        return confirmLog.resolveSibling(name.substring(0, name.length() - ".confirm.jsonl".length()) + ".jsonl");
    }

    private static String withoutMs(String line) {
        return line.replaceFirst("\"ms\":\\d+,", "\"ms\":0,");
    }

    @Test
    void theReferencesRetailSessionReplayedWithTheMockOracleGivesItsConfirmLine() throws Exception {
        SessionLogFile reference = SessionLogFile.read(REFERENCE);
        try (Proc p = proxy(Map.of(), judgeArgs("--confirm-judge", "log", "--oracle", "mock"))) {
            Host host = new Host(p);
            // The client's lines in order, each request's answer awaited as the reference's agent
            // did; the conversation appended before the calls it precedes.
            for (JsonNode e : reference.entries()) {
                JsonNode m = e.get("message");
                switch (e.get("from").asText()) {
                    case "context" -> say(SessionLogFile.JSON.writeValueAsString(m));
                    case "client" -> {
                        host.send(SessionLogFile.JSON.writeValueAsString(m));
                        if (m.has("id")) {
                            host.response(m.get("id").asInt());
                        }
                    }
                    default -> {
                    }
                }
            }
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
        assertEquals(List.of(REFERENCE_LINE), Files.readAllLines(confirmLog()).stream().map(ConfirmJudgeIT::withoutMs)
                .toList());
    }

    @Test
    void enforceRefusesAWriteTheModelSaysWasNotAgreedToAndShowMarksIt() throws Exception {
        Path cache = dir.resolve("cache");
        new OracleCache(cache).put(confirmed().key(), Response.of("jev-1.13.0",
                Map.of(ConfirmQuestions.CONFIRMED_ID, new Answer.Noul(0.15)), TokenUsage.NONE));
        String refusal = "Refused by the policy check, so cancel_pending_order was not run and nothing changed: the"
                + " customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15); describe the"
                + " change and ask the customer to confirm it first.";
        try (Proc p = proxy(Map.of(), judgeArgs("--confirm-judge", "enforce", "--oracle", "replay", "--oracle-cache",
                cache.toString()))) {
            Host host = new Host(p);
            upToTheYes(host);
            host.send(Host.call(5, "cancel_pending_order", CANCEL));
            JsonNode refused = host.response(5);
            assertEquals(refusal, refused.at("/result/content/0/text").asText());
            assertTrue(refused.at("/result/isError").asBoolean());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertTrue(p.stderr().contains("stretto-proxy: refused cancel_pending_order: " + refusal.substring(
                    refusal.indexOf("the customer"), refusal.length() - 1) + "\n"), p.stderr());
        }
        assertEquals(List.of(("{\"arguments\":" + CANCEL + ",\"enforced\":true,\"fails\":true,\"key\":\"" + confirmed().key()
                + "\",\"ms\":0,\"p_yes\":0.15,\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,"
                + "\"word_list\":true}")), Files.readAllLines(confirmLog()).stream().map(ConfirmJudgeIT::withoutMs).toList());
        try (Proc show = Proc.start(List.of(Repo.bin("stretto"), "show", sessionLog().toString()))) {
            assertEquals(0, show.waitFor(), show.stderr());
            String out = new String(show.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.lines().anyMatch(l -> l.contains("id 5 ") && l.endsWith("REFUSED")), out);
            assertTrue(out.contains("judge: REFUSED, no explicit agreement (p_yes 0.15)  word list: yes"), out);
            assertTrue(out.contains("1 judged (1 refused)"), out);
        }
    }

    @Test
    void aSlowModelHoldsOnlyTheWriteItJudgesWhileOtherCallsGetTheirAnswers() throws Exception {
        AtomicBoolean answered = new AtomicBoolean();
        HttpServer service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/v1/systemone", exchange -> {
            try (exchange) {
                if (!"Bearer sk-it-judge".equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                    exchange.sendResponseHeaders(401, -1);
                    return;
                }
                exchange.getRequestBody().readAllBytes();
                Thread.sleep(2000); // the slow model under test, not a wait for an event
                byte[] body = "{\"model\":\"jev-1.13.0\",\"answers\":{\"confirmed\":{\"type\":\"noul\",\"noul\":0.9}}}"
                        .getBytes(StandardCharsets.UTF_8);
                answered.set(true);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        service.start();
        Map<String, String> env = Map.of("TYPESAFE_API_KEY", "sk-it-judge", "TYPESAFE_BASE_URL",
                "http://127.0.0.1:" + service.getAddress().getPort());
        try (Proc p = proxy(env, judgeArgs("--confirm-judge", "enforce", "--oracle", "jev", "--oracle-cache",
                dir.resolve("cache").toString()))) {
            Host host = new Host(p);
            upToTheYes(host);
            host.send(Host.call(5, "cancel_pending_order", CANCEL));
            host.send(Host.call(6, "get_order_details", "{\"order_id\":\"#W61b\"}"));
            host.send(Host.call(7, "get_user_details", "{\"user_id\":\"user_61\"}"));
            List<Integer> order = new ArrayList<>();
            while (order.size() < 3) {
                JsonNode m = host.next();
                order.add(m.get("id").asInt());
                if (order.size() == 2) {
                    assertFalse(answered.get(), "calls 6 and 7 were answered while the model still thought");
                }
            }
            assertEquals(List.of(6, 7, 5), order);
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        } finally {
            service.stop(0);
        }
        String line = Files.readAllLines(confirmLog()).getFirst();
        assertTrue(line.contains("\"p_yes\":0.9,"), line);
        long ms = SessionLogFile.JSON.readTree(line).get("ms").asLong();
        assertTrue(ms >= 2000, "the write waited for the model: " + line);
        assertEquals(1, new OracleCache(dir.resolve("cache")).keys().size(), "the answer is cached");
    }

    @Test
    void withJevAndNoKeyTheProxySaysSoAtStartAndTheJudgeRefusesNothing() throws Exception {
        // Empty values count as unset: whatever the test's own environment holds.
        Map<String, String> noKey = Map.of("TYPESAFE_API_KEY", "", "TYPESAFE_API_KEY_FILE", "");
        try (Proc p = proxy(noKey, judgeArgs("--confirm-judge", "enforce", "--oracle-cache",
                dir.resolve("cache").toString()))) {
            Host host = new Host(p);
            upToTheYes(host);
            assertEquals("{\"order_id\":\"#W61a\",\"status\":\"cancelled\"}", call(host, 5, "cancel_pending_order", CANCEL));
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertTrue(p.stderr().contains("stretto-proxy: no TypeSafe API key is set (TYPESAFE_API_KEY or"
                    + " TYPESAFE_API_KEY_FILE): the confirmation judge cannot ask System-One and refuses nothing; set one,"
                    + " or answer from the cache with --oracle replay\n"), p.stderr());
        }
        String line = Files.readAllLines(confirmLog()).getFirst();
        assertTrue(line.contains("\"error\":\"no TypeSafe API key is set (TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE)\","
                + "\"fails\":false,"), line);
        assertTrue(line.contains("\"unknown\":true,"), line);
    }

    @Test
    void theJudgeChecksTheCallsOfAStrettoCommit() throws Exception {
        try (Proc p = proxy(Map.of(), judgeArgs("--commit", "--confirm-judge", "log", "--oracle", "mock"))) {
            Host host = new Host(p);
            upToTheYes(host);
            host.send(Host.call(5, "stretto_commit", "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":"
                    + CANCEL + "}]}"));
            assertEquals("cancel_pending_order " + CANCEL + ":\n{\"order_id\":\"#W61a\",\"status\":\"cancelled\"}",
                    host.response(5).at("/result/content/0/text").asText());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
        assertEquals(List.of(REFERENCE_LINE),
                Files.readAllLines(confirmLog()).stream().map(ConfirmJudgeIT::withoutMs).toList(),
                "the same exchange and call: the same question, answered by the mock");
    }

    @Test
    void retainDaysPrunesTheOracleCacheAndSaysHowMuch() throws Exception {
        Path cache = dir.resolve("cache");
        OracleCache answers = new OracleCache(cache);
        Response r = Response.of("jev-1.13.0", Map.of(ConfirmQuestions.CONFIRMED_ID, new Answer.Noul(0.9)), TokenUsage.NONE);
        String old = "aa" + "0".repeat(62);
        answers.put(old, r);
        answers.put(confirmed().key(), r);
        Files.setLastModifiedTime(answers.fileOf(old), FileTime.from(Instant.now().minus(Duration.ofDays(40))));
        try (Proc p = proxy(Map.of(), judgeArgs("--retain-days", "30", "--confirm-judge", "enforce", "--oracle", "replay",
                "--oracle-cache", cache.toString()))) {
            Host host = new Host(p);
            upToTheYes(host);
            host.send(Host.call(5, "cancel_pending_order", CANCEL));
            assertFalse(host.response(5).at("/result/isError").asBoolean());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertTrue(p.stderr().contains("stretto-proxy: --retain-days 30: deleted 1 oracle answer under "
                    + cache.toAbsolutePath() + "\n"), p.stderr());
        }
        assertEquals(List.of(confirmed().key()), answers.keys());
    }

    @Test
    void theJudgeWithoutTheGuardsOrTheConversationIsAUsageError() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--domain", "retail", "--context", "c.jsonl", "--confirm-judge", "log", "--",
                "cat")) {
            assertEquals(2, p.waitFor());
            assertTrue(p.stderr().startsWith("stretto-proxy: --confirm-judge needs --guards: it judges the writes the"
                    + " guards check for the customer's confirmation\n"), p.stderr());
        }
        try (Proc p = Proc.proxy(Map.of(), "--domain", "retail", "--guards", "--confirm-judge", "enforce", "--", "cat")) {
            assertEquals(2, p.waitFor());
            assertTrue(p.stderr().startsWith("stretto-proxy: --confirm-judge needs --context FILE: it judges the"
                    + " customer's reply, which only the conversation holds\n"), p.stderr());
        }
    }

    /** The shell blocks of docs/active-mode.md's section on the judge, as a user pastes them. */
    private static String docsExample() throws IOException {
        String page = Files.readString(Repo.root().resolve("docs/active-mode.md"), StandardCharsets.UTF_8);
        int from = page.indexOf("\n## `--confirm-judge`: the confirmation judge\n");
        int to = page.indexOf("\n## ", from + 1);
        assertTrue(from >= 0 && to > from, "docs/active-mode.md has its section on the judge");
        String section = page.substring(from, to);
        StringBuilder script = new StringBuilder();
        for (int at = section.indexOf("```sh\n"); at >= 0; at = section.indexOf("```sh\n", at + 1)) {
            int start = at + "```sh\n".length();
            script.append(section, start, section.indexOf("```\n", start));
        }
        return script.toString();
    }

    @Test
    void theDocsWorkedExampleRunsAsWrittenWithTheMockOracle() throws Exception {
        String script = docsExample();
        assertTrue(script.contains("--confirm-judge log --oracle mock"), script);
        Path example = dir.resolve("example");
        try (Proc sh = Proc.start(List.of("sh", "-c", script.replace("/tmp/stretto-judge", example.toString())),
                Repo.root(), Map.of())) {
            assertEquals(0, sh.waitFor(), sh.stderr());
            String out = new String(sh.stdoutBytes(), StandardCharsets.UTF_8);
            List<String> lines = out.lines().toList();
            assertTrue(lines.stream().anyMatch(l -> withoutMs(l).equals(REFERENCE_LINE)), out);
            assertTrue(out.contains("judge: agreed (p_yes 0.50)  word list: yes  "), out);
            assertEquals("{\"id\":5,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the policy check, so"
                    + " cancel_pending_order was not run and nothing changed: the customer has not explicitly agreed to this"
                    + " exact change (confirmation judge: p_yes 0.50); describe the change and ask the customer to confirm it"
                    + " first.\",\"type\":\"text\"}],\"isError\":true}}", lines.getLast());
            assertTrue(sh.stderr().contains("stretto-proxy: refused cancel_pending_order: the customer has not explicitly"
                    + " agreed to this exact change"), sh.stderr());
        }
    }
}
