package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.proxy.flow.FlowView;
import dev.stretto.trace.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto learn} run in-process, as the command line runs it. */
class LearnCommandTest {

    private static final Pattern COMPILED = Pattern.compile("\"compiled_unix_ms\":(\\d+)");

    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int status = Stretto.run(args, o, e);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    private static String withoutClock(String flow) {
        return COMPILED.matcher(flow).replaceFirst("\"compiled_unix_ms\":0");
    }

    /** Equal texts, or a failure that shows where they part (flows are one long line). */
    static void assertSameText(String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        int i = 0;
        while (i < Math.min(expected.length(), actual.length()) && expected.charAt(i) == actual.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 80);
        assertEquals(expected.substring(from, Math.min(expected.length(), i + 80)),
                actual.substring(from, Math.min(actual.length(), i + 80)), "the texts part at character " + i);
    }

    @Test
    void theSixShopSessionsGiveTheReferencesFlowByteForByte(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("shop.flow.json");
        long before = System.currentTimeMillis();
        Run r = run("learn", "--sessions", Fixtures.file("home/logs/shop").toString(), "--domain", "shop",
                "--out", out.toString(), "--habit-only");
        long after = System.currentTimeMillis();
        assertEquals(0, r.status(), r.err());
        String expected = Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8);
        String written = Files.readString(out, StandardCharsets.UTF_8);
        assertSameText(withoutClock(expected), withoutClock(written));
        Matcher m = COMPILED.matcher(written);
        assertTrue(m.find());
        long compiled = Long.parseLong(m.group(1));
        assertTrue(compiled >= before && compiled <= after, "compiled_unix_ms is the time of writing: " + compiled);
        assertTrue(r.err().endsWith("stretto: learned the shop flow from 6 sessions (4 tools) and wrote " + out + "\n"),
                r.err());
        assertEquals("", r.out());
    }

    private static final String SHOP = "home/logs/shop";

    /** The six shop logs copied into {@code dir}, to change them. */
    private static Path shopCopy(Path dir) throws IOException {
        Path logs = Files.createDirectories(dir.resolve("logs"));
        try (var files = Files.list(Fixtures.file(SHOP))) {
            for (Path f : files.toList()) {
                Files.copy(f, logs.resolve(f.getFileName()));
            }
        }
        return logs;
    }

    private static Run learn(Path sessions, Path out, String... more) {
        String[] base = {"learn", "--sessions", sessions.toString(), "--domain", "shop", "--out", out.toString(),
                "--habit-only"};
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return run(all);
    }

    private static String shopFlow() throws IOException {
        return withoutClock(Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8));
    }

    @Test
    void eachPhaseSaysWhatItCountedOnStderr(@TempDir Path tmp) {
        Path out = tmp.resolve("f.json");
        Run r = learn(Fixtures.file(SHOP), out);
        assertEquals(String.join("\n",
                "stretto: read 6 session logs from " + Fixtures.file(SHOP),
                "stretto: 6 sessions, 6 successful with 38 steps; 4 tools (3 read-only)",
                "stretto: alpha 0.6973960072663901 (90% between 0.2575471795642598 and 1.6529872901618536, 900"
                        + " Metropolis-Hastings steps)",
                "stretto: code features: 4 candidates, none chosen (the best gains -5.36 nats, less than 5)",
                "stretto: habit from 6 sessions; 3 sites; bindings of 3 lookups",
                "stretto: learned the shop flow from 6 sessions (4 tools) and wrote " + out, ""), r.err());
    }

    @Test
    void anEmptyDirectoryIsAnErrorThatSaysHowToGetSessions(@TempDir Path tmp) {
        Path out = tmp.resolve("f.json");
        Run r = learn(tmp, out);
        assertEquals(1, r.status());
        assertTrue(r.err().endsWith("stretto: no session logs (*.jsonl) in " + tmp
                + ": record some with stretto-proxy --record DIR\n"), r.err());
        assertTrue(Files.notExists(out));
    }

    @Test
    void aMissingDirectoryIsNamed(@TempDir Path tmp) {
        Run r = learn(tmp.resolve("nope"), tmp.resolve("f.json"));
        assertEquals(1, r.status());
        assertEquals("stretto: " + tmp.resolve("nope") + ": no such file or directory\n", r.err());
    }

    @Test
    void logsThatNeverListedTheirToolsNeedAManifest(@TempDir Path tmp) throws IOException {
        Path logs = shopCopy(tmp);
        try (var files = Files.list(logs)) {
            for (Path f : files.toList()) {
                List<String> kept = Files.readAllLines(f).stream().filter(l -> !l.contains("tools/list")
                        && !l.contains("\"tools\":[")).toList();
                Files.write(f, kept);
            }
        }
        Path out = tmp.resolve("f.json");
        Run r = learn(logs, out);
        assertEquals(1, r.status());
        assertTrue(r.err().endsWith("stretto: the sessions in " + logs + " never listed the server's tools (no"
                + " tools/list answer), so no tool is known to be read-only: pass --manifest FILE (stretto manifest"
                + " writes one to edit)\n"), r.err());

        Path manifest = tmp.resolve("desk.manifest.json");
        Files.writeString(manifest, Files.readString(Fixtures.file("shop.manifest.json"))
                .replace("\"domain\": \"shop\"", "\"domain\": \"desk\""));
        Run withManifest = learn(logs, out, "--manifest", manifest.toString());
        assertEquals(0, withManifest.status(), withManifest.err());
        // The manifest's domain is the flow's, and the one named.
        assertTrue(withManifest.err().endsWith("stretto: learned the desk flow from 6 sessions (4 tools) and wrote "
                + out + "\n"), withManifest.err());
        String flow = Files.readString(out);
        // The same flow, but without docs (the manifest file has none) and without contracts.
        String expected = shopFlow().replace("\"domain\":\"shop\"", "\"domain\":\"desk\"")
                .replaceFirst("\"docs\":\\{.*?\\}\\}\\}\\},", "\"docs\":{}},")
                .replaceFirst(",\"contracts\":\\{[^}]*\\}", "");
        assertSameText(expected, withoutClock(flow));
    }

    @Test
    void aTornLastLineIsDroppedAndAnyOtherBadLineNamed(@TempDir Path tmp) throws IOException {
        Path logs = shopCopy(tmp);
        Path c1 = logs.resolve("20260928T020400.548Z-14457.jsonl");
        Files.writeString(c1, "{\"t_ms\":31,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":8,",
                java.nio.file.StandardOpenOption.APPEND);
        Path out = tmp.resolve("f.json");
        Run torn = learn(logs, out);
        assertEquals(0, torn.status(), torn.err());
        assertSameText(shopFlow(), withoutClock(Files.readString(out)));

        Files.writeString(c1, "\n{\"t_ms\":32,\"from\":\"client\"}\n", java.nio.file.StandardOpenOption.APPEND);
        Run bad = learn(logs, out);
        assertEquals(1, bad.status());
        // The line that was torn is now followed by another: line 21 is bad, and named.
        assertTrue(bad.err().startsWith("stretto: " + c1 + ":21: not valid JSON"), bad.err());
    }

    @Test
    void sessionsOfSeveralServersAreMergedAndTheirToolsNamedAfterTheirServers(@TempDir Path tmp) throws IOException {
        Path logs = Files.createDirectories(tmp.resolve("logs"));
        writeServerLog(logs, "20260101T000000.000Z-1", "orders", "get_order", "#A1", "shipped");
        writeServerLog(logs, "20260101T000000.001Z-2", "users", "get_user", "me", "u1");
        Path out = tmp.resolve("f.json");
        Run r = run("learn", "--sessions", logs.toString(), "--domain", "desk", "--out", out.toString(),
                "--habit-only");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: merged 2 logs of several servers into 1 sessions, each tool named after"
                + " its server (server::tool)\n"), r.err());
        assertTrue(r.err().endsWith("stretto: learned the desk flow from 1 sessions (2 tools) and wrote " + out + "\n"),
                r.err());
        FlowView flow = FlowView.of(FlowFiles.read(out));
        assertEquals(List.of("orders::get_order", "users::get_user"), flow.tools().stream().map(FlowView.Tool::name)
                .toList());
        assertEquals(List.of("m"), flow.provenance().sources());
        assertEquals(1, flow.provenance().habitEpisodes());
    }

    @Test
    void twoServersOfOneNameAtOnceAreKeptApartWithAHint(@TempDir Path tmp) throws IOException {
        Path logs = Files.createDirectories(tmp.resolve("logs"));
        writeServerLog(logs, "20260101T000000.000Z-1", "orders", "get_order", "#A1", "shipped");
        writeServerLog(logs, "20260101T000000.001Z-2", "orders", "get_order", "#B2", "lost");
        Path out = tmp.resolve("f.json");
        Run r = run("learn", "--sessions", logs.toString(), "--domain", "desk", "--out", out.toString(),
                "--habit-only");
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: kept the logs of host session host-9 apart, as two servers of the same"
                + " name ran in it at once; name each server with stretto-proxy --server-name, or give each session"
                + " its own STRETTO_SESSION\n"), r.err());
        assertTrue(r.err().endsWith("from 2 sessions (1 tools) and wrote " + out + "\n"), r.err());
    }

    private static void writeServerLog(Path dir, String session, String server, String tool, String arg, String answer)
            throws IOException {
        String header = "{\"stretto_mcp_log\":2,\"session\":\"" + session + "\",\"started_unix_ms\":1767225600000,"
                + "\"server_command\":[\"" + server + "\"],\"domain\":null,\"agent_model\":\"m\","
                + "\"host_session\":\"host-9\",\"server_name\":\"" + server + "\"}";
        String lines = String.join("\n", header,
                "{\"t_ms\":1,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}}",
                "{\"t_ms\":2,\"from\":\"server\",\"message\":{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":[{\"name\":\""
                        + tool + "\",\"annotations\":{\"readOnlyHint\":true}}]}}}",
                "{\"t_ms\":5,\"from\":\"context\",\"message\":{\"role\":\"user\",\"content\":\"Help\"}}",
                "{\"t_ms\":9,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"" + tool + "\",\"arguments\":{\"q\":\"" + arg + "\"}}}}",
                "{\"t_ms\":10,\"from\":\"server\",\"message\":{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{\"content\":"
                        + "[{\"type\":\"text\",\"text\":\"" + answer + "\"}]}}}", "");
        Files.writeString(dir.resolve(session + ".jsonl"), lines);
    }

    @Test
    void rewardsKeepUnsuccessfulSessionsOutOfTheHabitButInTheVocabAndSources(@TempDir Path tmp) throws IOException {
        Path rewards = tmp.resolve("rewards.json");
        Files.writeString(rewards, "{\"20260928T020400.548Z-14457\": 0.0, \"20260928T020400.587Z-14486\": 0.5}");
        Path out = tmp.resolve("f.json");
        Run r = learn(Fixtures.file(SHOP), out, "--rewards", rewards.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(4, FlowView.of(FlowFiles.read(out)).provenance().habitEpisodes());
        assertTrue(r.err().contains("stretto: 6 sessions, 4 successful with 26 steps;"), r.err());
    }

    @Test
    void rewardsThatLeaveNoSuccessSaySo(@TempDir Path tmp) throws IOException {
        Path rewards = tmp.resolve("rewards.json");
        StringBuilder all = new StringBuilder("{");
        try (var files = Files.list(Fixtures.file(SHOP))) {
            for (Path f : files.sorted().toList()) {
                String id = f.getFileName().toString().replace(".jsonl", "");
                all.append(all.length() > 1 ? "," : "").append('"').append(id).append("\":0");
            }
        }
        Files.writeString(rewards, all.append('}').toString());
        Run r = learn(Fixtures.file(SHOP), tmp.resolve("f.json"), "--rewards", rewards.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().endsWith("stretto: no successful training episodes to learn a habit from (set rewards to"
                + " 1)\n"), r.err());
    }

    @Test
    void anUnreadableOrMalformedRewardsFileIsNamed(@TempDir Path tmp) throws IOException {
        Path missing = tmp.resolve("missing.json");
        Run r = learn(Fixtures.file(SHOP), tmp.resolve("f.json"), "--rewards", missing.toString());
        assertEquals(1, r.status());
        assertTrue(r.err().endsWith("stretto: " + missing + ": no such file or directory\n"), r.err());

        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"s\": \"high\"}");
        Run malformed = learn(Fixtures.file(SHOP), tmp.resolve("f.json"), "--rewards", bad.toString());
        assertEquals(1, malformed.status());
        assertTrue(malformed.err().endsWith("stretto: " + bad + ": the reward of session \"s\" is not a number\n"),
                malformed.err());
    }

    @Test
    void usageErrorsSayWhatIsWrong(@TempDir Path tmp) {
        String dir = Fixtures.file(SHOP).toString();
        String out = tmp.resolve("f.json").toString();
        assertUsage("--half-life must be > 0",
                "learn", "--sessions", dir, "--domain", "shop", "--out", out, "--habit-only", "--half-life", "0");
        assertUsage("--half-life takes a number of sessions, not 'soon'",
                "learn", "--sessions", dir, "--domain", "shop", "--out", out, "--habit-only", "--half-life", "soon");
        assertUsage("--domain is required", "learn", "--sessions", dir, "--out", out, "--habit-only");
        assertUsage("--out is required", "learn", "--sessions", dir, "--domain", "shop", "--habit-only");
        assertUsage("--sessions is required", "learn", "--domain", "shop", "--out", out, "--habit-only");
        String[] base = {"learn", "--sessions", dir, "--domain", "shop", "--out", out};
        assertUsage("--habit-only cannot be used with --oracle (it learns without a System-One model)",
                with(base, "--habit-only", "--oracle", "jev"));
        assertUsage("--habit-only cannot be used with --refit-habit (it learns without a System-One model)",
                with(base, "--habit-only", "--refit-habit"));
        assertUsage("--habit-only cannot be used with --arbiter-from (it learns without a System-One model)",
                with(base, "--habit-only", "--arbiter-from", "a.json"));
        assertUsage("--habit-only cannot be used with --predicates (it learns without a System-One model)",
                with(base, "--predicates", "p.json", "--habit-only"));
        assertUsage("--arbiter-from cannot be used with --refit-habit (the arbiter comes from the file)",
                with(base, "--arbiter-from", "a.json", "--refit-habit"));
        assertUsage("--arbiter-from cannot be used with --manifest-options (the arbiter comes from the file)",
                with(base, "--arbiter-from", "a.json", "--manifest-options"));
        assertUsage("--arbiter-from cannot be used with --oracle-cache (the arbiter comes from the file)",
                with(base, "--arbiter-from", "a.json", "--oracle-cache", "c"));
        assertUsage("--oracle takes jev, replay or mock, not 'JEV'", with(base, "--oracle", "JEV"));
        assertUsage("--oracle-budget takes a number of dollars, not 'lots'", with(base, "--oracle-budget", "lots"));
        assertUsage("--oracle-budget must be a number of dollars, 0 or more", with(base, "--oracle-budget", "-1"));
        assertTrue(Files.notExists(tmp.resolve("f.json")));
    }

    static String[] with(String[] base, String... more) {
        String[] all = java.util.Arrays.copyOf(base, base.length + more.length);
        System.arraycopy(more, 0, all, base.length, more.length);
        return all;
    }

    @Test
    void anOutFileInADirectoryNotMadeYetIsWrittenThere(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("flows/shop/shop.flow.json");
        Run r = run("learn", "--sessions", Fixtures.file(SHOP).toString(), "--domain", "shop", "--out", out.toString(),
                "--habit-only");
        assertEquals(0, r.status(), r.err());
        assertEquals(withoutClock(Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8)),
                withoutClock(Files.readString(out, StandardCharsets.UTF_8)));
    }

    @Test
    void anOutThatIsADirectoryIsRefusedBeforeAnySessionIsRead(@TempDir Path tmp) {
        assertUsage("--out " + tmp + " is a directory: give the file to write the flow to",
                "learn", "--sessions", Fixtures.file(SHOP).toString(), "--domain", "shop", "--out", tmp.toString(),
                "--habit-only");
    }

    @Test
    void anOutWhoseDirectoryCannotBeMadeIsNamedBeforeAnySessionIsRead(@TempDir Path tmp) throws IOException {
        Path file = Files.writeString(tmp.resolve("flows"), "not a directory");
        Run r = run("learn", "--sessions", Fixtures.file(SHOP).toString(), "--domain", "shop",
                "--out", file.resolve("shop.flow.json").toString(), "--habit-only");
        assertEquals(1, r.status(), r.err());
        assertEquals("stretto: " + file + ": cannot make the directory of --out " + file.resolve("shop.flow.json")
                + " (a file is in the way)\n", r.err());
    }

    static void assertUsage(String message, String... args) {
        Run r = run(args);
        assertEquals(2, r.status(), r.err());
        assertEquals("stretto: learn: " + message + " (see 'stretto learn --help')\n", r.err());
    }

    @Test
    void helpNamesEveryOptionAndTheThreeWaysToLearn() {
        Run r = run("learn", "--help");
        assertEquals(0, r.status());
        for (String option : new String[] {"--sessions DIR", "--domain NAME", "--out FILE", "--habit-only",
                "--arbiter-from FILE", "--manifest FILE", "--rewards FILE", "--constants", "--half-life N",
                "--oracle MODE", "--oracle-cache DIR", "--oracle-budget USD", "--predicates FILE",
                "--manifest-options", "--refit-habit", "TYPESAFE_API_KEY"}) {
            assertTrue(r.out().contains(option), option);
        }
        assertTrue(r.out().contains("Three ways to learn:"));
    }
}
