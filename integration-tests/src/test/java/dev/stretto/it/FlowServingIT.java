package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A flow served through the launchers: bin/stretto-proxy --flow in front of
 * bin/stretto-mcp-demo --world retail, as the README's worked example runs it, then the session
 * through bin/stretto show and bin/stretto flow; and a signal that comes while a run waits for
 * the System-One model, which ends the run with its run line in the flow log.
 */
class FlowServingIT {

    private static final String SHOP_FLOW = "testdata/reference/home/shop.flow.json";
    private static final String USER_41 = "{\"email\":\"c41@example.com\",\"orders\":[\"#W41a\",\"#W41b\"],"
            + "\"payment_methods\":{\"credit_card_41\":{\"source\":\"credit_card\"}},\"user_id\":\"user_41\"}";

    @TempDir
    Path dir;

    private static void say(Path chat, String role, String content) throws Exception {
        Files.writeString(chat, "{\"role\":\"" + role + "\",\"content\":\"" + content + "\"}\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static String order(String id) {
        return "{\"items\":[{\"item_id\":\"1\",\"name\":\"Desk lamp\",\"product_id\":\"p1\"}],\"order_id\":\"" + id
                + "\",\"payment_history\":[{\"payment_method_id\":\"credit_card_41\"}],\"status\":\"pending\","
                + "\"user_id\":\"user_41\"}";
    }

    private static Proc stretto(String... args) throws Exception {
        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto")));
        command.addAll(List.of(args));
        return Proc.start(command);
    }

    @Test
    void theWorkedExampleLooksUpWhatTheAgentWouldHaveAndTheLogsShowIt() throws Exception {
        Path chat = dir.resolve("chat.jsonl");
        Path logs = dir.resolve("logs");
        try (Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--domain", "shop", "--context", chat.toString(),
                "--flow", Repo.root().resolve(SHOP_FLOW).toString(), "--", Repo.bin("stretto-mcp-demo"), "--world",
                "retail")) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            host.response(1);
            host.send(Host.INITIALIZED);
            host.send(Host.request(2, "tools/list", null));
            host.response(2);
            say(chat, "user", "Hi, I am c41@example.com. I want to cancel an order I no longer need.");
            host.send(Host.call(3, "find_user_id_by_email", "{\"email\":\"c41@example.com\"}"));
            JsonNode content = host.response(3).at("/result/content");
            assertEquals("user_41", content.get(0).get("text").asText());
            assertEquals("--- Also looked up automatically (current results; no need to repeat these calls) ---\n\n"
                    + "get_user_details {\"user_id\":\"user_41\"}:\n" + USER_41 + "\n\n"
                    + "get_order_details {\"order_id\":\"#W41a\"}:\n" + order("#W41a") + "\n\n"
                    + "get_order_details {\"order_id\":\"#W41b\"}:\n" + order("#W41b"), content.get(1).get("text").asText());
            say(chat, "assistant", "You have two pending orders, #W41a and #W41b. Which one should I cancel?");
            say(chat, "user", "The first one, please.");
            host.send(Host.call(4, "cancel_pending_order", "{\"order_id\":\"#W41a\",\"reason\":\"no longer needed\"}"));
            assertEquals(1, host.response(4).at("/result/content").size(), "no lookup follows a cancel");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertTrue(p.stderr().contains("stretto-proxy: serving the shop flow from "
                    + Repo.root().resolve(SHOP_FLOW) + ", deciding with reach\n"), p.stderr());
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        Path flowLog = logs.resolve(log.path().getFileName().toString().replace(".jsonl", ".flow.jsonl"));
        assertEquals(7, Files.readAllLines(flowLog).size());

        try (Proc show = stretto("show", log.path().toString())) {
            assertEquals(0, show.waitFor(), show.stderr());
            String out = new String(show.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.contains("             flow after call 3: find_user_id_by_email\n"
                    + "               decide#0  at find_user_id_by_email  look up get_user_details {\"user_id\":\"user_41\"}"
                    + "  p 0.99, arguments 0.88  made"), out);
            assertTrue(out.contains("  LOOKUP\n"), out);
        }
        try (Proc flow = stretto("flow", flowLog.toString())) {
            assertEquals(0, flow.waitFor(), flow.stderr());
            String out = new String(flow.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.startsWith("flow log " + flowLog + "\n2 runs, 5 decisions, 3 lookups made\n"), out);
            assertTrue(out.contains("  3 lookups made, surprise 0.28\n"), out);
        }
    }

