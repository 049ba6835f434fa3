package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto-proxy --upstream URL} in front of {@code stretto-mcp-demo --http}, both real
 * processes. The demo refuses any request after initialize that lacks the live session id or
 * the agreed protocol version, so every answered request proves the proxy sent both.
 */
class UpstreamDemoIT {

    @TempDir
    Path logs;

    @Test
    void tryItSessionOverHttpIsAnsweredLoggedAndEndedWithDelete() throws Exception {
        try (HttpServers.Demo demo = HttpServers.Demo.start();
             Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--domain", "demo", "--upstream", demo.url())) {
            Host host = new Host(p);
            for (String line : TryItSessionIT.TRY_IT_LINES) {
                host.send(line);
            }
            // The answers in any order, plus the log line each tools/call stream carries before
            // its result, plus the greeting of the server's own (GET) stream.
            boolean greeted = false;
            Set<Integer> answered = new HashSet<>();
            Set<String> called = new HashSet<>();
            while (answered.size() < 4 || !greeted) {
                JsonNode m = host.next();
                if (Host.isMethod(m, "notifications/message")) {
                    String data = m.at("/params/data").asText();
                    if (data.equals("hello from the server's own stream")) {
                        greeted = true;
                    } else {
                        assertTrue(data.startsWith("calling "), m.toString());
                        called.add(data.substring("calling ".length()));
                    }
                    continue;
                }
                int id = m.get("id").asInt();
                assertTrue(answered.add(id), "answered twice: " + m);
                if (id == 3) {
                    assertTrue(called.contains("lookup"), "the call's log message reaches the host before its result");
                    assertEquals("{\"text\":\"hello\"}", m.at("/result/content/0/text").asText());
                    assertFalse(m.at("/result/isError").asBoolean());
                } else if (id == 4) {
                    assertTrue(called.contains("update"), "the call's log message reaches the host before its result");
                    assertTrue(m.at("/result/isError").asBoolean(), m.toString());
                } else if (id == 1) {
                    assertEquals("stretto-mcp-demo", m.at("/result/serverInfo/name").asText());
                } else {
                    assertEquals(2, id);
                    assertEquals(2, m.at("/result/tools").size());
                }
            }
            // The proxy's session is the demo's first; it is alive while the proxy runs...
            Map<String, String> session = Map.of("Mcp-Session-Id", "demo-session-1", "MCP-Protocol-Version", "2025-06-18");
            String ping = Host.request(9, "ping", null);
            assertEquals(200, HttpServers.post(demo.url(), ping, session).statusCode());

            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            // ...and gone once the proxy has ended it with DELETE.
            assertEquals(404, HttpServers.post(demo.url(), ping, session).statusCode());

            SessionLogFile log = SessionLogFile.onlyIn(logs);
            assertEquals(List.of(demo.url()), SessionLogFile.JSON.convertValue(log.header().get("server_command"),
                    List.class));
            assertEquals("demo", log.header().get("domain").asText());
            host.assertEverySentLineLogged(log);
            host.assertEveryReceivedLineLogged(log);
            assertEquals(host.sent.size() + host.received.size(), log.entries().size(), String.join("\n", log.lines()));
            assertTrue(log.indexesFrom("proxy").isEmpty(), "the server answered everything itself");
            log.assertTimesNeverDecrease();
        }
    }

    @Test
    void upstreamHeaderCarriesTheSecretThatNeverShowsInTheLogOrOnStderr() throws Exception {
        String secret = "Bearer demo-secret-7f3a9c";
        try (HttpServers.Demo demo = HttpServers.Demo.start("--require-auth", secret);
             Proc p = Proc.proxy(Map.of("DEMO_AUTH", secret), "--record", logs.toString(), "--log-level", "debug",
                     "--upstream", demo.url(), "--upstream-header", "Authorization=DEMO_AUTH")) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            assertEquals("stretto-mcp-demo", host.response(1).at("/result/serverInfo/name").asText());
            host.send(Host.INITIALIZED);
            host.send(Host.call(2, "lookup", "{\"text\":\"authorised\"}"));
            assertEquals("{\"text\":\"authorised\"}", host.response(2).at("/result/content/0/text").asText());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());

