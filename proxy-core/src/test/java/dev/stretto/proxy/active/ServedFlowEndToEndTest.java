package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.LiveHost.callLine;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ApiKey;
import dev.stretto.proxy.OracleMode;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.run.FlowOptions;
import dev.stretto.proxy.flow.run.ServedFlow;
import dev.stretto.proxy.flow.FlowLog;
import dev.stretto.proxy.oracle.Oracle;
import dev.stretto.proxy.oracle.OracleCache;
import dev.stretto.proxy.oracle.ServiceSettings;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.proxy.testing.Stderr;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Flows served by the real proxy ({@code Proxy.run}) in front of the real retail demo: the
 * arbiter's question to a slow System-One service holds only the answer it is about, shadow
 * mode leaves every byte as the server wrote it, and the flow log goes next to the session log
 * (or nowhere, unrecorded, unless named).
 */
class ServedFlowEndToEndTest {

    private static final String C61 = "{\"email\":\"c61@example.com\"}";

    @TempDir
    Path tmp;

    private static ServedFlow served(String fixture, FlowOptions options, Path log) throws Exception {
        return ServedFlow.of(FlowFile.read(ReferenceData.file(fixture)), fixture, options, log);
    }

    private static ProxyConfig.Builder retail(Path logs, ActiveMode mode) {
        return ProxyConfig.builder(Demo.retail()).record(logs).domain("retail").active(mode);
    }

    /** The one session log in {@code dir} (its flow log beside it aside). */
    private static SessionLog onlyLog(Path dir) throws Exception {
        List<Path> logs = SessionLog.logFiles(dir);
        assertEquals(1, logs.size(), logs.toString());
        return SessionLog.read(logs.getFirst());
    }

    @Test
    void whileTheArbitersQuestionIsOutOtherCallsAnswersReachTheHost() throws Exception {
        Path logs = tmp.resolve("logs");
        try (SlowSystemOne service = new SlowSystemOne();
             Oracle oracle = Oracle.of(OracleMode.JEV, new OracleCache(tmp.resolve("cache")),
                     new ServiceSettings(ApiKey.of("sk-test-slow"), service.baseUrl(), "jev-latest", null))) {
            ServedFlow arbiter = served("retail-5-sessions-shipped-arbiter.flow.json", FlowOptions.DEFAULTS, null);
            assertEquals("arbiter", arbiter.decider().wireName());
            try (LiveHost host = LiveHost.start(retail(logs, ActiveMode.builder().flow(arbiter).oracle(oracle).build())
                    .build())) {
                host.handshake();
                host.send(callLine(3, "find_user_id_by_email", C61));
                service.awaitQuestion();
                JsonNode four = host.call(4, "get_order_details", "{\"order_id\":\"#W61a\"}");
                assertEquals("#W61a", LiveHost.JSON.readTree(LiveHost.text(four)).path("order_id").asText());
                assertEquals(0, service.answered.get(), "the question is still out");
                assertTrue(host.received().stream().noneMatch(m -> m.path("id").asInt() == 3),
                        "call 3's answer waits for the flow");
                service.release();
                JsonNode three = host.response(3);
                assertEquals("user_61", LiveHost.text(three));
                host.closeInput();
                assertEquals(0, host.exitStatus());
            }
        }
        SessionLog log = onlyLog(logs);
        Path flowLog = FlowLog.besideSessionLog(logs.resolve(log.session() + ".jsonl"));
        FlowLog.Run run = FlowLog.read(flowLog).runs().getFirst();
        assertEquals("3", run.after().asText());
        assertEquals("find_user_id_by_email", run.decisions().getFirst().site());
        assertTrue(run.decisions().getFirst().key().matches("[0-9a-f]{64}"), "each arbiter decision names its request");
        assertTrue(Files.readAllLines(flowLog).getFirst().contains("\"oracle\":{\"get_user_details\":0.6,"),
                "the next question's distribution is logged");
        assertTrue(run.run() != null, "the run ended with its run line");
    }

