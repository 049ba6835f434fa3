package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto show --html LOG}: the console's session page as one file that reads nothing
 * from anywhere, for the reference's served session (with its flow log) and its retail
 * session (with the judge's log beside it).
 */
class ShowHtmlTest {

    @TempDir
    Path tmp;

    @Test
    void theServedSessionAsOneFile() throws Exception {
        Path log = Fixtures.file("home/served/shop/20260928T020401.117Z-14662.jsonl");
        Command r = Command.run("show", "--html", log.toString());
        assertEquals(0, r.status(), r.err());
        assertEquals("", r.err());
        String html = r.out();
        HtmlChecks.onlyOwnMarkup(html);
        Matcher csp = Pattern.compile("<meta http-equiv=\"Content-Security-Policy\" content=\"([^\"]+)\">").matcher(html);
        assertTrue(csp.find(), "the policy travels in the file");
        String policy = csp.group(1).replace("&#39;", "'");
        assertTrue(policy.startsWith("default-src 'none'; script-src " + HtmlChecks.hashOf(html, "script")
                + "; style-src " + HtmlChecks.hashOf(html, "style")), policy);
        assertTrue(policy.contains("connect-src 'none'"), "it connects nowhere");
        assertFalse(html.contains("http://") || html.contains("https://") || html.contains("src=\""),
                "no address and no loaded resource");
        assertFalse(html.contains(" data-live=\""), "a file does not follow anything");
        assertFalse(html.contains("href=\"/"), "no link into a console that is not there");
        // What stretto show prints is all there: the calls, the lookups, the flow's decisions.
        for (String shown : new String[] {"20260928T020401.117Z-14662", "find_user_id_by_email", "LOOKUP",
                "The flow after this call", "get_order_details at 0.05, below 0.3", "p 0.99", "3 lookups made",
                "Hi, I&#39;m c41@example.com. I want to cancel an order I no longer need.", "Log lines 2, 3, 5, 6"}) {
            assertTrue(html.contains(shown), shown);
        }
        // The agent's turns: the three lookups the proxy made while it held call 3's answer are in call 3's turn.
        assertTrue(html.contains("<li><strong>2</strong> calls</li><li><strong>2</strong> turns</li>"), "the counts");
        assertTrue(html.contains("<span class=\"label\">Turn 1</span><span class=\"dim\">4 calls \u00b7 4 ms</span>"),
                "the first turn holds the lookups");
        assertTrue(html.contains("<span class=\"label\">Turn 2</span><span class=\"dim\">1 call \u00b7 0 ms</span>"),
                "the second turn is the cancellation");
        assertFalse(html.contains("Turn 3"), "no turn of a lookup's own");
    }

    @Test
    void theJudgesVerdictsWhenItsLogIsBeside() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("retail"));
        Path log = Files.copy(Fixtures.file("home/logs/retail/20260928T020401.312Z-14780.jsonl"),
                dir.resolve("20260928T020401.312Z-14780.jsonl"));
        Files.writeString(dir.resolve("20260928T020401.312Z-14780.confirm.jsonl"), "{\"arguments\":{\"order_id\":"
                + "\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":false,\"fails\":false,\"key\":\"69fc9e05\","
                + "\"ms\":12,\"p_yes\":0.5,\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,"
                + "\"word_list\":true}\n");
        Command r = Command.run("show", "--html", log.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.out().contains("<span class=\"j-verdict\">agreed (p_yes 0.50)</span>"), "the verdict");
        assertTrue(r.out().contains("word list: yes \u00b7 12 ms"));
        assertTrue(r.out().contains("mode mode-judge"), "the judge is among the modes");
        assertTrue(r.out().contains("\u2192 Error: User not found"), "the failed call, marked");
    }

    @Test
    void aBadFileOrCommandLineSaysSoAsShowDoes() throws Exception {
        Command missing = Command.run("show", "--html", tmp.resolve("none.jsonl").toString());
        assertEquals(1, missing.status());
        assertEquals("stretto: " + tmp.resolve("none.jsonl") + ": no such file or directory\n", missing.err());
        assertEquals("", missing.out());
        Path bad = Files.writeString(tmp.resolve("bad.jsonl"), "nope\n");
        Command notLog = Command.run("show", "--html", bad.toString());
        assertEquals(1, notLog.status());
        assertTrue(notLog.err().startsWith("stretto: " + bad + ":1: "), notLog.err());
        Command both = Command.run("show", "--html", "--json", bad.toString());
        assertEquals(2, both.status());
        assertTrue(both.err().contains("--json and --html"), both.err());
        Path dir = Files.createDirectories(tmp.resolve("d"));
        assertEquals(1, Command.run("show", "--html", dir.toString()).status());
    }

    @Test
    void aFlowLogThatCannotBeReadIsNamedAndLeftOut() throws Exception {
        Path log = Files.copy(Fixtures.file("home/served/shop/20260928T020401.117Z-14662.jsonl"),
                tmp.resolve("20260928T020401.117Z-14662.jsonl"));
        Files.writeString(tmp.resolve("20260928T020401.117Z-14662.flow.jsonl"), "{\"after\":3}\nnot json\n");
        Command r = Command.run("show", "--html", log.toString());
        assertEquals(0, r.status());
        assertTrue(r.err().startsWith("stretto: " + log + ": the flow log beside it cannot be read ("), r.err());
        assertTrue(r.out().contains("The flow log beside this log cannot be read"), "the page says so too");
    }

    @Test
    void thePolicysVerdictsUnderTheirCallsAndInTheTimeline() throws Exception {
        String header = "{\"stretto_mcp_log\":2,\"session\":\"20260101T090000.000Z-77\",\"started_unix_ms\":"
                + "1767258000000,\"server_command\":[\"fs\"],\"domain\":null,\"agent_model\":null,\"host_session\":null}";
        String call = "{\"t_ms\":4,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                + "\"params\":{\"name\":\"read_file\",\"arguments\":{\"path\":\"/etc/passwd\"}}}}";
        String verdict = "{\"t_ms\":4,\"from\":\"proxy\",\"message\":{\"jsonrpc\":\"2.0\",\"method\":\"stretto/policy\","
                + "\"params\":{\"action\":\"deny\",\"arguments\":{\"path\":\"/etc/passwd\"},\"id\":\"3\",\"kind\":\"call\","
                + "\"matched\":[\"confined\",\"ask-writes\"],\"name\":\"read_file\",\"reason\":\"only files under"
                + " /srv/data\",\"rule\":\"confined\"}}}";
        String refusal = "{\"t_ms\":4,\"from\":\"proxy\",\"message\":{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":"
                + "[{\"text\":\"Refused by the policy check, so read_file was not run and nothing changed: only files under"
                + " /srv/data (policy rule confined).\",\"type\":\"text\"}],\"isError\":true}}}";
        String hidden = "{\"t_ms\":9,\"from\":\"proxy\",\"message\":{\"jsonrpc\":\"2.0\",\"method\":\"stretto/policy\","
                + "\"params\":{\"action\":\"hide\",\"kind\":\"listing\",\"matched\":[\"no-moves\"],\"name\":\"move_file\","
                + "\"reason\":\"hidden by the policy\",\"rule\":\"no-moves\"}}}";
        Path log = tmp.resolve("20260101T090000.000Z-77.jsonl");
        Files.writeString(log, String.join("\n", header, call, verdict, refusal, hidden) + "\n");
        Command r = Command.run("show", "--html", log.toString());
        assertEquals(0, r.status(), r.err());
        String html = r.out();
        HtmlChecks.onlyOwnMarkup(html);
        for (String shown : new String[] {"refused (rule confined)", "only files under /srv/data",
                "also matched: ask-writes", "move_file left out of the listing (rule no-moves)",
                "<span class=\"rule\">confined</span>"}) {
            assertTrue(html.contains(shown), shown);
        }
    }

    @Test
    void aLiveSessionsPageShowsTheCallsWaitingForApproval() throws Exception {
        Path log = tmp.resolve("20260101T090000.000Z-77.jsonl");
        Files.writeString(log, "{\"stretto_mcp_log\":2,\"session\":\"20260101T090000.000Z-77\",\"started_unix_ms\":"
                + "1767258000000,\"server_command\":[\"fs\"],\"domain\":null,\"agent_model\":null,\"host_session\":null}\n");
        Path approvals = Files.createDirectories(tmp.resolve("20260101T090000.000Z-77.approvals"));
        Files.writeString(approvals.resolve("abcd2345.pending.json"), "{\"arguments\":{\"path\":\"/srv/data/b\"},"
                + "\"asked_unix_ms\":" + System.currentTimeMillis() + ",\"deadline_unix_ms\":"
                + (System.currentTimeMillis() + 60_000) + ",\"id\":\"abcd2345\",\"pid\":" + ProcessHandle.current().pid()
                + ",\"rule\":\"ask-writes\",\"session\":\"20260101T090000.000Z-77\",\"tool\":\"write_file\"}\n");
        var engine = new dev.stretto.cli.tools.ConsoleEngine();
        var read = dev.stretto.cli.console.source.SessionRead.ofFile(log, engine);
        String live = dev.stretto.cli.console.html.SessionPage.served(read, engine, true);
        HtmlChecks.onlyOwnMarkup(live);
        for (String shown : new String[] {"Waiting for approval", "write_file", "{&quot;path&quot;:&quot;/srv/data/b&quot;}",
                "rule ask-writes", "stretto approve abcd2345"}) {
            assertTrue(live.contains(shown), shown + " in " + live);
        }
        assertFalse(dev.stretto.cli.console.html.SessionPage.served(read, engine, false).contains("Waiting for approval"),
                "a session whose proxy has ended holds nothing");
    }
}
