package dev.stretto.demo.tau2;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The port against τ²'s own code: every call of testdata/tau2-retail/goldens.jsonl (made by
 * make_goldens.py running τ²'s tools.py) is made again on a fresh copy of the database per
 * session, and must answer the same text, byte for byte, with the same error flag. The
 * goldens hold every expert call of the 74 train tasks in order, a read of every record, the
 * error cases of every tool and a battery of calculator expressions.
 */
class Tau2GoldenTest {
    private static Path dir;
    private static RetailDb db;
    private static Map<String, List<JsonNode>> sessions;

    @BeforeAll
    static void load() throws IOException {
        dir = Tau2Data.dir();
        db = RetailDb.read(dir.resolve("db.json"));
        sessions = new LinkedHashMap<>();
        for (String line : Files.readAllLines(dir.resolve("goldens.jsonl"), StandardCharsets.UTF_8)) {
            JsonNode call = CanonicalJson.mapper().readTree(line);
            sessions.computeIfAbsent(call.get("session").textValue(), k -> new ArrayList<>()).add(call);
        }
    }

    @Test
    void everyGoldenCallAnswersAsTau2Does() {
        List<String> wrong = new ArrayList<>();
        int calls = 0;
        for (Map.Entry<String, List<JsonNode>> session : sessions.entrySet()) {
            Tau2Retail tools = new Tau2Retail(db.copy());
            for (JsonNode call : session.getValue()) {
                calls++;
                String tool = call.get("tool").textValue();
                Tau2Retail.Answer answer = tools.call(tool, (ObjectNode) call.get("arguments"));
                boolean same = call.has("sha256") ? call.get("sha256").textValue().equals(sha256(answer.text()))
                        : call.get("text").textValue().equals(answer.text());
                if (!same || answer.error() != call.get("error").booleanValue()) {
                    wrong.add(session.getKey() + ": " + tool + " " + call.get("arguments") + "\n  tau2: "
                            + (call.has("text") ? call.get("text").textValue() : "sha256 " + call.get("sha256"))
                            + " (error " + call.get("error") + ")\n  port: " + answer.text() + " (error "
                            + answer.error() + ")");
                }
            }
        }
        assertTrue(calls > 3000, "the goldens hold " + calls + " calls");
        assertEquals(List.of(), wrong.subList(0, Math.min(20, wrong.size())),
                wrong.size() + " of " + calls + " calls answered differently");
    }

    @Test
    void theGoldensCoverEveryToolAndEveryTask() throws IOException {
        Set<String> tools = new TreeSet<>();
        Set<String> failing = new TreeSet<>();
        sessions.values().forEach(calls -> calls.forEach(c -> {
            tools.add(c.get("tool").textValue());
            if (c.get("error").booleanValue()) {
                failing.add(c.get("tool").textValue());
            }
        }));
        Set<String> all = new TreeSet<>();
        Tau2Retail.TOOLS.forEach(t -> all.add(t.name()));
        assertTrue(tools.containsAll(all), "called: " + tools);
        all.remove("transfer_to_human_agents");
        all.remove("list_all_product_types");
        assertTrue(failing.containsAll(all), "failing: " + failing);
        JsonNode tasks = CanonicalJson.mapper().readTree(dir.resolve("tasks-train.json").toFile());
        assertEquals(74, tasks.size());
        for (JsonNode task : tasks) {
            List<JsonNode> calls = sessions.get("task " + task.get("id").textValue());
            assertEquals(task.get("evaluation_criteria").get("actions").size(), calls == null ? 0 : calls.size(),
                    "task " + task.get("id"));
        }
    }

    @Test
    void theBundledDatabaseIsTheTestData() {
        RetailDb bundled = RetailDb.bundled();
        Tau2Retail a = new Tau2Retail(bundled.copy());
        Tau2Retail b = new Tau2Retail(db.copy());
        for (String user : db.users.keySet()) {
            ObjectNode args = CanonicalJson.mapper().createObjectNode().put("user_id", user);
            assertEquals(b.call("get_user_details", args), a.call("get_user_details", args));
        }
        assertEquals(db.orders.keySet(), bundled.orders.keySet());
    }

    static String sha256(String text) {
        try {
            return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256")
                    .digest(text.getBytes(StandardCharsets.UTF_8)));
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