    @Test
    void aSignalWhileTheArbitersQuestionIsOutEndsTheRunWithItsRunLine() throws Exception {
        CountDownLatch asked = new CountDownLatch(1);
        CountDownLatch done = new CountDownLatch(1);
        HttpServer service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/v1/systemone", exchange -> {
            // A model that does not answer before the proxy is stopped.
            asked.countDown();
            try {
                done.await(Proc.WAIT_SECONDS, TimeUnit.SECONDS);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            exchange.close();
        });
        service.setExecutor(java.util.concurrent.Executors.newVirtualThreadPerTaskExecutor());
        service.start();
        Path logs = dir.resolve("logs");
        try (Proc p = Proc.start(List.of("env", "--default-signal=TERM", Repo.bin("stretto-proxy"), "--record",
                        logs.toString(), "--domain", "retail", "--flow",
                        Repo.root().resolve("testdata/reference/retail-5-sessions-shipped-arbiter.flow.json").toString(),
                        "--", Repo.bin("stretto-mcp-demo"), "--world", "retail"), null,
                Map.of("TYPESAFE_API_KEY", "sk-it-signal", "TYPESAFE_BASE_URL",
                        "http://127.0.0.1:" + service.getAddress().getPort()))) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            host.response(1);
            host.send(Host.call(3, "find_user_id_by_email", "{\"email\":\"c61@example.com\"}"));
            assertTrue(asked.await(Proc.WAIT_SECONDS, TimeUnit.SECONDS), "the arbiter asked; stderr:\n" + p.stderr());
            p.signal("TERM");
            assertEquals(143, p.waitFor(), p.stderr());
            assertFalse(p.stderr().contains("sk-it-signal"), p.stderr());
        } finally {
            done.countDown();
            service.stop(0);
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertTrue(log.indexesFrom("server").size() >= 2, "the answer the run held is in the session log");
        Path flowLog = logs.resolve(log.path().getFileName().toString().replace(".jsonl", ".flow.jsonl"));
        assertEquals(List.of("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,"
                + "\"sites\":[],\"surprise\":-0.0}}"), Files.readAllLines(flowLog));
    }

    /**
     * The lookups one of the customer's messages brings, through the launchers, with a format-3
     * flow: the shop flow given a threshold of its own for the order lookup after the user's
     * details when the customer said the order with "cancel".
     */
    private List<String> servedAfterFind(Path flow, String customerSays) throws Exception {
        Path chat = dir.resolve("chat-" + customerSays.hashCode() + ".jsonl");
        try (Proc p = Proc.proxy(Map.of(), "--domain", "shop", "--context", chat.toString(), "--flow", flow.toString(),
                "--", Repo.bin("stretto-mcp-demo"), "--world", "retail")) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            host.response(1);
            host.send(Host.INITIALIZED);
            say(chat, "user", customerSays);
            host.send(Host.call(2, "find_user_id_by_email", "{\"email\":\"c41@example.com\"}"));
            JsonNode content = host.response(2).at("/result/content");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            List<String> lookups = new ArrayList<>();
            if (content.size() > 1) {
                for (String line : content.get(1).get("text").asText().split("\n")) {
                    if (line.startsWith("get_")) {
                        lookups.add(line);
                    }
                }
            }
            return lookups;
        }
    }

    @Test
    void aFormatThreeFlowHoldsALookupToTheThresholdOfTheVerbTheCustomerSaidItWith() throws Exception {
        String shop = Files.readString(Repo.root().resolve(SHOP_FLOW), StandardCharsets.UTF_8).strip();
        assertTrue(shop.startsWith("{\"stretto_flow\":1,") && shop.endsWith("}"), shop);
        Path flow = dir.resolve("shop-3.flow.json");
        Files.writeString(flow, "{\"stretto_flow\":3," + shop.substring("{\"stretto_flow\":1,".length(), shop.length() - 1)
                + ",\"lookup_thresholds\":{\"get_user_details\":{\"get_order_details\":{\"mentioned:cancel\":2.0}}}}\n",
                StandardCharsets.UTF_8);
        // "cancel": the order the customer named is switched off after their details, so the run hands back there.
        assertEquals(List.of("get_user_details {\"user_id\":\"user_41\"}:"),
                servedAfterFind(flow, "Hi, I am c41@example.com. I want to cancel my order #W41b."));
        // No write's verb: the case without the verb has no threshold of its own, so the site's holds, as before.
        assertEquals(List.of("get_user_details {\"user_id\":\"user_41\"}:", "get_order_details {\"order_id\":\"#W41b\"}:",
                        "get_order_details {\"order_id\":\"#W41a\"}:"),
                servedAfterFind(flow, "Hi, I am c41@example.com. Please look at my order #W41b."));
    }
}
