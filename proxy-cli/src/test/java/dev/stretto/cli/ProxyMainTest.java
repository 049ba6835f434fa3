package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.Subreaper;
import dev.stretto.trace.testing.Fixtures;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ProxyMainTest {
    private final ByteArrayOutputStream protocol = new ByteArrayOutputStream();
    private final ByteArrayOutputStream text = new ByteArrayOutputStream();

    private int run(byte[] input, Map<String, String> env, String... args) {
        return assertTimeoutPreemptively(Duration.ofSeconds(20), () -> ProxyMain.run(args, env,
                new ByteArrayInputStream(input), protocol, new PrintStream(text, true, StandardCharsets.UTF_8), 77,
                new Subreaper()));
    }

    private int run(String... args) {
        return run(new byte[0], Map.of("PATH", "/usr/bin:/bin"), args);
    }

    @Test
    void helpGoesToStdoutAndExitsZero() {
        assertEquals(0, run("--help"));
        String help = text.toString(StandardCharsets.UTF_8);
        assertTrue(help.startsWith("Usage: stretto-proxy [OPTIONS] -- SERVER_COMMAND..."), help);
        for (String listed : List.of("-V, --version", "\nEnvironment:\n", "  STRETTO_LOG_LEVEL ", "  STRETTO_SESSION ",
                "  HOME ", "  PATH ", "  STRETTO_JAVA_OPTS ", "  STRETTO_AOT=0 ")) {
            assertTrue(help.contains(listed), listed + " is listed in:\n" + help);
        }
        assertEquals(0, protocol.size());
    }

    @Test
    void onlyASessionStartsTheReaper() {
        List<String> started = new ArrayList<>();
        for (List<String> args : List.of(List.of("--version"), List.of("--help"), List.of("--bogus"),
                List.of("--", "true"))) {
            assertTimeoutPreemptively(Duration.ofSeconds(20), () -> ProxyMain.run(args.toArray(String[]::new),
                    Map.of("PATH", "/usr/bin:/bin"), new ByteArrayInputStream(new byte[0]), protocol,
                    new PrintStream(text, true, StandardCharsets.UTF_8), 77, new Subreaper(),
                    messages -> started.add(String.join(" ", args))));
        }
        assertEquals(List.of("-- true"), started);
    }

    @Test
    void helpNamesEveryFlowOptionWithItsDefault() {
        assertEquals(0, run("--help"));
        String help = text.toString(StandardCharsets.UTF_8);
        for (String listed : List.of("  --flow FILE ", "  --flow-decider NAME ", "  --flow-threshold P ", "default 0.3)",
                "  --flow-per-call N ", "(default 8)", "  --flow-per-session N\n", "(default 40)", "(default 300)",
                "  --flow-tools A,B ", "  --flow-shadow ", "  --flow-explore EPSILON\n", "  --flow-explore-seed N\n",
                "(default 0)", "  --flow-log FILE ", "<session>.flow.jsonl", "  --task-id ID ", "  --oracle MODE ",
                "jev (the System-One", "default), replay", "  --oracle-cache DIR ", "(default ~/.stretto/oracle-cache)",
                "  TYPESAFE_API_KEY, TYPESAFE_API_KEY_FILE\n", "  TYPESAFE_BASE_URL ", "  TYPESAFE_DEFAULT_MODEL\n",
                "  SSL_CERT_FILE ")) {
            assertTrue(help.contains(listed), listed + " is listed in:\n" + help);
        }
    }

    @Test
    void helpNamesEveryJudgeOptionWithItsDefault() {
        assertEquals(0, run("--help"));
        String help = text.toString(StandardCharsets.UTF_8);
        for (String listed : List.of("  --confirm-judge log|enforce\n", "Needs --guards and\n", "  --confirm-threshold P\n",
                "(0 to 1; default 0.5)", "  --confirm-second proposed|described\n", "  --confirm-second-shadow\n",
                "  --confirm-questions N\n", "(default 100)", "  --confirm-log FILE ", "<session>.confirm.jsonl",
                "for a flow's arbiter and for the judge", "read only when a flow's arbiter or the judge will ask",
                "--confirm-log and --oracle-cache expands to")) {
            assertTrue(help.contains(listed), listed + " is listed in:\n" + help);
        }
    }

    @Test
    void versionIsOneLine() {
        assertEquals(0, run("--version"));
        assertEquals("stretto-proxy 0.1.0" + System.lineSeparator(), text.toString(StandardCharsets.UTF_8));
    }

    @Test
    void usageErrorsExitTwoAndWriteNothingToStdout() {
        assertEquals(2, run("--recrod", "/tmp/x", "--", "cat"));
        assertEquals(2, run("--record"));
        assertEquals(2, run("--record", "/tmp/x"));
        assertEquals(2, run("--record", "/tmp/x", "--retain-days", "many", "--", "cat"));
        assertEquals(2, run("--record-sync", "--", "cat"));
        assertEquals(0, protocol.size());
        assertEquals(0, text.size());
    }

    @Test
    void guardsWithoutAUsableDomainAreAUsageError() {
        assertEquals(2, run("--guards", "--", "cat"));
        assertEquals(2, run("--guards", "--domain", "telecom", "--", "cat"));
        assertEquals(0, protocol.size());
    }

    @Test
    void activeModeRunsASessionWithItsOptions(@TempDir Path tmp) throws Exception {
        byte[] input = ("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":"
                + "\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W1a\",\"reason\":\"found it cheaper\"}}}\n")
                .getBytes(StandardCharsets.UTF_8);
        Files.writeString(tmp.resolve("chat.jsonl"), "{\"role\":\"user\",\"content\":\"cancel it\"}\n");
        assertEquals(0, run(input, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), "--guards", "--domain", "retail",
                "--commit", "--context", "~/chat.jsonl", "--record", "~/logs", "--", "cat"));
        List<Path> logs;
        try (Stream<Path> s = Files.list(tmp.resolve("logs"))) {
            logs = s.toList();
        }
        assertTrue(Files.readString(logs.getFirst()).contains(
                "\"from\":\"context\",\"message\":{\"role\":\"user\",\"content\":\"cancel it\"}"),
                "~ in --context is the home directory: the conversation was read");
        String out = protocol.toString(StandardCharsets.UTF_8);
        assertTrue(out.startsWith("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the"
                + " policy check, so cancel_pending_order was not run and nothing changed: the user has not been"
                + " authenticated by email or by name and zip code (policy check retail.authenticated); the order's status"
                + " was not checked first (policy check retail.status_checked); 'found it cheaper' is not an accepted"
                + " reason (policy check retail.cancel_reason).\""), out);
        assertEquals(1, out.lines().count(), "cat never saw the call: nothing came back from it");
    }

    @Test
    void aRecordSyncSessionForwardsTheBytesAndLogsEveryLine(@TempDir Path tmp) throws Exception {
        byte[] input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(0, run(input, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), "--record", "~/logs",
                "--record-sync", "--", "cat"));
        assertArrayEquals(input, protocol.toByteArray());
        List<Path> logs;
        try (Stream<Path> s = Files.list(tmp.resolve("logs"))) {
            logs = s.toList();
        }
        List<String> lines = Files.readAllLines(logs.getFirst());
        assertEquals(List.of("client", "client", "server", "server"), lines.subList(1, lines.size()).stream()
                .map(l -> l.replaceAll(".*\"from\":\"([a-z]+)\".*", "$1")).sorted().toList());
    }

    @Test
    void aSessionForwardsTheBytesAndExitsWithTheServersStatus(@TempDir Path tmp) throws Exception {
        byte[] input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\r\n\n\u00e9\n\u00ff".getBytes(StandardCharsets.UTF_8);
        assertEquals(6, run(input, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString(), "STRETTO_SESSION", "s-9"),
                "--record=~/logs", "--domain", "orders", "--", "sh", "-c", "cat; exit 6"));
        assertArrayEquals(input, protocol.toByteArray());
        List<Path> logs;
        try (Stream<Path> s = Files.list(tmp.resolve("logs"))) {
            logs = s.toList();
        }
        assertEquals(1, logs.size());
        List<String> lines = Files.readAllLines(logs.getFirst());
        assertEquals(1 + 2 * 4, lines.size());
        assertTrue(lines.getFirst().endsWith("\"domain\":\"orders\",\"agent_model\":null,\"host_session\":\"s-9\"}"),
                lines.getFirst());
    }

    @Test
    void theHostSessionDefaultsToTheParentProcess(@TempDir Path tmp) throws Exception {
        assertEquals(0, run(new byte[0], Map.of("PATH", "/usr/bin:/bin"), "--record", tmp.toString(), "--", "true"));
        try (Stream<Path> s = Files.list(tmp)) {
            String header = Files.readAllLines(s.findFirst().orElseThrow()).getFirst();
            assertTrue(header.endsWith(",\"host_session\":\"host-77\"}"), header);
        }
    }

    @Test
    void aServerThatCannotStartExits125AndLeavesNoLog(@TempDir Path tmp) throws Exception {
        assertEquals(125, run(new byte[0], Map.of("PATH", "/nowhere"), "--record", tmp.toString(), "--",
                "stretto-no-such-server"));
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void anUpstreamHeaderVariableThatIsNotSetIsAUsageError(@TempDir Path tmp) throws Exception {
        assertEquals(2, run(new byte[0], Map.of("PATH", "/usr/bin:/bin"), "--record", tmp.toString(),
                "--upstream", "http://127.0.0.1:9/mcp", "--upstream-header", "Authorization=NOT_SET_HERE"));
        assertEquals(0, protocol.size());
        try (Stream<Path> s = Files.list(tmp)) {
            assertEquals(0, s.count());
        }
    }

    @Test
    void anUnreachableUpstreamAnswersWithAnErrorAndExitsZero() throws Exception {
        int port;
        try (java.net.ServerSocket socket = new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        byte[] input = "{\"jsonrpc\":\"2.0\",\"id\":7,\"method\":\"ping\"}\n".getBytes(StandardCharsets.UTF_8);
        assertEquals(0, run(input, Map.of("PATH", "/usr/bin:/bin", "TOK", "sk-1"),
                "--upstream", "http://127.0.0.1:" + port + "/mcp", "--upstream-header", "Authorization=TOK"));
        assertEquals("{\"error\":{\"code\":-32000,\"message\":\"upstream unreachable: connection refused\"},"
                + "\"id\":7,\"jsonrpc\":\"2.0\"}\n", protocol.toString(StandardCharsets.UTF_8));
    }

    /** Runs the proxy with {@code env} and {@code args} and returns what it said on stderr. */
    private String stderrOf(int expected, Map<String, String> env, String... args) {
        PrintStream saved = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            assertEquals(expected, run(new byte[0], env, args));
        } finally {
            System.setErr(saved);
        }
        return err.toString(StandardCharsets.UTF_8);
    }

    @Test
    void aFlowThatCannotBeReadOrServedExits125WithTheReadersMessageAndLeavesNoLog(@TempDir Path tmp) throws Exception {
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString());
        Path logs = tmp.resolve("logs");
        Files.writeString(tmp.resolve("four.flow.json"), "{\"stretto_flow\":4}");
        assertEquals("stretto-proxy: " + tmp.resolve("four.flow.json") + ": flow format 4 is not supported (this build"
                + " reads 1 to 3)\n", stderrOf(125, env, "--record", logs.toString(), "--flow", "~/four.flow.json",
                "--", "cat"));
        assertEquals("stretto-proxy: cannot read the flow missing.flow.json: no such file or directory\n",
                stderrOf(125, env, "--record", logs.toString(), "--flow", "missing.flow.json", "--", "cat"));
        String shop = Fixtures.file("home/shop.flow.json").toString();
        assertEquals("stretto-proxy: the flow " + shop + " was learned without a System-One model: serve it with"
                + " --flow-decider reach\n", stderrOf(125, env, "--record", logs.toString(), "--flow", shop,
                "--flow-decider", "arbiter", "--", "cat"));
        String retail5 = Fixtures.file("retail-5-sessions.flow.json").toString();
        assertEquals("stretto-proxy: the flow " + retail5 + " has no counts for --flow-decider reach: learn it again, or"
                + " serve it with --flow-decider habit\n", stderrOf(125, env, "--record", logs.toString(), "--flow",
                retail5, "--flow-decider", "reach", "--", "cat"));
        assertTrue(Files.notExists(logs), "nothing was recorded");
        assertEquals(0, protocol.size());
    }

    @Test
    void anArbiterThatWouldAskWithoutAKeyIsAUsageErrorSayingWhatToSet(@TempDir Path tmp) throws Exception {
        String arbiter = Fixtures.file("retail-5-sessions-shipped-arbiter.flow.json").toString();
        String said = stderrOf(2, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), "--flow", arbiter, "--",
                "cat");
        assertEquals("stretto-proxy: the flow " + arbiter + " decides with its arbiter, which asks the System-One model:"
                + " set TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE (or serve it with --oracle replay, answering from the"
                + " cache, or with --flow-decider habit)\nstretto-proxy: try 'stretto-proxy --help'\n", said);
        // The same flow served with the habit, or replayed, needs no key.
        assertEquals("stretto-proxy: serving the retail flow from " + arbiter + ", deciding with habit\n",
                stderrOf(0, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), "--flow", arbiter,
                        "--flow-decider", "habit", "--", "true"));
        assertEquals("stretto-proxy: serving the retail flow from " + arbiter + ", deciding with arbiter\n",
                stderrOf(0, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), "--flow", arbiter, "--oracle",
                        "replay", "--", "true"));
        assertTrue(stderrOf(2, Map.of("PATH", "/usr/bin:/bin"), "--flow", arbiter, "--oracle", "replay", "--", "true")
                .startsWith("stretto-proxy: the oracle cache is ~/.stretto/oracle-cache by default, but the home"
                        + " directory is not known (HOME is not set): give --oracle-cache DIR\n"));
    }

    @Test
    void retainDaysPrunesTheOracleCacheOfAFlowsArbiter(@TempDir Path tmp) throws Exception {
        Path cache = tmp.resolve("cache");
        String answer = CachedAnswers.response().noul("q", 0.5).json("m");
        String old = "a".repeat(64);
        String fresh = "b".repeat(64);
        CachedAnswers.put(cache, old, answer);
        CachedAnswers.put(cache, fresh, answer);
        Files.setLastModifiedTime(CachedAnswers.fileOf(cache, old), FileTime.from(Instant.now().minus(Duration.ofDays(3))));
        String arbiter = Fixtures.file("retail-5-sessions-shipped-arbiter.flow.json").toString();
        assertEquals(0, run(new byte[0], Map.of("PATH", "/usr/bin:/bin"), "--record", tmp.resolve("logs").toString(),
                "--retain-days", "2", "--flow", arbiter, "--oracle", "replay", "--oracle-cache", cache.toString(),
                "--", "true"));
        assertTrue(Files.notExists(CachedAnswers.fileOf(cache, old)), "an answer written three days ago is gone");
        assertTrue(Files.exists(CachedAnswers.fileOf(cache, fresh)));
    }

    @Test
    void aPolicyWithProblemsIsAUsageErrorNamingItsFileAndLinesAndNoSessionStarts(@TempDir Path tmp) throws Exception {
        Map<String, String> env = Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString());
        Files.writeString(tmp.resolve("p.json"), "{\"rules\": [\n {\"id\": \"a\", \"tools\": [\"read_[\"], \"action\":"
                + " \"deny\"},\n {\"id\": \"b\", \"tools\": [\"x\"]}]}\n");
        Path file = tmp.resolve("p.json");
        assertEquals("stretto-proxy: --policy: " + file + ":2:24: the glob 'read_[' has a [ that is never closed; write \\["
                + " for the character\nstretto-proxy: --policy: " + file + ":3:2: the rule b has no action (allow, log,"
                + " ask, deny or hide)\nstretto-proxy: the session does not start with a policy that has problems; check it"
                + " with 'stretto policy check ~/p.json'\nstretto-proxy: try 'stretto-proxy --help'\n",
                stderrOf(2, env, "--policy", "~/p.json", "--record", tmp.resolve("logs").toString(), "--", "cat"));
        assertEquals("stretto-proxy: --policy: " + tmp.resolve("none.yaml") + ": no such file\nstretto-proxy: try"
                + " 'stretto-proxy --help'\n", stderrOf(2, env, "--policy", "~/none.yaml", "--", "cat"));
        assertTrue(Files.notExists(tmp.resolve("logs")), "nothing was recorded");
        assertEquals(0, protocol.size());
    }

    @Test
    void aPolicyRefusesACallBeforeTheServerSeesIt(@TempDir Path tmp) throws Exception {
        Files.writeString(tmp.resolve("p.yaml"), "rules:\n  - id: no-writes\n    tools: [\"write_*\"]\n"
                + "    action: deny\n    reason: this session only reads\n");
        // cat echoes whatever reaches it: a refused call never does.
        byte[] input = (LiveLines.call(1, "write_file", "{\"path\":\"/a\"}") + "\n"
                + LiveLines.call(2, "read_file", "{\"path\":\"/a\"}") + "\n").getBytes(StandardCharsets.UTF_8);
        assertEquals(0, run(input, Map.of("PATH", "/usr/bin:/bin", "HOME", tmp.toString()), "--policy", "~/p.yaml",
                "--record", "~/logs", "--", "cat"));
        assertEquals("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the policy check,"
                + " so write_file was not run and nothing changed: this session only reads (policy rule no-writes).\","
                + "\"type\":\"text\"}],\"isError\":true}}\n" + LiveLines.call(2, "read_file", "{\"path\":\"/a\"}") + "\n",
                protocol.toString(StandardCharsets.UTF_8));
        List<Path> logs;
        try (Stream<Path> s = Files.list(tmp.resolve("logs"))) {
            logs = s.toList();
        }
        assertTrue(Files.readString(logs.getFirst()).contains("\"from\":\"proxy\",\"message\":{\"jsonrpc\":\"2.0\","
                + "\"method\":\"stretto/policy\",\"params\":{\"action\":\"deny\""), "the verdict is in the log");
    }

    /** Lines a host writes. */
    private static final class LiveLines {
        static String call(int id, String tool, String args) {
            return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                    + "\",\"arguments\":" + args + "}}";
        }
    }
}
