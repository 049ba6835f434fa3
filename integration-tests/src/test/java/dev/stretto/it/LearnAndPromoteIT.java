package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * bin/stretto learn and promote as a user runs them, asking a System-One service: a fake one
 * on 127.0.0.1 (the real one is remote) that checks the key and answers every question the
 * mock's way. The key and the service come from the environment, as TYPESAFE_API_KEY and
 * TYPESAFE_BASE_URL.
 */
class LearnAndPromoteIT {

    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String KEY = "sk-it-learn-3f9a";

    @TempDir
    Path tmp;

    private HttpServer service;
    private final AtomicInteger asked = new AtomicInteger();
    private final List<String> refused = new ArrayList<>();

    @BeforeEach
    void startService() throws IOException {
        service = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        service.createContext("/v1/systemone", this::answer);
        service.start();
    }

    @AfterEach
    void stopService() {
        service.stop(0);
    }

    /** Every choice's first option at 0.6, the rest sharing 0.4; every yes/no question 0.5. */
    private void answer(HttpExchange exchange) throws IOException {
        try (exchange) {
            if (!("Bearer " + KEY).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                refused.add(exchange.getRequestHeaders().getFirst("Authorization"));
                exchange.sendResponseHeaders(401, -1);
                return;
            }
            JsonNode request = JSON.readTree(exchange.getRequestBody());
            ObjectNode response = JSON.createObjectNode();
            response.put("model", "jev-it");
            ObjectNode answers = response.putObject("answers");
            for (Iterator<Map.Entry<String, JsonNode>> it = request.get("questions").fields(); it.hasNext(); ) {
                Map.Entry<String, JsonNode> q = it.next();
                ObjectNode a = answers.putObject(q.getKey());
                if (q.getValue().get("type").asText().equals("noul")) {
                    a.put("type", "noul").put("noul", 0.5);
                } else {
                    List<String> options = new ArrayList<>();
                    q.getValue().get("criteria").fieldNames().forEachRemaining(options::add);
                    a.put("type", "choice").put("choice", options.getFirst()).put("confidence", 0.6);
                    ObjectNode p = a.putObject("probabilities");
                    for (int i = 0; i < options.size(); i++) {
                        p.put(options.get(i), i == 0 ? 0.6 : 0.4 / (options.size() - 1));
                    }
                }
            }
            asked.incrementAndGet();
            byte[] body = JSON.writeValueAsBytes(response);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
        }
    }

    private Map<String, String> env() {
        return Map.of("TYPESAFE_API_KEY", KEY, "TYPESAFE_BASE_URL",
                "http://127.0.0.1:" + service.getAddress().getPort());
    }

    private static Proc stretto(Map<String, String> env, Path dir, String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(Repo.bin("stretto")));
        command.addAll(List.of(args));
        return Proc.start(command, dir, env);
    }

    private Path shopSessions() throws IOException {
        Path dir = Files.createDirectories(tmp.resolve("shop"));
        try (Stream<Path> logs = Files.list(Repo.root().resolve("testdata/reference/home/logs/shop"))) {
            for (Path f : logs.toList()) {
                Files.copy(f, dir.resolve(f.getFileName()));
            }
        }
        return dir;
    }

    private static long cached(Path cache) throws IOException {
        try (Stream<Path> files = Files.walk(cache)) {
            return files.filter(f -> f.getFileName().toString().matches("[0-9a-f]{64}\\.json")).count();
        }
    }

    @Test
    void learnAsksTheServiceOnceThenReplaysAndPromoteScoresTheArbiterWithIt() throws Exception {
        Path sessions = shopSessions();
        try (Proc learn = stretto(env(), tmp, "learn", "--sessions", sessions.toString(), "--domain", "shop", "--out",
                "shop.flow.json")) {
            assertEquals(0, learn.waitFor(), learn.stderr());
            assertTrue(learn.stderr().contains("stretto: arbiter: 9 decisions in the 2 held-out sessions, 8 at sites"
                    + " with lookups to ask about (0 answered in the cache .oracle-cache, 8 to ask for about $0.00"),
                    learn.stderr());
            assertTrue(learn.stderr().contains("stretto: arbiter: 8 cases, 8 with the agent's choice offered;"),
                    learn.stderr());
            assertFalse(learn.stderr().contains(KEY));
        }
        assertEquals(8, asked.get());
        assertEquals(List.of(), refused);
        assertEquals(8, cached(tmp.resolve(".oracle-cache")));
        String asked8 = Files.readString(tmp.resolve("shop.flow.json"), StandardCharsets.UTF_8);
        assertTrue(asked8.contains("\"arbiter_cases\":8"), asked8);

        // The same again from the cache alone, with no key at all: the same flow.
        try (Proc replay = stretto(Map.of(), tmp, "learn", "--sessions", sessions.toString(), "--domain", "shop",
                "--out", "replayed.flow.json", "--oracle", "replay")) {
            assertEquals(0, replay.waitFor(), replay.stderr());
        }
        assertEquals(8, asked.get());
        String clock = "\"compiled_unix_ms\":\\d+";
        assertEquals(asked8.replaceAll(clock, ""), Files.readString(tmp.resolve("replayed.flow.json"),
                StandardCharsets.UTF_8).replaceAll(clock, ""));

        // Promote with the arbiter, asking what the cache does not hold.
        try (Proc promote = stretto(env(), tmp, "promote", "--flow", "shop.flow.json", "--sessions",
                sessions.toString(), "--out", "promoted.flow.json", "--oracle", "jev", "--report", "report.md")) {
            assertEquals(0, promote.waitFor(), promote.stderr());
            assertTrue(promote.stderr().matches("(?s).*stretto: scored 6 episodes \\(0 decisions left out, unanswered\\);"
                    + " \\d of \\d sites promoted\n.*"), promote.stderr());
        }
        assertTrue(asked.get() > 8, "promote asked about the decisions learn never saw");
        assertTrue(Files.readString(tmp.resolve("report.md")).contains("with the arbiter decider at threshold 0.3"));
        assertTrue(Files.readString(tmp.resolve("promoted.flow.json")).contains("\"promoted\":{\"bar\":"));
    }

    @Test
    void withoutAKeyLearnSaysWhatIsMissingAndWritesNothing() throws Exception {
        Path sessions = shopSessions();
        try (Proc learn = stretto(Map.of("TYPESAFE_BASE_URL", "http://127.0.0.1:" + service.getAddress().getPort()),
                tmp, "learn", "--sessions", sessions.toString(), "--domain", "shop", "--out", "f.json")) {
            assertEquals(1, learn.waitFor());
            assertTrue(learn.stderr().contains("needs a TypeSafe API key: set TYPESAFE_API_KEY or"
                    + " TYPESAFE_API_KEY_FILE"), learn.stderr());
        }
        assertEquals(0, asked.get());
        assertFalse(Files.exists(tmp.resolve("f.json")));
    }
}
