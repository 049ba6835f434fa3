package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.console.html.FlowsPage;
import dev.stretto.cli.console.html.GuardsPage;
import dev.stretto.cli.console.html.Html;
import dev.stretto.cli.console.html.SessionPage;
import dev.stretto.cli.console.html.SessionsPage;
import dev.stretto.cli.console.index.FlowCatalog;
import dev.stretto.cli.console.index.GuardBook;
import dev.stretto.cli.console.index.SessionFilter;
import dev.stretto.cli.console.index.SessionIndex;
import dev.stretto.cli.console.source.Root;
import dev.stretto.cli.console.source.SessionRead;
import dev.stretto.cli.tools.ConsoleEngine;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Whatever a log holds is shown as text: each hostile string, put into every place of a log the
 * pages show (tool name, argument key and value, result, error, refusal, conversation, domain,
 * client, command, call id, flow log, judge log), leaves only the console's own markup on the
 * sessions page, the session page, the saved page, the flows and the guards page, and is
 * there as text.
 */
class HostileLogTest {

    /** Strings that would run, or break out of text or an attribute, if written as they are. */
    static final List<String> HOSTILE = List.of(
            "<script>window.pwned=1</script>",
            "\"><img src=x onerror=\"window.pwned=1\">",
            "'><svg onload='window.pwned=1'>",
            "</pre></details></li><script>window.pwned=1</script>",
            "</style><script>window.pwned=1</script>",
            "</script><script>window.pwned=1</script>",
            "javascript:window.pwned=1",
            "<!-- a comment --><![CDATA[x]]>",
            "&lt;b&gt;already escaped&amp;",
            "\u0000nul\u0001\u001f\u007f\u0085",
            "\u202eright-to-left\u2066",
            "<a href=\"javascript:alert(1)\">x</a>",
            "{{7*7}} ${7*7} #{7*7}",
            "x\" data-live=\"//evil.example/",
            "\" onmouseover=\"window.pwned=1");

    static Stream<Arguments> hostile() {
        return HOSTILE.stream().map(Arguments::of);
    }

    @TempDir
    Path dir;

