package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** The {@code stretto} command run in-process with captured streams. */
class StrettoTest {

    private static final String C1 = "home/logs/shop/20260928T020400.548Z-14457.jsonl";

    /** What one run printed and returned. */
    record Run(int status, String out, String err) {
    }

    static Run run(boolean colour, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int status = Stretto.run(args, o, e, colour);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    /** Runs a command line with an environment, as {@code learn} and {@code promote} read one. */
    static Run run(java.util.Map<String, String> env, String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int status = Stretto.run(args, InputStream.nullInputStream(), o, e, false, false, env);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    private static Run run(String... args) {
        return run(false, args);
    }

    private static String fixture(String relative) {
        return Fixtures.file(relative).toString();
    }

    private static String resource(String name) throws IOException {
        try (InputStream in = StrettoTest.class.getResourceAsStream("/golden/" + name)) {
            if (in == null) {
                throw new IllegalStateException("missing test resource golden/" + name);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }

    private static Path goldenLog(Path dir) throws IOException {
        Path p = dir.resolve("20260101T090000.000Z-77.jsonl");
        Files.writeString(p, resource("session.jsonl"));
        return p;
    }

    @Test
    void showPrintsTheCallsInOrderWithTheirResults() {
        Run r = run("show", fixture(C1));
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        List<String> expected = List.of(
                "user      Hi, I'm c1@example.com.",
                "turn 1", "find_user_id_by_email {\"email\":\"c1@example.com\"}  id 3  0 ms", "-> user_1",
                "turn 2", "get_user_details {\"user_id\":\"user_1\"}  id 4  0 ms",
                "turn 3", "get_order_details {\"order_id\":\"#W1a\"}  id 5", "get_order_details {\"order_id\":\"#W1b\"}  id 6",
                "assistant You have two pending orders",
                "user      The first one, please.",
                "turn 4", "cancel_pending_order {\"order_id\":\"#W1a\",\"reason\":\"no longer needed\"}  id 7",
                "-> {\"order_id\":\"#W1a\",\"status\":\"cancelled\"}",
                "assistant Order #W1a is cancelled.",
                "5 calls, 0 failed, 4 turns, 30 ms");
        int at = 0;
        for (String piece : expected) {
            int found = r.out().indexOf(piece, at);
            assertTrue(found >= 0, "expected \"" + piece + "\" after offset " + at + " in:\n" + r.out());
            at = found + piece.length();
        }
        assertFalse(r.out().contains("\u001b["), "no colours when not asked for");
    }

    @Test
    void showOfTheGoldenLogIsByteIdentical(@TempDir Path dir) throws IOException {
        Run r = run("show", goldenLog(dir).toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(resource("session.show.txt"), r.out());
    }

    @Test
    void showMarksLookupsErrorsRefusalsAndUnansweredCalls(@TempDir Path dir) throws IOException {
        String out = run("show", goldenLog(dir).toString()).out();
        assertTrue(out.contains("read_note {\"id\":\"note-3\"}  id stretto-1  2 ms  LOOKUP"), out);
        assertTrue(out.contains("read_note {\"id\":\"note-7\"}  id 3  1 ms  ERROR"), out);
        assertTrue(out.contains("id 4  1 ms  REFUSED"), out);
        assertTrue(out.contains("cancelled by the host after 100 ms, no result"), out);
        assertTrue(out.contains("no answer"), out);
    }

    @Test
    void showUsesColoursOnlyWhenAllowed() {
        Run r = run(true, "show", fixture(C1));
        assertEquals(0, r.status());
        assertTrue(r.out().contains("\u001b[1mturn 1\u001b[0m"), r.out());
    }

    @Test
    void showJsonPrintsTheEpisode() throws IOException {
        Run r = run("show", "--json", fixture(C1));
        assertEquals(0, r.status(), r.err());
        assertEquals(Episode.of(SessionLog.read(Path.of(fixture(C1)))).toJson() + "\n", r.out());
    }

    @Test
    void episodePrintsOneJsonLinePerLog() throws IOException {
        Run r = run("episode", fixture(C1), fixture("home/logs/retail/20260928T020401.312Z-14780.jsonl"));
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(2, lines.size());
        assertEquals(Episode.of(SessionLog.read(Path.of(fixture(C1)))), Episode.fromJson(lines.get(0)));
        assertTrue(lines.get(1).startsWith("{\"id\":\"20260928T020401.312Z-14780\",\"task_id\":\"\""), lines.get(1));
    }

    @Test
    void episodeOfADirectoryReadsItsLogsSortedWithoutTheFlowLog() {
        Run r = run("episode", Fixtures.root().resolve("home/served/shop").toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(1, r.out().lines().count());
    }

    @Test
    void episodeTau2WritesTheSimulationShape(@TempDir Path dir) throws IOException {
        Run r = run("episode", "--tau2", goldenLog(dir).toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(resource("session.tau2.json"), r.out());
    }

    @Test
    void manifestOfTheShopSessionsIsTheFixtureManifest() throws IOException {
        Run r = run("manifest", Fixtures.root().resolve("home/logs/shop").toString());
        assertEquals(0, r.status(), r.err());
        assertEquals(Files.readString(Fixtures.file("shop.manifest.json")), r.out());
        Run one = run("manifest", "--domain", "retail", fixture("home/logs/retail/20260928T020401.312Z-14780.jsonl"));
        assertTrue(one.out().startsWith("{\n  \"domain\": \"retail\",\n  \"tools\": {\n"), one.out());
    }

    @Test
    void sessionsListsEveryLogUnderTheDirectory() {
        Run r = run("sessions", Fixtures.root().resolve("home").toString());
        assertEquals(0, r.status(), r.err());
        List<String> lines = r.out().lines().toList();
        assertEquals(9, lines.size(), r.out());
        assertEquals(List.of("START", "(UTC)", "SESSION", "DOMAIN", "AGENT", "CLIENT", "CALLS", "FAILED", "TURNS",
                "DURATION"), List.of(lines.get(0).split("\\s+")));
        assertEquals(List.of("2026-09-28", "02:04:00.548", "20260928T020400.548Z-14457", "shop", "-", "quickstart",
                "5", "0", "4", "30", "ms"), List.of(lines.get(1).split("\\s+")));
        assertEquals(List.of("2026-09-28", "02:04:01.312", "20260928T020401.312Z-14780", "retail", "-", "fixtures",
                "5", "1", "5", "2.4", "s"), List.of(lines.get(8).split("\\s+")));
        // The served session: its three lookups are in the turn of the call they followed.
        assertEquals(List.of("2026-09-28", "02:04:01.117", "20260928T020401.117Z-14662", "shop", "-", "quickstart",
                "5", "0", "2", "34", "ms"), List.of(lines.get(7).split("\\s+")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"show", "episode", "manifest", "sessions", "guards", "learn", "promote", "export-answers",
            "import-answers", "flow", "flow-show", "evaluate"})
    void everySubcommandHasHelp(String command) {
        Run r = run(command, "--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: stretto " + command), r.out());
        assertTrue(r.out().contains("Exit status:"), r.out());
        assertEquals("", r.err());
        assertEquals(r.out(), run(command, "-h").out());
    }

    @Test
    void topLevelHelpAndVersion() {
        Run help = run("--help");
        assertEquals(0, help.status());
        assertTrue(help.out().startsWith("Usage: stretto <command>"), help.out());
        Run version = run("--version");
        assertEquals(new Run(0, "stretto 0.1.0\n", ""), version);
        assertEquals(version, run("-V"));
        assertTrue(help.out().contains("-V, --version"), help.out());
        assertTrue(help.out().contains("Examples:\n  stretto sessions "), help.out());
        // Its exit statuses are the log commands'; the others have their own.
        assertTrue(help.out().contains("show, episode, manifest, sessions and guards exit as below; init, login,\n"
                + "logout, auth, learn, promote, redact, policy, pending, approve, deny,\nexport-answers, import-answers,"
                + " flow, flow-show, evaluate and console say how\nin their --help.\nExit status:\n"), help.out());
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "frobnicate", "--frob", "show", "show --nope x", "show a b", "episode",
            "manifest --domain", "sessions", "flow", "flow a b", "flow --all x"})
    void usageErrorsExit2WithOneLineAndAHint(String line) {
        Run r = run(line.isEmpty() ? new String[0] : line.split(" "));
        assertEquals(2, r.status(), r.err());
        assertEquals("", r.out());
        assertTrue(r.err().startsWith("stretto: "), r.err());
        assertTrue(r.err().endsWith("--help')\n"), r.err());
        assertEquals(1, r.err().lines().count(), r.err());
    }

    @Test
    void aFileThatIsNotASessionLogExits1WithFileAndLine() {
        String flow = fixture("home/served/shop/20260928T020401.117Z-14662.flow.jsonl");
        Run r = run("show", flow);
        assertEquals(new Run(1, "", "stretto: " + flow + ":1: not a session log: the first line has no "
                + "\"stretto_mcp_log\" header\n"), r);
    }

    @Test
    void aBadLineExits1WithItsLineNumber(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("bad.jsonl");
        Files.writeString(log, "{\"stretto_mcp_log\":2,\"session\":\"s\",\"started_unix_ms\":0,\"server_command\":[],"
                + "\"domain\":null,\"agent_model\":null}\n{\"t_ms\":1,\"from\":\"client\",\"raw\":\"\"}\n{oops}\n");
        for (String command : List.of("show", "episode", "manifest")) {
            Run r = run(command, log.toString());
            assertEquals(1, r.status(), command);
            assertTrue(r.err().startsWith("stretto: " + log + ":3: not valid JSON"), r.err());
            assertEquals(1, r.err().lines().count());
        }
        Run sessions = run("sessions", dir.toString());
        assertEquals(1, sessions.status());
        assertEquals("stretto: " + log + ":3: not valid JSON: Unexpected character ('o' (code 111)): was expecting"
                + " double-quote to start field name (skipped)\n"
                + "stretto: " + dir + ": none of its 1 session log could be read\n", sessions.err());
    }

    private static final String HEADER = "{\"stretto_mcp_log\":2,\"session\":\"%s\",\"started_unix_ms\":%d,"
            + "\"server_command\":[\"srv\"],\"domain\":%s,\"agent_model\":null}\n";

    private static Path log(Path dir, String session, long started, String domain, String rest) throws IOException {
        Path p = dir.resolve(session + ".jsonl");
        Files.writeString(p, HEADER.formatted(session, started, domain) + rest);
        return p;
    }

    /** Issue 7: one unreadable log made sessions and manifest reject the whole directory. */
    @Test
    void commandsOnADirectoryListTheGoodLogsAndNameTheBadOnes(@TempDir Path dir) throws IOException {
        log(dir, "20260101T000000.000Z-1", 1, "\"a\"", "{\"t_ms\":1,\"from\":\"client\",\"raw\":\"x\"}\n");
        Path bad = log(dir, "20260101T000001.000Z-2", 2, "\"b\"", "{\"t_ms\":1,\"from\":\"client\",\"message\":\uFEFF{}}\n");
        log(dir, "20260101T000002.000Z-3", 3, "\"c\"", "");
        String skipped = "stretto: " + bad + ":2: not valid JSON";

        Run sessions = run("sessions", dir.toString());
        assertEquals(0, sessions.status(), sessions.err());
        assertEquals(3, sessions.out().lines().count(), sessions.out());
        assertTrue(sessions.out().contains("20260101T000000.000Z-1") && sessions.out().contains("20260101T000002.000Z-3"));
        assertTrue(sessions.err().startsWith(skipped) && sessions.err().endsWith(" (skipped)\n"), sessions.err());
        assertEquals(1, sessions.err().lines().count(), sessions.err());

        Run manifest = run("manifest", dir.toString());
        assertEquals(0, manifest.status(), manifest.err());
        assertTrue(manifest.out().startsWith("{\n  \"domain\": \"a\""), manifest.out());
        assertTrue(manifest.err().startsWith(skipped), manifest.err());

        Run episode = run("episode", dir.toString());
        assertEquals(0, episode.status(), episode.err());
        assertEquals(2, episode.out().lines().count(), episode.out());
        assertTrue(episode.err().startsWith(skipped), episode.err());
    }

    @Test
    void aLogWhoseLastLineIsTornIsShownWithoutItAndStderrSaysSo(@TempDir Path dir) throws IOException {
        Path torn = log(dir, "20260101T000000.000Z-1", 1, "null",
                "{\"t_ms\":1,\"from\":\"client\",\"raw\":\"x\"}\n{\"t_ms\":2,\"from\":\"cli");
        Run show = run("show", torn.toString());
        assertEquals(0, show.status(), show.err());
        assertEquals("stretto: " + torn + ":3: the last line is incomplete (the proxy stopped while writing it,"
                + " or the disk filled); it is left out\n", show.err());
        assertTrue(show.out().contains("0 calls"), show.out());
        assertEquals(show.err(), run("sessions", dir.toString()).err());
    }

    /** Issue 7: logs of older versions hold secrets their redaction missed; show hides them. */
    @Test
    void showRedactsTheServerCommandOfAnOlderLog(@TempDir Path dir) throws IOException {
        Path p = dir.resolve("old.jsonl");
        Files.writeString(p, "{\"stretto_mcp_log\":2,\"session\":\"s\",\"started_unix_ms\":0,\"server_command\":"
                + "[\"mysql\",\"-pX\",\"postgres://u:p@h/db\",\"--pat\",\"Y\"],\"domain\":null,\"agent_model\":null}\n");
        String out = run("show", p.toString()).out();
        assertTrue(out.contains("\nserver  mysql -p<redacted> postgres://<redacted>@h/db --pat <redacted>\n"), out);
    }

    /** Its help says the first log's domain: a later log's must not stand in for a missing one. */
    @Test
    void manifestTakesTheFirstLogsDomainOrElseMcp(@TempDir Path dir) throws IOException {
        log(dir, "20260101T000000.000Z-1", 1, "null", "");
        log(dir, "20260101T000001.000Z-2", 2, "\"demo\"", "");
        Run r = run("manifest", dir.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().startsWith("{\n  \"domain\": \"mcp\""), r.out());
    }

    @Test
    void showNamesTheAgentOnlyFromAgentModelAndTheHostAsClient(@TempDir Path dir) throws IOException {
        String init = "{\"t_ms\":1,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,"
                + "\"method\":\"initialize\",\"params\":{\"clientInfo\":{\"name\":\"vscode\",\"version\":\"1\"}}}}\n";
        Path without = log(dir, "20260101T000000.000Z-1", 1, "null", init);
        assertTrue(run("show", without.toString()).out().contains("\ndomain  mcp   client vscode\n"));
        Path with = dir.resolve("with.jsonl");
        Files.writeString(with, Files.readString(without).replace("\"agent_model\":null", "\"agent_model\":\"opus\""));
        assertTrue(run("show", with.toString()).out().contains("\ndomain  mcp   agent opus   client vscode\n"));
    }

    @Test
    void aDirectoryWhereALogIsExpectedExits1NamingIt(@TempDir Path dir) {
        assertEquals(new Run(1, "", "stretto: " + dir + ": is a directory, not a session log\n"),
                run("show", dir.toString()));
    }

    @Test
    void aMissingFileExits1(@TempDir Path dir) {
        Path missing = dir.resolve("nope.jsonl");
        assertEquals(new Run(1, "", "stretto: " + missing + ": no such file or directory\n"),
                run("show", missing.toString()));
        assertEquals(1, run("sessions", missing.toString()).status());
    }

    private static final String RETAIL = "home/logs/retail/20260928T020401.312Z-14780.jsonl";

    @Test
    void guardsGivesEveryRulesVerdictOnTheRecordedRetailCancellationThenTheTable() {
        Run r = run("guards", fixture(RETAIL));
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertEquals(String.join("\n",
                "20260928T020401.312Z-14780  (retail)",
                "   2405 ms  cancel_pending_order {\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"}  id 7",
                "             pass     retail.authenticated",
                "             pass     retail.own_order",
                "             pass     retail.status_checked",
                "             pass     retail.pending",
                "             pass     retail.cancel_reason",
                "             pass     retail.confirmed (logged only)",
                "             -> allowed",
                "",
                "RULE                            WRITES  PASS  FAIL  UNKNOWN  WOULD REFUSE",
                "retail.authenticated                 1     1     0        0             0",
                "retail.own_order                     1     1     0        0             0",
                "retail.own_user                      0     0     0        0             0",
                "retail.status_checked                1     1     0        0             0",
                "retail.pending                       1     1     0        0             0",
                "retail.delivered                     0     0     0        0             0",
                "retail.cancel_reason                 1     1     0        0             0",
                "retail.items_in_order                0     0     0        0             0",
                "retail.same_product                  0     0     0        0             0",
                "retail.once                          0     0     0        0             0",
                "retail.own_payment                   0     0     0        0             0",
                "retail.refund_method                 0     0     0        0             0",
                "retail.confirmed (logged only)       1     1     0        0             -",
                ""), r.out().replace(System.lineSeparator(), "\n"));
    }

    @Test
    void guardsJsonPrintsTheVerdictObjectsOfEachWrite() {
        Run r = run("guards", "--json", fixture(RETAIL));
        assertEquals(0, r.status(), r.err());
        assertEquals("{\"session\":\"20260928T020401.312Z-14780\",\"t_ms\":2405,\"id\":\"7\",\"tool\":\"cancel_pending_order\","
                + "\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"},\"refused\":false,\"verdicts\":{"
                + "\"retail.authenticated\":{\"verdict\":\"pass\"},\"retail.own_order\":{\"verdict\":\"pass\"},"
                + "\"retail.status_checked\":{\"verdict\":\"pass\"},\"retail.pending\":{\"verdict\":\"pass\"},"
                + "\"retail.cancel_reason\":{\"verdict\":\"pass\"},\"retail.confirmed\":{\"verdict\":\"pass\"}}}"
                + System.lineSeparator(), r.out());
    }

    @Test
    void guardsJsonNamesASessionWithoutGuardsOnStderr() {
        Run r = run("guards", "--json", fixture("home/logs/shop/20260928T020400.548Z-14457.jsonl"));
        assertEquals(new Run(0, "", "stretto: 20260928T020400.548Z-14457: no guards for shop; give --domain retail or"
                + " airline (skipped)" + System.lineSeparator()), r);
    }

    /** A directory is read one level deep: given the record directory above the logs, it says so. */
    @Test
    void aDirectoryWithLogsOnlyInItsSubdirectoriesSaysSo(@TempDir Path tmp) throws IOException {
        Path dir = Fixtures.file("home/logs");
        for (String command : List.of("guards", "episode", "manifest")) {
            Run r = run(command, dir.toString());
            assertEquals(0, r.status(), command);
            assertEquals("stretto: " + dir + ": no session logs directly in it; its subdirectories hold 7, read only"
                    + " when named (" + dir + "/*)" + System.lineSeparator(), r.err(), command);
        }
        Run empty = run("guards", tmp.toString());
        assertEquals(new Run(0, "", "stretto: " + tmp + ": no session logs directly in it" + System.lineSeparator()),
                empty);
    }

    @Test
    void guardsTakesAnotherDomainAndRefusesOneWithoutGuards() {
        Run shop = run("guards", fixture("home/logs/shop/20260928T020400.548Z-14457.jsonl"));
        assertEquals(0, shop.status(), "the log could be read");
        assertTrue(shop.out().startsWith("20260928T020400.548Z-14457: no guards for shop; give --domain retail or airline"),
                shop.out());
        Run asRetail = run("guards", "--domain", "retail", fixture("home/logs/shop/20260928T020400.548Z-14457.jsonl"));
        assertTrue(asRetail.out().contains("fail     retail.confirmed (logged only): the customer's last message is not an"
                + " explicit confirmation"), asRetail.out());
        Run airline = run("guards", "--domain=airline", fixture(RETAIL));
        assertTrue(airline.out().startsWith("20260928T020401.312Z-14780  (airline)\n  no writes".replace("\n",
                System.lineSeparator())), airline.out());
        Run unknown = run("guards", "--domain", "telecom", fixture(RETAIL));
        assertEquals(2, unknown.status());
        assertEquals("stretto: guards: no guards for telecom (domains with guards: retail or airline) (see 'stretto guards"
                + " --help')" + System.lineSeparator(), unknown.err());
    }

    /** A record directory in active mode may hold the conversation file too: it is not a log. */
    @Test
    void guardsOfADirectoryChecksTheLogsItCanReadAndNamesTheOtherFilesItSkips(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("20260928T020401.312Z-14780.jsonl");
        Files.copy(Fixtures.file(RETAIL), log);
        Path chat = dir.resolve("chat.jsonl");
        Files.writeString(chat, "{\"role\":\"user\",\"content\":\"Please cancel #W61a.\"}\n");
        Path torn = dir.resolve("20260928T020402.000Z-14781.jsonl");
        Files.writeString(torn, Files.readString(log).substring(0, Files.readString(log).indexOf('\n') + 40));

        Run r = run("guards", dir.toString());
        assertEquals(0, r.status(), r.err());
        String alone = run("guards", log.toString()).out();
        assertTrue(r.out().startsWith(alone.substring(0, alone.indexOf("RULE"))), "the readable log's write:\n" + r.out());
        assertTrue(r.out().contains("retail.cancel_reason                 1     1     0        0             0"), r.out());
        List<String> err = List.of(r.err().split("\n"));
        assertEquals(2, err.size(), r.err());
        assertEquals("stretto: " + torn + ":2: the last line is incomplete (the proxy stopped while writing it,"
                + " or the disk filled); it is left out", err.get(0));
        assertTrue(err.get(1).startsWith("stretto: " + chat + ":1: ") && err.get(1).endsWith(" (skipped)"), err.get(1));

        Files.delete(log);
        Files.delete(torn);
        Run none = run("guards", dir.toString());
        assertEquals(1, none.status());
        assertTrue(none.err().endsWith("stretto: " + dir + ": none of its 1 session log could be read\n"), none.err());
    }

    @Test
    void guardsMarksAWriteTheGuardsWouldRefuseAndCountsIt(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("20260101T000000.000Z-5.jsonl");
        Files.writeString(log, String.join("\n",
                "{\"stretto_mcp_log\":2,\"session\":\"20260101T000000.000Z-5\",\"started_unix_ms\":0,\"server_command\":[\"s\"],"
                        + "\"domain\":\"retail\",\"agent_model\":null}",
                "{\"t_ms\":5,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W1a\",\"reason\":\"found it cheaper\"}}}}",
                ""));
        Run r = run("guards", log.toString());
        assertTrue(r.out().contains("fail     retail.cancel_reason: 'found it cheaper' is not an accepted reason"), r.out());
        assertTrue(r.out().contains("-> REFUSED"), r.out());
        assertTrue(r.out().contains("retail.cancel_reason                 1     0     1        0             1"), r.out());
        assertTrue(r.out().contains("retail.own_order                     1     0     0        1             0"), r.out());
    }

    @Test
    void showMarksACommitItsPartsAndTheCallsItMade(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("20260101T000000.000Z-6.jsonl");
        String commitArgs = "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W1a\","
                + "\"reason\":\"no longer needed\"}},{\"name\":\"cancel_pending_order\",\"arguments\":{\"order_id\":\"#W1b\","
                + "\"reason\":\"found it cheaper\"}}]}";
        Files.writeString(log, String.join("\n",
                "{\"stretto_mcp_log\":2,\"session\":\"20260101T000000.000Z-6\",\"started_unix_ms\":0,\"server_command\":[\"s\"],"
                        + "\"domain\":\"retail\",\"agent_model\":null}",
                "{\"t_ms\":10,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":"
                        + "{\"name\":\"stretto_commit\",\"arguments\":" + commitArgs + "}}}",
                "{\"t_ms\":11,\"from\":\"proxy\",\"message\":{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\","
                        + "\"params\":{\"arguments\":{\"order_id\":\"#W1a\",\"reason\":\"no longer needed\"},\"name\":\"cancel_pending_order\"}}}",
                "{\"t_ms\":13,\"from\":\"server\",\"message\":{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"result\":{\"content\":"
                        + "[{\"text\":\"cancelled\",\"type\":\"text\"}],\"isError\":false}}}",
                "{\"t_ms\":14,\"from\":\"proxy\",\"message\":{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                        + "\"cancel_pending_order {\\\"order_id\\\":\\\"#W1a\\\"}:\\ncancelled\\n\\ncancel_pending_order {\\\"order_id"
                        + "\\\":\\\"#W1b\\\"} was refused by the policy check: no\",\"type\":\"text\"}],\"isError\":true}}}",
                ""));
        Run r = run("show", log.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("stretto_commit " + "{\"calls\":[{\"arguments\":{\"order_id\":\"#W1a\""), r.out());
        assertTrue(r.out().contains("id 9  4 ms  COMMIT  ERROR"), r.out());
        assertTrue(r.out().contains("-> cancel_pending_order {\"order_id\":\"#W1a\"}: cancelled\n".replace("\n",
                System.lineSeparator())), r.out());
        assertTrue(r.out().contains("-> cancel_pending_order {\"order_id\":\"#W1b\"} was refused by the policy check: no"),
                r.out());
        assertTrue(r.out().contains("id stretto-1  2 ms  BY COMMIT"), r.out());
        assertFalse(r.out().contains("REFUSED"), "a commit that stopped is not itself refused");
        assertTrue(r.out().contains("2 calls (1 by commits), 1 failed, 1 turn"), r.out());
    }

    private static final String REFERENCE_JUDGMENT = "{\"arguments\":{\"order_id\":\"#W61a\",\"reason\":\"ordered by"
            + " mistake\"},\"enforced\":false,\"fails\":false,\"key\":\"69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5\","
            + "\"ms\":0,\"p_yes\":0.5,\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,"
            + "\"word_list\":true}";

    @Test
    void showPutsTheJudgesVerdictUnderTheCallItJudgedFromTheConfirmLogBesideTheSessionLog(@TempDir Path dir)
            throws IOException {
        Path log = dir.resolve("20260928T020401.312Z-14780.jsonl");
        Files.copy(Path.of(fixture(RETAIL)), log);
        Files.writeString(dir.resolve("20260928T020401.312Z-14780.confirm.jsonl"), REFERENCE_JUDGMENT + "\n");
        Run r = run("show", log.toString());
        assertEquals(0, r.status(), r.err());
        String nl = System.lineSeparator();
        assertTrue(r.out().contains("cancel_pending_order {\"order_id\":\"#W61a\",\"reason\":\"ordered by mistake\"}  id 7"
                + "  0 ms" + nl + "             judge: agreed (p_yes 0.50)  word list: yes  0 ms" + nl
                + "             -> {\"order_id\":\"#W61a\",\"status\":\"cancelled\"}" + nl), r.out());
        assertTrue(r.out().contains("5 calls, 1 failed, 5 turns, 1 judged, 2.4 s"), r.out());
        assertEquals("", r.err());
    }

    @Test
    void showTellsAJudgesRefusalFromTheGuardsAndPlacesACommitsRefusedCallOnTheCommit(@TempDir Path dir)
            throws IOException {
        String cancelA = "{\"order_id\":\"#W1a\",\"reason\":\"no longer needed\"}";
        String cancelB = "{\"order_id\":\"#W1b\",\"reason\":\"no longer needed\"}";
        String judgeReason = "the customer has not explicitly agreed to this exact change (confirmation judge: p_yes 0.15);"
                + " describe the change and ask the customer to confirm it first";
        Path log = dir.resolve("20260101T000000.000Z-8.jsonl");
        Files.writeString(log, String.join("\n",
                "{\"stretto_mcp_log\":2,\"session\":\"20260101T000000.000Z-8\",\"started_unix_ms\":0,\"server_command\":[\"s\"],"
                        + "\"domain\":\"retail\",\"agent_model\":null}",
                call(10, 1, "cancel_pending_order", cancelA),
                refusal(11, 1, "Refused by the policy check, so cancel_pending_order was not run and nothing changed: the"
                        + " order's status was not checked first (policy check retail.status_checked)."),
                call(2000, 2, "cancel_pending_order", cancelA),
                refusal(2003, 2, "Refused by the policy check, so cancel_pending_order was not run and nothing changed: "
                        + judgeReason + "."),
                call(4000, 3, "stretto_commit", "{\"calls\":[{\"name\":\"cancel_pending_order\",\"arguments\":" + cancelB
                        + "}]}"),
                refusal(4004, 3, "cancel_pending_order " + cancelB + " was refused by the policy check: " + judgeReason),
                ""));
        String judged = "{\"arguments\":%s,\"enforced\":true,\"fails\":true,\"key\":\"k\",\"ms\":%d,\"p_yes\":0.15,"
                + "\"proposal_check\":%s,\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":false}";
        Files.writeString(dir.resolve("20260101T000000.000Z-8.confirm.jsonl"), String.join("\n",
                judged.formatted(cancelA, 3, "[]"),
                judged.formatted(cancelB, 4, "[{\"argument\":\"order_id\",\"value\":\"#W1b\"}]"),
                "{\"arguments\":{},\"enforced\":false,\"fails\":false,\"key\":\"k2\",\"ms\":0,\"proposal_check\":[],"
                        + "\"skipped\":\"the session's question budget is spent\",\"tool\":\"modify_user_address\","
                        + "\"unknown\":true,\"word_list\":true}",
                ""));
        Run r = run("show", log.toString());
        assertEquals(0, r.status(), r.err());
        String nl = System.lineSeparator();
        String refused = "             judge: REFUSED, no explicit agreement (p_yes 0.15)  word list: no  ";
        assertTrue(r.out().contains("id 1  1 ms  REFUSED" + nl + "             -> Refused"), r.out());
        assertTrue(r.out().contains("id 2  3 ms  REFUSED" + nl + refused + "3 ms" + nl + "             -> Refused"), r.out());
        assertTrue(r.out().contains("id 3  4 ms  COMMIT  ERROR" + nl + refused + "4 ms" + nl
                + "             proposal check: order_id \"#W1b\" is from a record the customer did not choose" + nl),
                r.out());
        assertTrue(r.out().contains("judgments of calls not in the log:" + nl + "           modify_user_address {}" + nl
                + "             judge: skipped: the session's question budget is spent  word list: yes  0 ms" + nl), r.out());
        assertTrue(r.out().contains("3 judged (2 refused)"), r.out());
    }

    @Test
    void showWithAnUnreadableConfirmLogNamesItAndShowsTheSessionWithoutVerdicts(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("20260928T020401.312Z-14780.jsonl");
        Files.copy(Path.of(fixture(RETAIL)), log);
        Path confirmLog = dir.resolve("20260928T020401.312Z-14780.confirm.jsonl");
        Files.writeString(confirmLog, REFERENCE_JUDGMENT + "\n{\"tool\":\"x\"}\n");
        Run r = run("show", log.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("stretto: " + confirmLog + ":2: \"arguments\" is missing: not a confirm log line (the judge's"
                + " verdicts are left out)" + System.lineSeparator(), r.err());
        assertTrue(r.out().contains("5 calls, 1 failed, 5 turns, 2.4 s"), r.out());
        assertFalse(r.out().contains("judge:"), r.out());
    }

    private static String call(long tMs, int id, String tool, String arguments) {
        return "{\"t_ms\":" + tMs + ",\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":"
                + "\"tools/call\",\"params\":{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}}}";
    }

    private static String refusal(long tMs, int id, String text) {
        return "{\"t_ms\":" + tMs + ",\"from\":\"proxy\",\"message\":{\"id\":" + id + ",\"jsonrpc\":\"2.0\",\"result\":"
                + "{\"content\":[{\"text\":" + com.fasterxml.jackson.databind.node.TextNode.valueOf(text) + ",\"type\":"
                + "\"text\"}],\"isError\":true}}}";
    }

    private static final String SERVED = "home/served/shop/20260928T020401.117Z-14662.jsonl";

    @Test
    void showPrintsAServedSessionAsTheAgentTookItsTurnsWithEachRunOfTheFlowUnderTheCallItFollowed()
            throws IOException {
        // The reference's served session, whose flow log is next to it: the three lookups the
        // proxy made while it held call 3's answer are in call 3's turn, so the session has the
        // agent's two turns, not five.
        Run r = run("show", fixture(SERVED));
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        assertEquals(resource("served.show.txt"), r.out());
        assertFalse(r.out().contains("turn 3"), r.out());
        assertTrue(r.out().endsWith("\n5 calls (3 lookups), 0 failed, 2 turns, 34 ms\n"), r.out());
    }

    @Test
    void episodeAndItsTau2ShapePutAFlowsLookupsInTheTurnOfTheCallTheyFollowed() throws IOException {
        Run episode = run("episode", fixture(SERVED));
        assertEquals(0, episode.status(), episode.err());
        assertEquals(resource("served.episode.json"), episode.out());
        Episode read = Episode.fromJson(episode.out().strip());
        List<Event.Assistant> turns = read.events().stream().filter(e -> e instanceof Event.Assistant a
                && !a.calls().isEmpty()).map(e -> (Event.Assistant) e).toList();
        assertEquals(List.of(List.of("3", "stretto-1", "stretto-2", "stretto-3"), List.of("4")),
                turns.stream().map(t -> t.calls().stream().map(ToolCall::id).toList()).toList());

        Run tau2 = run("episode", "--tau2", fixture(SERVED));
        assertEquals(0, tau2.status(), tau2.err());
        assertEquals(resource("served.tau2.json"), tau2.out());
        // Two assistant messages with calls, as the agent took them, and every result a tool message.
        assertEquals(2, tau2.out().split("\"tool_calls\":\\[", -1).length - 1, tau2.out());
        assertEquals(5, tau2.out().split("\"role\":\"tool\"", -1).length - 1, tau2.out());
    }

    @Test
    void aFlowLogThatCannotBeReadIsNamedAndTheTimelineShownWithoutIt(@TempDir Path dir) throws IOException {
        Path log = dir.resolve("s.jsonl");
        Files.copy(Fixtures.file("home/served/shop/20260928T020401.117Z-14662.jsonl"), log);
        Files.writeString(dir.resolve("s.flow.jsonl"), "{\"after\":3}\nnot json\n");
        Run r = run("show", log.toString());
        assertEquals(0, r.status());
        assertEquals("stretto: " + dir.resolve("s.flow.jsonl") + ":1: \"action\" is missing: not a flow log line"
                + " (the flow's runs are left out)\n", r.err());
        assertTrue(r.out().contains("  id 3  0 ms (5 ms with the flow's lookups)\n             -> user_41\n"
                + "           +1 ms get_user_details {\"user_id\":\"user_41\"}  id stretto-1  1 ms  LOOKUP\n"), r.out());
    }
}
