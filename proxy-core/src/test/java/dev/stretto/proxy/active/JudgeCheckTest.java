package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.LiveHost.callLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpServer;
import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.JudgeSettings;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.proxy.oracle.MockOracle;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ServiceSettings;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The judge in the session's chain of checks, on a whole session whose server the test
 * scripts: which calls it judges, its model-free proposal check, and its questions asked in
 * forks while the call waits and other traffic flows.
 */
class JudgeCheckTest {

    @TempDir
    Path tmp;

    private ActorHarness harness(JudgeSettings settings, Oracle oracle) {
        return new ActorHarness(ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow())
                .context(tmp.resolve("chat.jsonl")).oracle(oracle)
                .judge(new ConfirmJudge(settings, ServiceSettings.DEFAULT_MODEL, tmp.resolve("confirm.jsonl"))).build());
    }

    /** The confirm log's lines so far (each is written before the judged call goes on or is refused). */
    private List<String> confirmLines() throws Exception {
        Path log = tmp.resolve("confirm.jsonl");
        return Files.exists(log) ? Files.readAllLines(log, StandardCharsets.UTF_8) : List.of();
    }

    private void say(String role, String content) throws Exception {
        ObjectNode line = LiveHost.JSON.createObjectNode().put("role", role).put("content", content);
        Files.writeString(tmp.resolve("chat.jsonl"), LiveHost.JSON.writeValueAsString(line) + "\n",
                StandardCharsets.UTF_8, StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static String result(int id, String text) throws Exception {
        ObjectNode r = LiveHost.JSON.createObjectNode().put("id", id).put("jsonrpc", "2.0");
        ObjectNode result = r.putObject("result");
        result.putArray("content").addObject().put("text", text).put("type", "text");
        result.put("isError", false);
        return LiveHost.JSON.writeValueAsString(r);
    }

    /** The agent calls, the server answers {@code text}; returns the text the host got. */
    private static String lookUp(ActorHarness h, int id, String tool, String args, String text) throws Exception {
        h.host.send(callLine(id, tool, args));
        assertEquals(callLine(id, tool, args), h.server.next());
        h.server.say(result(id, text));
        return LiveHost.text(h.host.response(id));
    }

    /** Customer 1 authenticated, their two cards and order #W1a looked up. */
    private void customer1WithTwoCards(ActorHarness h) throws Exception {
        say("user", "I'm c1@example.com. Please pay order #W1a with another card.");
        lookUp(h, 1, "find_user_id_by_email", "{\"email\":\"c1@example.com\"}", "user_1");
        lookUp(h, 2, "get_user_details", "{\"user_id\":\"user_1\"}", "{\"user_id\":\"user_1\",\"payment_methods\":{"
                + "\"credit_card_4196779\":{\"brand\":\"visa\",\"id\":\"credit_card_4196779\",\"last_four\":\"7447\","
                + "\"source\":\"credit_card\"},\"credit_card_1920\":{\"brand\":\"mastercard\",\"id\":\"credit_card_1920\","
                + "\"last_four\":\"1920\",\"source\":\"credit_card\"}}}");
        lookUp(h, 3, "get_order_details", "{\"order_id\":\"#W1a\"}", "{\"order_id\":\"#W1a\",\"status\":\"pending\","
                + "\"user_id\":\"user_1\",\"items\":[{\"item_id\":\"1\"}],\"payment_history\":[{\"payment_method_id\":"
                + "\"credit_card_4196779\"}]}");
        say("assistant", "You have a Visa ending 7447 and a Mastercard ending 1920. Which one should pay for #W1a?");
    }

    @Test
    void theProposalCheckFlagsACardFromARecordTheCustomerDidNotChoose() throws Exception {
        try (ActorHarness h = harness(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), new MockOracle())) {
            customer1WithTwoCards(h);
            say("user", "The Visa ending 7447, please go ahead.");
            String args = "{\"order_id\":\"#W1a\",\"payment_method_id\":\"credit_card_1920\"}";
            h.host.send(callLine(4, "modify_pending_order_payment", args));
            assertEquals(callLine(4, "modify_pending_order_payment", args), h.server.next(),
                    "logged only: the check refuses nothing");
            assertEquals(1, confirmLines().size());
            String line = ConfirmJudgeEndToEndTest.withoutMs(confirmLines().getFirst());
            assertTrue(line.contains(",\"proposal_check\":[{\"argument\":\"payment_method_id\",\"value\":"
                    + "\"credit_card_1920\"}],"), line);
            assertTrue(line.contains("\"fails\":false,") && line.contains("\"word_list\":true}"), line);
        }
    }

    @Test
    void theProposalCheckFlagsNothingWhenTheCallPaysWithTheChosenCard() throws Exception {
        try (ActorHarness h = harness(JudgeSettings.of(JudgeSettings.Mode.LOG), new MockOracle())) {
            customer1WithTwoCards(h);
            say("user", "The Visa ending 7447, please go ahead.");
            String args = "{\"order_id\":\"#W1a\",\"payment_method_id\":\"credit_card_4196779\"}";
            h.host.send(callLine(4, "modify_pending_order_payment", args));
            h.server.next();
            assertTrue(confirmLines().getFirst().contains(",\"proposal_check\":[],"), confirmLines().getFirst());
        }
    }

    @Test
    void readsAndCallsTheGuardsRefuseAreNotJudged() throws Exception {
        try (ActorHarness h = harness(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), new MockOracle())) {
            say("user", "Cancel #W1a please.");
            lookUp(h, 1, "find_user_id_by_email", "{\"email\":\"c1@example.com\"}", "user_1");
            h.host.send(callLine(2, "cancel_pending_order", "{\"order_id\":\"#W1a\",\"reason\":\"ordered by mistake\"}"));
            assertTrue(LiveHost.text(h.host.response(2)).endsWith("(policy check retail.status_checked)."));
            assertEquals(List.of(), confirmLines(), "the guards refused the write before the judge saw it");
        }
    }

    @Test
    void theQuestionIsAskedOffTheActorWhileTheWriteWaitsAndOtherCallsGoBy() throws Exception {
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch asked = new CountDownLatch(1);
        List<String> askedOn = new CopyOnWriteArrayList<>();
        HttpServer service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        service.createContext("/v1/systemone", exchange -> {
            try (exchange) {
                askedOn.add(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
                asked.countDown();
                release.await(LiveHost.WAIT_S, TimeUnit.SECONDS);
                byte[] body = "{\"model\":\"jev-1.13.0\",\"answers\":{\"confirmed\":{\"type\":\"noul\",\"noul\":0.1}}}"
                        .getBytes(StandardCharsets.UTF_8);
                exchange.sendResponseHeaders(200, body.length);
                exchange.getResponseBody().write(body);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        service.start();
        ServiceSettings settings = new ServiceSettings(ApiKey.of("sk-test-judge"),
                URI.create("http://127.0.0.1:" + service.getAddress().getPort()), ServiceSettings.DEFAULT_MODEL, null);
        try (Oracle jev = Oracle.of(OracleMode.JEV, new OracleCache(tmp.resolve("cache")), settings);
             ActorHarness h = harness(JudgeSettings.of(JudgeSettings.Mode.ENFORCE), jev)) {
            customer1WithTwoCards(h);
            say("user", "Yes, the Visa.");
            h.host.send(callLine(4, "modify_pending_order_payment",
                    "{\"order_id\":\"#W1a\",\"payment_method_id\":\"credit_card_4196779\"}"));
            assertTrue(asked.await(LiveHost.WAIT_S, TimeUnit.SECONDS), "the question was asked");
            assertEquals("user_1", lookUp(h, 5, "find_user_id_by_email", "{\"email\":\"c1@example.com\"}", "user_1"),
                    "another call goes to the server and back while the write waits for its answer");
            assertNull(h.server.poll(0), "the write has not reached the server");
            assertTrue(confirmLines().isEmpty());
            release.countDown();
            assertTrue(LiveHost.text(h.host.response(4)).contains("(confirmation judge: p_yes 0.10)"));
            assertEquals(1, confirmLines().size());
            assertTrue(askedOn.getFirst().startsWith("{\"model\":\"jev-latest\",\"state\":{\"agent_said_last\":\"You have"
                    + " a Visa ending 7447"), askedOn.getFirst());
        } finally {
            service.stop(0);
        }
    }
}
