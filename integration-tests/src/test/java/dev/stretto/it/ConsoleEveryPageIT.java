package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.episode.Timeline;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.WebElement;

/**
 * {@code stretto console} on what a new user has at hand: the reference's fixture logs and
 * flows (testdata/reference, as the repository holds them), the try-it session ({@code
 * bin/try}) and the sessions of the docs' worked examples (docs/active-mode.md's two, the
 * guards and commit one and the judge's with the mock oracle, and docs/flows.md's served flow),
 * each run as written. Headless Chromium opens every page the console links to: every session
 * the files on disk hold is listed and its page shows its whole timeline (each call, the
 * conversation, the timings), the examples show what their docs say, every flow file is on the
 * flows page, every directory on the guards page.
 */
class ConsoleEveryPageIT extends ConsoleInBrowser {

    /** How the proxy names a session log. */
    static final String SESSION_LOG = "\\d{8}T\\d{6}\\.\\d{3}Z-\\d+\\.jsonl";

    Path tryDir;
    Path examples;
    List<Path> roots;
    /** Every session log on disk, by the path of its page. */
    final Map<String, Path> pages = new LinkedHashMap<>();

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        tryDir = dir.resolve("try");
        try (Proc t = Proc.start(List.of(Repo.bin("try"), tryDir.toString()))) {
            assertEquals(0, t.waitFor(), "bin/try; stderr:\n" + t.stderr());
        }
        examples = dir.resolve("examples");
        example("active-mode.md", "## A worked example on the demo's retail world", "/tmp/stretto-active", "active");
        example("active-mode.md", "### A worked example with the mock oracle", "/tmp/stretto-judge", "judge");
        example("flows.md", "### A worked example", "/tmp/stretto-flow", "flow");
        roots = List.of(Repo.root().resolve("testdata/reference"), tryDir, examples);
        for (int i = 0; i < roots.size(); i++) {
            for (Path log : sessionLogs(roots.get(i))) {
                pages.put(page(i, roots.get(i).relativize(log)), log);
            }
        }
        assertEquals(14, pages.size(), "the reference's ten logs, the try-it session and the three examples: " + pages);
        open(roots, "every-page");
    }

    @Test
    void theSessionsPageListsEverySessionOnDisk() throws Exception {
        browser.open(console.base() + "/");
        List<String> listed = new ArrayList<>();
        for (WebElement a : browser.all("td.sid a")) {
            listed.add(a.getDomAttribute("href"));
        }
        assertEquals(new TreeSet<>(pages.keySet()), new TreeSet<>(listed), "one row for each session log on disk");
        assertEquals(pages.size(), listed.size(), "and only one");
        assertEquals(List.of(), browser.all("tr.unreadable"), "every log can be read");
        assertEquals("1\u2013" + pages.size() + " of " + pages.size() + " sessions, newest first. Times are UTC.",
                browser.find(".result-line").getText());
        browser.screenshot("sessions");
    }

    @Test
    void everySessionsPageShowsItsWholeTimeline() throws Exception {
        for (Map.Entry<String, Path> p : pages.entrySet()) {
            Timeline t = Timeline.of(SessionLog.read(p.getValue()), Timeline.TurnRule.AGENT);
            String where = p.getKey() + ": ";
            browser.open(console.base() + p.getKey());
            assertEquals(t.header().session(), browser.find("h1").getText(), where + "its heading");
            List<String> said = new ArrayList<>();
            for (Timeline.Step s : t.steps()) {
                if (s instanceof Timeline.Said say) {
                    said.add(say.text().isEmpty() ? "(no text)" : say.text());
                }
            }
            assertEquals(said, browser.texts(".said .bubble"), where + "the conversation, in order");
            List<String> names = new ArrayList<>();
            t.calls().forEach(c -> names.add(c.name().isEmpty() ? "(no name)" : c.name()));
            List<String> shown = browser.contents("details.call > summary .c-name");
            Collections.sort(names);
            Collections.sort(shown);
            assertEquals(names, shown, where + "a card for each call, lookups and a commit's calls included");
            assertEquals(t.calls().size(), browser.all(".wf-row").size(), where + "a bar for each call");
            String turns = t.turns().size() + (t.turns().size() == 1 ? " turn" : " turns");
            assertTrue(browser.contents(".counts li").contains(turns), where + browser.contents(".counts li"));
            assertEquals(List.of(), browser.texts(".notice.warn"), where + "nothing beside it that cannot be read");
            if (!t.calls().isEmpty()) {
                browser.find("button[data-expand=all]").click();
                browser.until(where + "every call open", d -> browser.all("details.call:not([open])").isEmpty());
            }
        }
    }

    @Test
    void theTryItSessionShowsItsFailedUpdate() throws Exception {
        open(only(tryDir));
        assertEquals(List.of("lookup", "update"), browser.texts(".steps .c-name"));
        assertEquals(List.of("", "ERROR"), browser.texts(".steps .c-marks"));
        browser.screenshot("try");
    }

    @Test
    void theGuardsExampleShowsItsRefusalsAndItsCommit() throws Exception {
        open(only(examples.resolve("active/logs")));
        assertEquals(List.of("I am c7@example.com. Please cancel order #W7a, I found it cheaper elsewhere.",
                "I can cancel #W7a as no longer needed or ordered by mistake. Shall I?", "Yes, ordered by mistake."),
                browser.texts(".said .bubble"));
        browser.find("button[data-expand=all]").click();
        browser.until("every call open", d -> browser.all("details.call:not([open])").isEmpty());
        assertEquals(List.of("find_user_id_by_email", "cancel_pending_order", "get_user_details", "get_order_details",
                "cancel_pending_order", "stretto_commit", "cancel_pending_order"), browser.texts(".steps .c-name"),
                "the calls in order, the one the commit made inside it");
        assertEquals(List.of("", "REFUSED", "", "", "REFUSED", "COMMIT", "BY COMMIT"), browser.texts(".steps .c-marks"));
        assertEquals(List.of("retail.status_checked", "retail.cancel_reason"), browser.texts(".steps .rule"));
        browser.screenshot("example-active");
    }

    @Test
    void theJudgeExampleShowsItsVerdict() throws Exception {
        open(only(examples.resolve("judge/logs")));
        assertEquals(List.of("", "", "", "JUDGED"), browser.texts(".steps .c-marks"));
        browser.click("details#c3 > summary");
        assertEquals(List.of("agreed (p_yes 0.50)"), browser.until("the verdict shown",
                d -> browser.texts("details#c3 .j-verdict").stream().filter(v -> !v.isEmpty()).toList()));
        assertTrue(browser.contents(".counts li").contains("1 judged"), browser.contents(".counts li").toString());
        browser.screenshot("example-judge");
    }

    @Test
    void theFlowExampleShowsItsLookups() throws Exception {
        open(only(examples.resolve("flow/logs")));
        assertEquals(List.of("find_user_id_by_email", "get_user_details", "get_order_details", "get_order_details",
                "cancel_pending_order"), browser.texts(".steps .c-name"));
        assertEquals(List.of("", "LOOKUP", "LOOKUP", "LOOKUP", ""), browser.texts(".steps .c-marks"));
        String run = browser.find(".flow-run").getText();
        assertTrue(run.contains("3 lookups made") && run.contains("hand back: get_order_details at 0.05, below 0.3"),
                run);
        browser.screenshot("example-flow");
    }

    @Test
    void theFlowsPageShowsEveryFlowFile() throws Exception {
        List<String> onDisk = new ArrayList<>();
        for (int i = 0; i < roots.size(); i++) {
            try (Stream<Path> files = Files.walk(roots.get(i))) {
                Path root = roots.get(i);
                files.filter(f -> f.getFileName().toString().endsWith(".flow.json"))
                        .forEach(f -> onDisk.add(root + "/" + root.relativize(f)));
            }
        }
        assertEquals(4, onDisk.size(), "the reference's shop flow and its three retail flows: " + onDisk);
        browser.open(console.base() + "/flows");
        assertEquals(new TreeSet<>(onDisk), new TreeSet<>(browser.texts("section.flow .card-head .hint")));
        assertEquals(List.of(), browser.texts(".notice.warn"), "every flow can be read");
        for (WebElement flow : browser.all("section.flow")) {
            assertTrue(flow.getText().contains("Sites: after each call"), flow.getText());
        }
        WebElement shop = browser.all("section.flow").stream()
                .filter(f -> f.findElement(By.cssSelector(".card-head .hint")).getText().endsWith("home/shop.flow.json"))
                .findFirst().orElseThrow();
        List<String> served = new ArrayList<>();
        for (WebElement a : shop.findElements(By.cssSelector(".served a"))) {
            served.add(a.getDomAttribute("href"));
        }
        assertTrue(served.contains(pageOf(only(examples.resolve("flow/logs")))), "the example served with it: " + served);
        assertTrue(served.contains(page(0, Path.of("home/served/shop/20260928T020401.117Z-14662.jsonl"))),
                "and the reference's: " + served);
        browser.screenshot("flows");
    }

    @Test
    void theGuardsPageReplaysEveryDirectory() throws Exception {
        Set<String> dirs = new TreeSet<>();
        for (Path log : pages.values()) {
            for (int i = 0; i < roots.size(); i++) {
                if (log.startsWith(roots.get(i))) {
                    Path parent = roots.get(i).relativize(log.getParent());
                    dirs.add(roots.get(i) + (parent.toString().isEmpty() ? "" : "/" + parent));
                }
            }
        }
        browser.open(console.base() + "/guards");
        Map<String, String> links = new LinkedHashMap<>();
        for (WebElement a : browser.all(".dirs a")) {
            links.put(a.findElement(By.cssSelector(".mono")).getText(), a.getDomAttribute("href"));
        }
        assertEquals(dirs, new TreeSet<>(links.keySet()), "every directory with session logs");
        for (Map.Entry<String, String> d : links.entrySet()) {
            browser.open(console.base() + d.getValue());
            assertEquals(d.getKey(), browser.find("section.card h2").getText());
            for (WebElement a : browser.all(".guard-session h3 a")) {
                assertTrue(pages.containsKey(a.getDomAttribute("href")), d.getKey() + ": " + a.getDomAttribute("href"));
            }
        }
        browser.open(console.base() + links.get(examples + "/active/logs"));
        List<WebElement> refused = browser.all("li.write.refused");
        assertEquals(2, refused.size(), "the two refusals of docs/active-mode.md's example");
        List<String> failed = browser.texts("li.write.refused .verdicts li.v-fail .mono");
        assertTrue(failed.containsAll(List.of("retail.status_checked", "retail.cancel_reason")), failed.toString());
        // The counts stretto guards prints for the same directory (ActiveModeIT): writes, pass, fail, unknown, refused.
        assertEquals(List.of("retail.status_checked 3 2 1 0 1", "retail.cancel_reason 3 2 1 0 1"), browser.texts(
                "table.rules tbody tr").stream().filter(r -> r.startsWith("retail.status_checked ")
                        || r.startsWith("retail.cancel_reason ")).toList());
        browser.screenshot("guards");
        browser.find("li.write.refused a.mark-red").click();
        browser.until("the session, at the refused call", d -> d.getCurrentUrl().endsWith("#c1"));
        WebElement call = browser.find("details#c1");
        browser.until("the refused call open", d -> call.getAttribute("open") != null);
        assertEquals("cancel_pending_order", call.findElement(By.cssSelector(".c-name")).getText());
    }

    // ---- helpers ----

    /** Runs a worked example of docs/ as written, in a directory of its own below {@link #examples}. */
    private void example(String page, String heading, String tmpDir, String name) throws Exception {
        String script = Repo.docsShellBlock(page, heading);
        assertTrue(script.contains(tmpDir), script);
        script = script.replace(tmpDir, examples.resolve(name).toString());
        try (Proc p = Proc.start(List.of("sh", "-c", script), Repo.root(), Map.of())) {
            p.closeStdin();
            assertEquals(0, p.waitFor(), page + " " + heading + ":\n" + p.stderr());
        }
    }

    /** The session logs below a directory, named as the proxy names them. */
    private static List<Path> sessionLogs(Path dir) throws IOException {
        try (Stream<Path> files = Files.walk(dir)) {
            return files.filter(f -> f.getFileName().toString().matches(SESSION_LOG)).sorted().toList();
        }
    }

    /** The only session log directly in {@code dir}. */
    private static Path only(Path dir) throws IOException {
        List<Path> logs = sessionLogs(dir);
        assertEquals(1, logs.size(), dir + ": " + logs);
        return logs.getFirst();
    }

    private void open(Path log) {
        browser.open(console.base() + pageOf(log));
        browser.until("the session page", d -> d.getTitle().startsWith(log.getFileName().toString()
                .replace(".jsonl", "")));
    }

    private String pageOf(Path log) {
        return pages.entrySet().stream().filter(e -> e.getValue().equals(log)).findFirst().orElseThrow().getKey();
    }

    /** The console's address of a session's page: its root's number, then each segment encoded. */
    private static String page(int root, Path relative) {
        StringBuilder b = new StringBuilder("/session/").append(root);
        for (Path segment : relative) {
            b.append('/').append(URLEncoder.encode(segment.toString(), StandardCharsets.UTF_8));
        }
        return b.toString();
    }
}