    @Test
    void inShadowTheHostGetsTheServersBytesUnchangedAndEveryDecisionIsLogged() throws Exception {
        Path logs = tmp.resolve("logs");
        FlowOptions shadow = new FlowOptions(0.3, null, 8, 40, 300, null, true, null, null);
        ActiveMode mode = ActiveMode.builder().flow(served("home/shop.flow.json", shadow, null)).build();
        byte[] output;
        try (LiveHost host = LiveHost.start(retail(logs, mode).build())) {
            host.handshake();
            host.call(3, "find_user_id_by_email", "{\"email\":\"c41@example.com\"}");
            host.call(4, "get_user_details", "{\"user_id\":\"user_41\"}");
            host.call(5, "get_order_details", "{\"order_id\":\"#W41a\"}");
            host.closeInput();
            assertEquals(0, host.exitStatus());
            output = host.output();
        }
        SessionLog log = onlyLog(logs);
        StringBuilder server = new StringBuilder();
        for (LogEntry e : log.entries()) {
            assertFalse(e.from() == Source.PROXY, "the proxy wrote nothing of its own: " + e);
            if (e.from() == Source.SERVER) {
                server.append(((Payload.Message) e.payload()).json()).append('\n');
            }
        }
        assertEquals(server.toString(), new String(output, StandardCharsets.UTF_8), "the server's lines, as they came");
        List<String> lines = Files.readAllLines(FlowLog.besideSessionLog(logs.resolve(log.session() + ".jsonl")));
        assertEquals(6, lines.size(), "a decision and a run line after each of the three calls");
        for (int i = 0; i < 6; i += 2) {
            assertTrue(lines.get(i).contains("\"shadow\":true"), lines.get(i));
            assertTrue(lines.get(i + 1).endsWith("\"sites\":[[\"decide#0\",0,0.0]],\"surprise\":-0.0}}"), lines.get(i + 1));
        }
        assertTrue(lines.get(0).contains("\"action\":\"lookup\"") && lines.get(0).contains("\"tool\":\"get_user_details\""),
                lines.get(0));
    }

    @Test
    void unrecordedTheFlowLogIsWrittenOnlyWhereItIsNamed(@TempDir Path elsewhere) throws Exception {
        ActiveMode unnamed = ActiveMode.builder().flow(served("home/shop.flow.json", FlowOptions.DEFAULTS, null)).build();
        runOneLookup(ProxyConfig.builder(Demo.retail()).active(unnamed).build());
        try (Stream<Path> files = Files.list(tmp)) {
            assertEquals(List.of(), files.toList(), "nothing written");
        }
        Path named = elsewhere.resolve("deep/flow.jsonl");
        ActiveMode mode = ActiveMode.builder().flow(served("home/shop.flow.json", FlowOptions.DEFAULTS, named)).build();
        runOneLookup(ProxyConfig.builder(Demo.retail()).active(mode).build());
        runOneLookup(ProxyConfig.builder(Demo.retail()).active(mode).build());
        List<String> lines = Files.readAllLines(named);
        assertEquals(2, lines.stream().filter(l -> l.startsWith("{\"after\":3,\"run\":")).count(),
                "appended to by both sessions: " + lines);
        assertEquals("rw-------", java.nio.file.attribute.PosixFilePermissions.toString(
                Files.getPosixFilePermissions(named)));
    }

    /** One session: the flow looks the user up after call 3, then hands back. */
    private static void runOneLookup(ProxyConfig config) throws Exception {
        try (LiveHost host = LiveHost.start(config)) {
            host.handshake();
            String text = host.call(3, "find_user_id_by_email", "{\"email\":\"c41@example.com\"}")
                    .path("result").path("content").path(1).path("text").asText();
            assertTrue(text.startsWith("--- Also looked up automatically"), text);
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
    }

    @Test
    void theServingLineNamesTheDomainThePathAndTheDecider() throws Exception {
        List<String> said = new ArrayList<>();
        try (Stderr stderr = new Stderr()) {
            FlowOptions shadowHabit = new FlowOptions(0.3, dev.stretto.proxy.flow.DeciderKind.HABIT, 8, 40, 300,
                    null, true, null, null);
            runHandshakeOnly(ActiveMode.builder().flow(served("home/shop.flow.json", shadowHabit, null)).build());
            said.addAll(stderr.text().lines().toList());
        }
        assertTrue(said.contains("stretto-proxy: serving the shop flow from home/shop.flow.json, deciding with habit,"
                + " in shadow"), said.toString());
    }

    private static void runHandshakeOnly(ActiveMode mode) throws Exception {
        try (LiveHost host = LiveHost.start(ProxyConfig.builder(Demo.retail()).active(mode).build())) {
            host.handshake();
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
    }
}
