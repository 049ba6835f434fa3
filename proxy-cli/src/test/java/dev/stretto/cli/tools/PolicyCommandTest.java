package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto policy check}, {@code policy test}, {@code pending}, {@code approve}, {@code
 * deny} and the policy's verdicts in {@code show}, on files the test writes: a policy valid or
 * not, a recorded session, a call waiting for approval as a proxy leaves it.
 */
class PolicyCommandTest {

    private static final String POLICY = """
            {"rules": [
               {"id": "no-moves", "tools": ["move_file"], "action": "hide"},
               {"id": "confined", "tools": ["*"], "arguments": {"/path": {"outside": "/srv/data"}},
                "action": "deny", "reason": "only files under /srv/data"},
               {"id": "ask-writes", "annotations": {"readOnlyHint": false}, "action": "ask"}],
             "budgets": [{"id": "calls", "tools": ["*"], "per_session": 100, "action": "deny"}],
             "pinning": "deny",
             "server_requests": {"sampling/createMessage": "deny"}}
            """;

    private static final String HEADER = "{\"stretto_mcp_log\":2,\"session\":\"20260101T090000.000Z-77\","
            + "\"started_unix_ms\":1767258000000,\"server_command\":[\"fs\"],\"domain\":null,\"agent_model\":null,"
            + "\"host_session\":\"host-1\"}";

    private static String entry(long t, String from, String message) {
        return "{\"t_ms\":" + t + ",\"from\":\"" + from + "\",\"message\":" + message + "}";
    }

