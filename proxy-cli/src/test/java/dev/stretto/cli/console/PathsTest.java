package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.cli.console.html.Html;
import dev.stretto.cli.console.source.FileKey;
import dev.stretto.cli.console.source.LogLines;
import dev.stretto.cli.console.source.Root;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The small rules under the pages: decoding a request, checking a path, escaping, numbering lines. */
class PathsTest {

    @TempDir
    Path tmp;

    @Test
    void aRequestPathIsDecodedSegmentBySegmentOrNotAtAll() {
        assertEquals(List.of("session", "0", "a b", "é.jsonl"),
                RequestPath.of("/session/0/a%20b/%C3%A9.jsonl", null).segments());
        assertEquals(List.of(), RequestPath.of("/", null).segments());
        for (String bad : List.of("/a/%2F/b", "/a/%2e%2e/b", "/a/../b", "/a/./b", "/a//b", "/a/%00", "/a/%5C",
                "/a/%C0%AE", "/a/%E2%82", "/a/%zz", "/a/%4", "relative", "/a/")) {
            assertNull(RequestPath.of(bad, null).segments(), bad);
        }
        Map<String, String> q = RequestPath.of("/", "q=a+b%26c&domain=&q=second&=x&mode=%E2%9C%93").query();
        assertEquals("a b&c", q.get("q"), "the first of a name, + as a space");
        assertEquals("", q.get("domain"));
        assertEquals("\u2713", q.get("mode"));
        assertEquals(3, q.size());
    }

    @Test
    void aRootGivesOnlyRegularFilesBelowItReachedWithoutALink() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("root/logs"));
        Files.writeString(dir.resolve("a.jsonl"), "x");
        Files.writeString(tmp.resolve("outside.jsonl"), "x");
        Files.createSymbolicLink(dir.resolve("link.jsonl"), tmp.resolve("outside.jsonl"));
        Files.createSymbolicLink(tmp.resolve("root/via"), dir);
        Root root = Root.given(tmp.resolve("root"));
        assertEquals(dir.resolve("a.jsonl").toRealPath(), root.file("logs/a.jsonl"));
        for (String bad : List.of("logs/link.jsonl", "via/a.jsonl", "../outside.jsonl", "logs/../../outside.jsonl",
                "/etc/passwd", "logs", "", "logs/", "logs//a.jsonl", "./logs/a.jsonl", "logs\\a.jsonl",
                "logs/a.jsonl\0", "logs/none.jsonl")) {
            assertNull(root.file(bad), bad);
        }
        Root home = new Root(tmp.resolve("root").toRealPath(), "~/.stretto", Set.of("shadow"));
        assertNull(home.file("logs/a.jsonl"), "a default root reads only its named subdirectories");
    }

    @Test
    void aKeyIsTheRootsNumberAndThePathBelowIt() {
        assertEquals(new FileKey(2, "logs/a.jsonl"), FileKey.parse("2/logs/a.jsonl"));
        assertEquals("logs", FileKey.parse("2/logs/a.jsonl").directory());
        for (String bad : List.of("x/a", "/a", "2/", "2", "-1/a", "123456/a")) {
            assertNull(FileKey.parse(bad), bad);
        }
    }

    @Test
    void escapingLeavesNoMarkupAndNoControlCharacter() {
        assertEquals("&lt;script&gt;&amp;&quot;&#39;", Html.escape("<script>&\"'"));
        assertEquals("a\tb\nc\ufffd\ufffd\ufffd\ufffd", Html.escape("a\tb\nc\u0000\u007f\u0085\ufeff"));
        assertEquals("\ufffdx\ud83d\ude00", Html.escape("\ud800x\ud83d\ude00"), "a lone surrogate, a pair kept");
        Html h = new Html().el("a", "<b>", "href", "\"onclick=x", "title", null);
        assertEquals("<a href=\"&quot;onclick=x\">&lt;b&gt;</a>", h.toString());
    }

    @Test
    void lineNumbersSkipBlankLinesAsTheReaderDoes() {
        byte[] file = "{\"header\":1}\n{\"a\":1}\n\n  \n{\"b\":2}\r\n{\"c\":3}".getBytes(StandardCharsets.UTF_8);
        assertEquals(List.of(2, 5, 6), java.util.Arrays.stream(LogLines.lineNumbers(file)).boxed().toList());
    }
}
