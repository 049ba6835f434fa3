package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active mode through the launchers: bin/stretto-proxy --guards --commit --context in front of
 * bin/stretto-mcp-demo --world retail, as docs/active-mode.md's worked example runs it; then the
 * recorded session through bin/stretto show and bin/stretto guards.
 */
class ActiveModeIT {

    @TempDir
    Path dir;

    private void say(Path chat, String role, String content) throws Exception {
        Files.writeString(chat, "{\"role\":\"" + role + "\",\"content\":\"" + content + "\"}\n", StandardCharsets.UTF_8,
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
    }

    private static JsonNode call(Host host, int id, String tool, String args) throws Exception {
        host.send(Host.call(id, tool, args));
        return host.response(id);
    }

    @Test
    void theWorkedExampleRefusesThenCommitsAndTheLogShowsIt() throws Exception {
        Path chat = dir.resolve("chat.jsonl");
        Path logs = dir.resolve("logs");
        try (Proc p = Proc.proxy(Map.of(), "--record", logs.toString(), "--domain", "retail", "--guards", "--commit",
                "--context", chat.toString(), "--", Repo.bin("stretto-mcp-demo"), "--world", "retail")) {
            Host host = new Host(p);
            host.send(Host.initialize(1, "2025-06-18", "{}"));
            host.response(1);
            host.send(Host.INITIALIZED);
            host.send(Host.request(2, "tools/list", null));
            JsonNode tools = host.response(2).at("/result/tools");
            assertEquals("stretto_commit", tools.get(tools.size() - 1).get("name").asText());

            say(chat, "user", "I am c7@example.com. Cancel #W7a, I found it cheaper elsewhere.");
            assertEquals("user_7", call(host, 3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}")
                    .at("/result/content/0/text").asText());
            // (c) No order looked up yet: refused by retail.status_checked.
            JsonNode early = call(host, 4, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"no longer needed\"}");
            assertEquals("Refused by the policy check, so cancel_pending_order was not run and nothing changed: the order's"
                    + " status was not checked first (policy check retail.status_checked).",
                    early.at("/result/content/0/text").asText());
            call(host, 5, "get_user_details", "{\"user_id\":\"user_7\"}");
            call(host, 6, "get_order_details", "{\"order_id\":\"#W7a\"}");
            // (a) A reason the policy does not accept.
            JsonNode refused = call(host, 7, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"found it cheaper\"}");
            assertEquals("Refused by the policy check, so cancel_pending_order was not run and nothing changed:"
                    + " 'found it cheaper' is not an accepted reason (policy check retail.cancel_reason).",
                    refused.at("/result/content/0/text").asText());
            assertTrue(refused.at("/result/isError").asBoolean());
            say(chat, "assistant", "I can cancel it as 'no longer needed' or 'ordered by mistake'. Which one?");
            say(chat, "user", "Ordered by mistake. Yes, cancel it.");
            // (b) The accepted reason, as a commit of one call.
            JsonNode done = call(host, 8, "stretto_commit", "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":"
                    + "{\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}}]}");
            assertEquals("cancel_pending_order {\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}:\n"
                    + "{\"order_id\":\"#W7a\",\"status\":\"cancelled\"}", done.at("/result/content/0/text").asText());
            assertFalse(done.at("/result/isError").asBoolean());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertTrue(p.stderr().contains("stretto-proxy: refused cancel_pending_order: 'found it cheaper' is not an"
                    + " accepted reason (policy check retail.cancel_reason)\n"), p.stderr());
            assertTrue(p.stderr().contains("stretto-proxy: refused cancel_pending_order: the order's status was not checked"
                    + " first (policy check retail.status_checked)\n"), p.stderr());
        }

        SessionLogFile log = SessionLogFile.onlyIn(logs);
        log.assertTimesNeverDecrease();
        for (int id : List.of(4, 7)) {
            assertEquals(List.of("client", "proxy"), log.entries().stream()
                    .filter(e -> e.path("message").path("id").asInt(-1) == id).map(e -> e.get("from").asText()).toList(),
                    "call " + id + ": the client's line and the proxy's refusal, no server answer");
        }
        assertEquals(3, log.indexesFrom("context").size());

        try (Proc show = Proc.start(List.of(Repo.bin("stretto"), "show", log.path().toString()))) {
            assertEquals(0, show.waitFor(), show.stderr());
            String out = new String(show.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.contains("user      I am c7@example.com. Cancel #W7a, I found it cheaper elsewhere."), out);
            assertTrue(out.contains("id 7  ") && out.lines().anyMatch(l -> l.contains("id 7 ") && l.endsWith("REFUSED")), out);
            assertTrue(out.lines().anyMatch(l -> l.contains("stretto_commit") && l.contains("COMMIT")), out);
            assertTrue(out.lines().anyMatch(l -> l.contains("id stretto-1") && l.endsWith("BY COMMIT")), out);
        }
        try (Proc guards = Proc.start(List.of(Repo.bin("stretto"), "guards", logs.toString()))) {
            assertEquals(0, guards.waitFor(), guards.stderr());
            String out = new String(guards.stdoutBytes(), StandardCharsets.UTF_8);
            assertTrue(out.contains("fail     retail.cancel_reason: 'found it cheaper' is not an accepted reason"), out);
            assertTrue(out.lines().anyMatch(l -> l.matches("retail\\.cancel_reason +3 +2 +1 +0 +1")), out);
        }
    }

    /**
     * docs/active-mode.md's worked example, as written (its directory moved into the test's), run twice
     * as a user trying it runs it again: each run shows one session, its conversation once and
     * its three cancellations.
     */
    @Test
    void theDocsWorkedExampleRunsAsWrittenAndAgain() throws Exception {
        String script = Repo.docsShellBlock("active-mode.md", "## A worked example on the demo's retail world");
        assertTrue(script.contains("/tmp/stretto-active"), script);
        script = script.replace("/tmp/stretto-active", dir.resolve("example").toString());
        for (int run = 1; run <= 2; run++) {
            try (Proc p = Proc.start(List.of("sh", "-c", script), Repo.root(), Map.of())) {
                p.closeStdin();
                assertEquals(0, p.waitFor(), p.stderr());
                String out = new String(p.stdoutBytes(), StandardCharsets.UTF_8);
                assertFalse(p.stderr().contains("stretto:"), "run " + run + ": " + p.stderr());
                assertEquals(1, out.lines().filter(l -> l.startsWith("session ")).count(), "run " + run + ":\n" + out);
                assertEquals(1, out.lines().filter(l -> l.endsWith("user      I am c7@example.com. Please cancel order"
                        + " #W7a, I found it cheaper elsewhere.")).count(), "run " + run + ":\n" + out);
                assertTrue(out.lines().anyMatch(l -> l.matches("retail\\.cancel_reason +3 +2 +1 +0 +1")),
                        "run " + run + ":\n" + out);
                assertTrue(out.contains("\"text\":\"cancel_pending_order {\\\"order_id\\\":\\\"#W7a\\\",\\\"reason\\\":"
                        + "\\\"ordered by mistake\\\"}:\\n{\\\"order_id\\\":\\\"#W7a\\\",\\\"status\\\":\\\"cancelled\\\"}\""),
                        "run " + run + ": the commit's answer\n" + out);
            }
        }
    }

    @Test
    void guardsWithoutAUsableDomainAreUsageErrors() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--guards", "--", "cat")) {
            assertEquals(2, p.waitFor());
            assertTrue(p.stderr().startsWith("stretto-proxy: --guards needs --domain (retail or airline)\n"), p.stderr());
        }
        try (Proc p = Proc.proxy(Map.of(), "--guards", "--domain", "shop", "--", "cat")) {
            assertEquals(2, p.waitFor());
            assertTrue(p.stderr().startsWith("stretto-proxy: no guards for shop\n"), p.stderr());
        }
    }
}