    private static String call(int id, String tool, String args) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + args + "}}";
    }

    private static String result(int id) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"ok\"}]}}";
    }

    static final List<String> SESSION = List.of(HEADER,
            entry(0, "client", "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"),
            entry(1, "server", "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"tools\":["
                    + "{\"name\":\"read_file\",\"annotations\":{\"readOnlyHint\":true}},"
                    + "{\"name\":\"write_file\",\"annotations\":{\"readOnlyHint\":false}},{\"name\":\"move_file\"}]}}"),
            entry(2, "client", call(2, "read_file", "{\"path\":\"/srv/data/a\"}")),
            entry(3, "server", result(2)),
            entry(4, "client", call(3, "read_file", "{\"path\":\"/srv/data/../etc/passwd\"}")),
            entry(5, "server", result(3)),
            entry(6, "client", call(4, "write_file", "{\"path\":\"/srv/data/b\",\"content\":\"x\"}")),
            entry(7, "server", "{\"jsonrpc\":\"2.0\",\"id\":\"s1\",\"method\":\"sampling/createMessage\",\"params\":{}}"),
            entry(8, "server", result(4)));

    @TempDir
    Path tmp;

    private Path write(String name, String text) throws IOException {
        Path p = tmp.resolve(name);
        Files.createDirectories(p.getParent());
        Files.writeString(p, text);
        return p;
    }

    @Test
    void checkPrintsWhatAValidPolicyHolds() throws Exception {
        Path p = write("fs.policy.json", POLICY);
        StrettoTest.Run r = StrettoTest.run(false, "policy", "check", p.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(p + ": a valid policy\n"
                + "  rules    no-moves hide, confined deny, ask-writes ask\n"
                + "  budgets  calls deny\n"
                + "  pinning  deny\n"
                + "  server requests denied  sampling/createMessage\n"
                + "  asks wait  60.0 s, then deny\n", r.out());
    }

    @Test
    void checkPrintsEveryProblemAtItsLineAndExitsOne() throws Exception {
        Path p = write("bad.yaml", "rules:\n  - id: a\n    tools: [\"read_[\"]\n    action: deny\n  - id: b\n"
                + "    tool: [x]\n    action: deny\n  - id: c\n    arguments: {/p: {regex: \"(a+)+\"}}\n    action: deny\n"
                + "  - id: d\n    tools: [x]\n");
        StrettoTest.Run r = StrettoTest.run(false, "policy", "check", p.toString());
        assertEquals(1, r.status());
        assertEquals("", r.out());
        List<String> lines = r.err().lines().toList();
        assertEquals(4, lines.size(), r.err());
        assertTrue(lines.get(0).startsWith("stretto: " + p + ":3:13: the glob 'read_[' has a [ that is never closed"),
                lines.get(0));
        assertTrue(lines.get(1).startsWith("stretto: " + p + ":6:5: unknown key 'tool' (did you mean 'tools'?)"),
                lines.get(1));
        assertTrue(lines.get(2).startsWith("stretto: " + p + ":9:29: the regex '(a+)+' repeats a repetition"),
                lines.get(2));
        assertTrue(lines.get(3).startsWith("stretto: " + p + ":11:5: the rule d has no action"), lines.get(3));
    }

    @Test
    void usageErrorsExitTwoAndUnreadableFilesOne() throws Exception {
        for (String[] args : List.of(new String[] {"policy"}, new String[] {"policy", "check"},
                new String[] {"policy", "check", "a", "b"}, new String[] {"policy", "test", "p.json"},
                new String[] {"policy", "lint", "p.json"}, new String[] {"approve"}, new String[] {"deny", "a", "b"},
                new String[] {"pending", "a", "b"}, new String[] {"deny", "--reason", "", "x"})) {
            StrettoTest.Run r = StrettoTest.run(Map.of("HOME", tmp.toString()), args);
            assertEquals(2, r.status(), String.join(" ", args) + ": " + r.err());
            assertTrue(r.err().endsWith("--help')\n"), r.err());
        }
        StrettoTest.Run missing = StrettoTest.run(false, "policy", "check", tmp.resolve("none.json").toString());
        assertEquals(1, missing.status());
        assertEquals("stretto: " + tmp.resolve("none.json") + ": no such file or directory\n", missing.err());
    }

    @Test
    void testReplaysASessionAndSaysWhatEachRuleWouldHaveDone() throws Exception {
        Path policy = write("fs.policy.json", POLICY);
        Path log = write("logs/20260101T090000.000Z-77.jsonl", String.join("\n", SESSION) + "\n");
        StrettoTest.Run r = StrettoTest.run(false, "policy", "test", policy.toString(), log.getParent().toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("""
                20260101T090000.000Z-77  (3 calls)
                      1 ms  tools/list: move_file
                             -> HIDDEN (no-moves): hidden by the policy
                      4 ms  read_file {"path":"/srv/data/../etc/passwd"}  id 3
                             -> REFUSED (confined): only files under /srv/data
                      6 ms  write_file {"content":"x","path":"/srv/data/b"}  id 4
                             -> would ask (ask-writes): it needs a person's approval
                      7 ms  the server's sampling/createMessage  id s1
                             -> REFUSED (server_requests): the policy does not let the server's sampling/createMessage requests reach the host

                RULE             ACTION  MATCHED  DECIDED
                no-moves         hide          1        1
                confined         deny          1        1
                ask-writes       ask           1        1
                calls            deny          0        0
                server_requests  -             1        1
                """, r.out());
        StrettoTest.Run json = StrettoTest.run(false, "policy", "test", "--json", policy.toString(), log.toString());
        assertEquals(0, json.status(), json.err());
        List<String> lines = json.out().lines().toList();
        assertEquals(4, lines.size(), json.out());
        assertEquals("{\"action\":\"deny\",\"arguments\":{\"path\":\"/srv/data/../etc/passwd\"},\"id\":\"3\",\"kind\":"
                + "\"call\",\"matched\":[\"confined\"],\"name\":\"read_file\",\"reason\":\"only files under /srv/data\","
                + "\"rule\":\"confined\",\"session\":\"20260101T090000.000Z-77\",\"t_ms\":4}", lines.get(1));
    }

    /** A call a proxy holds, written as the proxy writes it; the pid is this JVM's, so it counts as running. */
    private Path pendingCall(String id, long deadlineMs) throws IOException {
        return write("logs/20260101T090000.000Z-77.approvals/" + id + ".pending.json", "{\"arguments\":{\"content\":\"x\","
                + "\"path\":\"/srv/data/b\"},\"asked_unix_ms\":" + System.currentTimeMillis() + ",\"deadline_unix_ms\":"
                + deadlineMs + ",\"id\":\"" + id + "\",\"pid\":" + ProcessHandle.current().pid() + ",\"rule\":"
                + "\"ask-writes\",\"session\":\"20260101T090000.000Z-77\",\"tool\":\"write_file\"}\n");
    }

    @Test
    void pendingListsTheCallsThatWaitAndApproveAndDenyWriteTheDecision() throws Exception {
        Map<String, String> env = Map.of("HOME", tmp.toString());
        StrettoTest.Run none = StrettoTest.run(env, "pending");
        assertEquals(0, none.status(), none.err());
        assertEquals("", none.out());
        Path waiting = pendingCall("abcd2345", System.currentTimeMillis() + 60_000);
        pendingCall("stale234", System.currentTimeMillis() - 1);
        StrettoTest.Run listed = StrettoTest.run(env, "pending", tmp.toString());
        assertEquals(0, listed.status(), listed.err());
        assertTrue(listed.out().matches("abcd2345  20260101T090000\\.000Z-77  write_file  \\{\"content\":\"x\",\"path\":"
                + "\"/srv/data/b\"\\}  \\(ask-writes, 5\\d s left\\)\n"), listed.out());
        StrettoTest.Run json = StrettoTest.run(env, "pending", "--json", tmp.toString());
        assertTrue(json.out().startsWith("{\"arguments\":{\"content\":\"x\",\"path\":\"/srv/data/b\"},\"asked_unix_ms\":"),
                json.out());

        StrettoTest.Run unknown = StrettoTest.run(env, "approve", "--dir", tmp.toString(), "zzzz9999");
        assertEquals(1, unknown.status());
        assertTrue(unknown.err().startsWith("stretto: no call waits for approval with the id zzzz9999"), unknown.err());
        StrettoTest.Run stale = StrettoTest.run(env, "approve", "--dir", tmp.toString(), "stale234");
        assertEquals(1, stale.status(), "a call whose deadline passed waits no more");

        StrettoTest.Run denied = StrettoTest.run(env, "deny", "--reason", "not this file", "--dir=" + tmp, "abcd2345");
        assertEquals(0, denied.status(), denied.err());
        assertEquals("denied abcd2345: write_file {\"content\":\"x\",\"path\":\"/srv/data/b\"} (session"
                + " 20260101T090000.000Z-77)\n", denied.out());
        assertTrue(denied.err().contains("has not taken the decision yet"), "no proxy runs here: " + denied.err());
        String decision = Files.readString(waiting.resolveSibling("abcd2345.decision.json"));
        assertTrue(decision.startsWith("{\"decision\":\"deny\",\"reason\":\"not this file\",\"unix_ms\":"), decision);
        assertFalse(Files.exists(waiting.resolveSibling(".abcd2345.decision.json.tmp" + ProcessHandle.current().pid())));
    }

    @Test
    void showPlacesTheVerdictsUnderTheirCallsAndTheOthersInTime() throws Exception {
        List<String> lines = new java.util.ArrayList<>(SESSION.subList(0, 5));
        lines.add(entry(4, "client", call(3, "read_file", "{\"path\":\"/etc/passwd\"}")));
        lines.add(entry(4, "proxy", "{\"jsonrpc\":\"2.0\",\"method\":\"stretto/policy\",\"params\":{\"action\":\"deny\","
                + "\"arguments\":{\"path\":\"/etc/passwd\"},\"id\":\"3\",\"kind\":\"call\",\"matched\":[\"confined\"],"
                + "\"name\":\"read_file\",\"reason\":\"only files under /srv/data\",\"rule\":\"confined\"}}"));
        lines.add(entry(4, "proxy", "{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the"
                + " policy check, so read_file was not run and nothing changed: only files under /srv/data (policy rule"
                + " confined).\",\"type\":\"text\"}],\"isError\":true}}"));
        lines.add(entry(9, "proxy", "{\"jsonrpc\":\"2.0\",\"method\":\"stretto/policy\",\"params\":{\"action\":\"deny\","
                + "\"id\":\"s1\",\"kind\":\"server_request\",\"matched\":[\"server_requests\"],\"name\":"
                + "\"sampling/createMessage\",\"reason\":\"the policy does not let the server's sampling/createMessage"
                + " requests reach the host\",\"rule\":\"server_requests\"}}"));
        Path log = write("show/20260101T090000.000Z-77.jsonl", String.join("\n", lines) + "\n");
        StrettoTest.Run r = StrettoTest.run(false, "show", log.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("read_file {\"path\":\"/etc/passwd\"}  id 3  0 ms  REFUSED\n"
                + "             policy: REFUSED (rule confined): only files under /srv/data\n"), r.out());
        assertTrue(r.out().contains("      9 ms  policy: the server's sampling/createMessage (id s1) answered with an"
                + " error, not shown to the host (server_requests): the policy does not let the server's"
                + " sampling/createMessage requests reach the host\n"), r.out());
        assertTrue(r.out().contains("2 policy verdicts (2 refused)"), r.out());
    }
}