    @ParameterizedTest
    @MethodSource("hostile")
    void everyPageShowsItAsText(String bad) throws Exception {
        String q = TestLog.quote(bad);
        // The JSON spelling \u003c of '<' too, which only turns into '<' once parsed.
        String unicodeEscaped = q.replace("<", "\\u003c").replace(">", "\\u003e");
        Path log = TestLog.of("20260105T100000.000Z-1", 1767607200000L, bad)
                .initialize(1, bad)
                .line(2, "client", "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}")
                .line(3, "server", "{\"id\":2,\"jsonrpc\":\"2.0\",\"result\":{\"tools\":[{\"name\":" + q
                        + ",\"description\":" + q + ",\"annotations\":{\"readOnlyHint\":true}}]}}")
                .said(4, "user", bad)
                .call(5, bad, bad, "{" + q + ":" + q + ",\"n\":" + unicodeEscaped + "}")
                .result(6, bad, "{\"a\":" + q + "}", false)
                .call(700, 7, "cancel_pending_order", "{\"reason\":" + q + "}")
                .result(700, "proxy", 7, "Refused by the policy check, so x was not run: " + bad
                        + " (policy check retail." + bad.replace(")", "") + ").", true)
                .call(1400, 8, "get_order_details", "{}")
                .result(1401, 8, bad, true)
                .said(1402, "assistant", bad)
                .raw("{\"t_ms\":1403,\"from\":\"server\",\"raw\":" + q + "}")
                .writeTo(dir.resolve("logs/" + safeName(bad) + "/20260105T100000.000Z-1.jsonl"));
        Files.writeString(dir.resolve("logs/" + safeName(bad) + "/20260105T100000.000Z-1.flow.jsonl"),
                "{\"action\":\"lookup\",\"address\":\"decide#0\",\"after\":" + q + ",\"arguments\":{" + q + ":" + q
                        + "},\"binding\":0.5,\"key\":" + q + ",\"ms\":3,\"prob\":0.9,\"probs\":{" + q
                        + ":0.9},\"site\":" + q + ",\"tool\":" + q + "}\n"
                        + "{\"action\":\"hand_back\",\"address\":\"decide#1\",\"after\":" + q
                        + ",\"prob\":0.1,\"probs\":{},\"reason\":" + q + ",\"site\":" + q + "}\n"
                        + "{\"after\":" + q + ",\"run\":{\"call\":" + q + ",\"failed\":false,\"max_lookups\":8,"
                        + "\"sites\":[[\"decide#0\",1,0.0],[\"outcome#0\",true,-0.1],[\"decide#1\",0,0.0]],"
                        + "\"surprise\":0.1}}\n");
        Files.writeString(dir.resolve("logs/" + safeName(bad) + "/20260105T100000.000Z-1.confirm.jsonl"),
                "{\"arguments\":{\"reason\":" + q + "},\"enforced\":true,\"fails\":true,\"key\":\"k\",\"ms\":2,"
                        + "\"p_yes\":0.1,\"proposal_check\":[{\"argument\":" + q + ",\"value\":" + q + "}],"
                        + "\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":false}\n");
        Files.writeString(dir.resolve(safeName(bad) + ".flow.json"), "{\"stretto_flow\":" + q + "}");
        // A retail session, whose writes the guards replay: the verdicts' reasons quote the arguments.
        TestLog.of("20260105T110000.000Z-2", 1767610800000L, "retail")
                .call(10, 3, "cancel_pending_order", "{\"order_id\":" + q + ",\"reason\":" + q + "}")
                .result(11, 3, bad, false)
                .writeTo(dir.resolve("logs/" + safeName(bad) + "/20260105T110000.000Z-2.jsonl"));

        ConsoleEngine engine = new ConsoleEngine();
        List<Root> roots = List.of(new Root(dir.toRealPath(), bad, java.util.Set.of()));
        SessionIndex index = new SessionIndex(roots, engine);
        String escaped = Html.escape(bad);

        String sessions = SessionsPage.render(index.list(SessionFilter.ALL), roots);
        HtmlChecks.onlyOwnMarkup(sessions);
        assertTrue(sessions.contains(escaped), "the domain is shown as text on the sessions page");

        String search = SessionsPage.render(index.list(SessionFilter.of(Map.of("q", bad, "domain", bad))), roots);
        HtmlChecks.onlyOwnMarkup(search);
        assertTrue(search.contains("value=\"" + escaped + "\""), "the search box holds the words as typed");

        SessionRead read = SessionRead.of(index.find(new dev.stretto.cli.console.source.FileKey(0,
                "logs/" + safeName(bad) + "/20260105T100000.000Z-1.jsonl")), engine);
        for (String page : List.of(SessionPage.served(read, engine, true), SessionPage.file(read, engine),
                "<!DOCTYPE html><script></script>" + SessionPage.fragment(read, engine, false))) {
            HtmlChecks.onlyOwnMarkup(page);
            assertTrue(page.contains(escaped), "shown as text");
        }

        String flows = FlowsPage.render(new FlowCatalog(engine).flows(index.snapshot()), roots);
        HtmlChecks.onlyOwnMarkup(flows);
        assertTrue(flows.contains("cannot be read"), "a flow file that is not one says so");

        Map<GuardBook.Directory, Integer> dirs = GuardBook.directories(index.snapshot());
        GuardBook.Report report = new GuardBook(engine).report(index.snapshot(), dirs.keySet().iterator().next());
        assertTrue(report.replayed().size() == 1 && report.replayed().getFirst().replay().writes().size() == 1,
                "the retail session's write is replayed");
        String guards = GuardsPage.render(dirs, report, roots, engine.guardedDomains());
        HtmlChecks.onlyOwnMarkup(guards);
        assertTrue(guards.contains(escaped), "the guards page shows the write's arguments as text");
    }

    /** A directory name from the string: the page shows directories too. */
    private static String safeName(String bad) {
        StringBuilder b = new StringBuilder();
        bad.codePoints().forEach(c -> {
            if (c != '/' && c != 0 && c >= 0x20 && !(c >= 0xd800 && c <= 0xdfff)) {
                b.appendCodePoint(c);
            }
        });
        String s = b.toString().strip();
        return s.isEmpty() || s.equals(".") || s.equals("..") ? "d" : s.length() > 100 ? s.substring(0, 100) : s;
    }
}