            SessionLogFile log = SessionLogFile.onlyIn(logs);
            String text = Files.readString(log.path());
            assertFalse(text.contains("demo-secret-7f3a9c"), text);
            assertFalse(p.stderr().contains("demo-secret-7f3a9c"), p.stderr());
            assertTrue(p.stderr().contains("recording to"), "stderr was captured: " + p.stderr());
            assertEquals(List.of(demo.url()), SessionLogFile.JSON.convertValue(log.header().get("server_command"),
                    List.class));
        }
    }

    @Test
    void aWrongHeaderValueIsRefusedByTheDemoAndAnsweredWithAnError() throws Exception {
        try (HttpServers.Demo demo = HttpServers.Demo.start("--require-auth", "Bearer right-value");
             Proc p = Proc.proxy(Map.of("DEMO_AUTH", "Bearer wrong-value-51"), "--upstream", demo.url(),
                     "--upstream-header", "Authorization=DEMO_AUTH")) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            JsonNode answer = host.response(1);
            assertEquals(-32000, answer.at("/error/code").asInt(), answer.toString());
            assertTrue(answer.at("/error/message").asText().startsWith("upstream answered HTTP 401"), answer.toString());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertFalse(p.stderr().contains("wrong-value-51"), p.stderr());
            assertFalse(String.join("\n", host.received).contains("wrong-value-51"));
        }
    }

    @Test
    void aHeaderVariableThatIsNotSetIsAUsageErrorNamingIt() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--upstream", "http://127.0.0.1:9/mcp",
                "--upstream-header", "Authorization=STRETTO_IT_UNSET_VARIABLE")) {
            assertEquals(2, p.waitFor());
            String first = p.stderr().lines().findFirst().orElse("");
            assertEquals("stretto-proxy: --upstream-header Authorization=STRETTO_IT_UNSET_VARIABLE: the environment"
                    + " variable STRETTO_IT_UNSET_VARIABLE is not set", first, p.stderr());
            assertEquals(0, p.stdoutBytes().length);
        }
        try (Stream<Path> s = Files.list(logs)) {
            assertEquals(0, s.count(), "no log for a usage error");
        }
    }

    @Test
    void aThousandParallelDelayedCallsAreAllAnswered() throws Exception {
        int calls = 1000;
        try (HttpServers.Demo demo = HttpServers.Demo.start();
             Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--upstream", demo.url())) {
            Host host = new Host(p);
            host.send(Host.initialize(0, "2025-06-18", "{}"));
            host.response(0);
            host.send(Host.INITIALIZED);
            ByteArrayOutputStream burst = new ByteArrayOutputStream();
            for (int i = 1; i <= calls; i++) {
                burst.writeBytes((Host.call(i, "lookup", "{\"text\":\"call " + i + "\",\"delay_ms\":200}") + "\n")
                        .getBytes(StandardCharsets.UTF_8));
            }
            long start = System.nanoTime();
            OutputStream in = p.stdin();
            in.write(burst.toByteArray());
            in.flush();
            Set<Integer> answered = new HashSet<>();
            while (answered.size() < calls) {
                JsonNode m = host.next();
                if (m.has("method")) {
                    continue;
                }
                int id = m.get("id").asInt();
                assertEquals("{\"delay_ms\":200,\"text\":\"call " + id + "\"}", m.at("/result/content/0/text").asText(),
                        m.toString());
                assertTrue(answered.add(id), "answered twice: " + id);
            }
            long seconds = (System.nanoTime() - start) / 1_000_000_000L;
            // One after the other they would take 200 s.
            assertTrue(seconds < 30, "1000 calls of 200 ms took " + seconds + " s");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            SessionLogFile log = SessionLogFile.onlyIn(logs);
            assertEquals(calls + 2, log.indexesFrom("client").size());
            assertTrue(log.indexesFrom("proxy").isEmpty(), "no call failed: " + p.stderr());
            log.assertTimesNeverDecrease();
        }
    }
}
