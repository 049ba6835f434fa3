package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto-proxy --upstream} in front of the reference server,
 * {@code @modelcontextprotocol/server-everything} (installed by bin/lib/npm-install reference-server),
 * started with {@code streamableHttp} on a free loopback port. The test is the host.
 */
class ReferenceServerIT {

    @TempDir
    Path logs;

    @Test
    void theReferenceServerWorksThroughTheProxyAndTheSessionIsLogged() throws Exception {
        try (HttpServers.Reference server = HttpServers.Reference.start();
             Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--record", logs.toString(), "--domain", "everything",
                     "--upstream", server.url()), null, Map.of())) {
            Host host = new Host(p);
            // The TypeScript SDK's default revision; sampling declared so the server may ask for it.
            host.send(Host.initialize(1, "2025-11-25", "{\"sampling\":{}}"));
            JsonNode init = host.response(1);
            assertEquals("mcp-servers/everything", init.at("/result/serverInfo/name").asText(), init.toString());
            assertEquals("2025-11-25", init.at("/result/protocolVersion").asText());
            host.send(Host.INITIALIZED);

            host.send(Host.request(2, "logging/setLevel", "{\"level\":\"debug\"}"));
            assertTrue(host.response(2).get("result").isObject());

            host.send(Host.request(3, "tools/call", "{\"name\":\"trigger-long-running-operation\",\"arguments\":"
                    + "{\"duration\":2,\"steps\":4},\"_meta\":{\"progressToken\":\"progress-3\"}}"));
            List<JsonNode> beforeResult = host.untilResponse(3);
            JsonNode result = beforeResult.getLast();
            assertEquals("Long running operation completed. Duration: 2 seconds, Steps: 4.",
                    result.at("/result/content/0/text").asText(), result.toString());
            long progress = beforeResult.stream()
                    .filter(m -> Host.isMethod(m, "notifications/progress"))
                    .filter(m -> m.at("/params/progressToken").asText().equals("progress-3"))
                    .count();
            assertTrue(progress >= 2, "progress notifications before the result: " + beforeResult);

            // The server registers its capability-dependent tools a moment after initialization,
            // so ask again (a bounded number of round trips) until the sampling tool is listed.
            List<String> tools = new ArrayList<>();
            for (int id = 100; id < 200 && !tools.contains("trigger-sampling-request"); id++) {
                host.send(Host.request(id, "tools/list", null));
                tools.clear();
                host.response(id).at("/result/tools").forEach(t -> tools.add(t.get("name").asText()));
            }
            assertTrue(tools.containsAll(List.of("echo", "trigger-long-running-operation", "toggle-simulated-logging",
                    "trigger-sampling-request")), tools.toString());

            // A request from the server in the middle of a call, answered by the host.
            host.send(Host.call(5, "trigger-sampling-request", "{\"prompt\":\"hi\",\"maxTokens\":10}"));
            JsonNode sampling = host.until(m -> Host.isMethod(m, "sampling/createMessage") || Host.isResponse(m, 5)).getLast();
            assertTrue(Host.isMethod(sampling, "sampling/createMessage"), "the server asks the host: " + sampling);
            host.send("{\"jsonrpc\":\"2.0\",\"id\":" + sampling.get("id") + ",\"result\":{\"role\":\"assistant\","
                    + "\"content\":{\"type\":\"text\",\"text\":\"canned reply from the IT host\"},\"model\":\"it-fake\","
                    + "\"stopReason\":\"endTurn\"}}");
            JsonNode sampled = host.response(5);
            assertTrue(sampled.at("/result/content/0/text").asText().contains("canned reply from the IT host"),
                    sampled.toString());

            // Log messages not tied to a request come on the server's own (GET) stream: once the
            // toggle's answer is in, no POST stream is open any more.
            host.send(Host.call(6, "toggle-simulated-logging", "{}"));
            assertTrue(host.response(6).at("/result/content/0/text").asText().startsWith("Started simulated"));
            JsonNode logMessage = host.until(m -> Host.isMethod(m, "notifications/message")).getLast();
            assertTrue(logMessage.at("/params/data").asText().contains("SessionId"), logMessage.toString());

            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());

            SessionLogFile log = SessionLogFile.onlyIn(logs);
            assertEquals(List.of(server.url()), SessionLogFile.JSON.convertValue(log.header().get("server_command"),
                    List.class));
            assertEquals("everything", log.header().get("domain").asText());
            assertTrue(log.entries().size() >= 10, "entries: " + log.entries().size());
            host.assertEverySentLineLogged(log);
            host.assertEveryReceivedLineLogged(log);
            assertTrue(log.indexesFrom("proxy").isEmpty(), "the proxy answered nothing itself: " + log.lines());
            log.assertTimesNeverDecrease();
            assertTrue(p.stderr().lines().allMatch(l -> l.startsWith("stretto-proxy: ")), p.stderr());
        }
    }
}
