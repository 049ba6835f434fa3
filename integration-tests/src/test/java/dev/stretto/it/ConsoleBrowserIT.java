package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.By;
import org.openqa.selenium.Keys;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.support.ui.Select;

/**
 * {@code stretto console} in a real browser: the command runs as a user starts it, on the
 * reference's fixture logs, the try-it session and a session a real proxy records while the
 * page follows it; headless Chromium opens the pages, filters, expands a call, follows the
 * session live, and the tests check what a person sees: the text, its order, the marks. Each
 * page is saved as a screenshot under {@code target/console-screenshots/}, and no page may log
 * an error or a policy violation in the browser's console.
 */
class ConsoleBrowserIT extends ConsoleInBrowser {

    static final String SERVED = "20260928T020401.117Z-14662";
    static final String RETAIL = "20260928T020401.312Z-14780";
    static final String HOSTILE = "20260929T120000.000Z-4242";
    static final String SCRIPT = "<script>window.pwned=1</script>";
    static final String BREAKOUT = "\"><img src=x onerror=\"window.pwned=2\">";

    Path tmp;
    Path home;
    Path live;
    String base;

    @BeforeAll
    void start(@TempDir Path dir) throws Exception {
        tmp = dir;
        Path root = Repo.root();
        home = dir.resolve("home");
        copyTree(root.resolve("testdata/reference/home"), home);
        Files.writeString(home.resolve("logs/retail/" + RETAIL + ".confirm.jsonl"), "{\"arguments\":{\"order_id\":"
                + "\"#W61a\",\"reason\":\"ordered by mistake\"},\"enforced\":false,\"fails\":false,\"key\":"
                + "\"69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5\",\"ms\":0,\"p_yes\":0.5,"
                + "\"proposal_check\":[],\"tool\":\"cancel_pending_order\",\"unknown\":false,\"word_list\":true}\n");
        hostileLog(home.resolve("logs/hostile/" + HOSTILE + ".jsonl"));
        Path tryDir = dir.resolve("try");
        try (Proc t = Proc.start(List.of(Repo.bin("try"), tryDir.toString()))) {
            assertEquals(0, t.waitFor(), "bin/try; stderr:\n" + t.stderr());
        }
        live = Files.createDirectories(dir.resolve("live"));
        open(List.of(home, tryDir, live), "");
        base = console.base();
    }

    @Test
    void withoutTheTokenTheBrowserIsRefused() throws Exception {
        try (Browser other = new Browser(Repo.root().resolve("integration-tests/target/console-screenshots/other"))) {
            other.open(base + "/session/0/served/shop/" + SERVED + ".jsonl");
            assertEquals("This console needs its link", other.find("h2").getText());
            assertTrue(other.all("a[href^='/session']").isEmpty());
            assertFalse(other.driver.getPageSource().contains("find_user_id_by_email"));
        }
    }

    @Test
    void theSessionsPageListsNewestFirstAndFilters() throws Exception {
        browser.open(base + "/");
        List<String> ids = browser.texts("td.sid a");
        List<String> fixtures = ids.stream().filter(i -> i.startsWith("20260928T")).toList();
        assertEquals(List.of(RETAIL, SERVED, "20260928T020400.710Z-14594", "20260928T020400.679Z-14565",
                "20260928T020400.650Z-14540", "20260928T020400.618Z-14511", "20260928T020400.587Z-14486",
                "20260928T020400.548Z-14457"), fixtures, "the reference's sessions, newest first");
        assertTrue(ids.indexOf(HOSTILE) < ids.indexOf(RETAIL), "a later session above");
        WebElement served = row(SERVED);
        assertEquals("shop", served.findElement(By.cssSelector("td:nth-child(3)")).getText());
        assertEquals(List.of("context", "flow"), served.findElements(By.cssSelector(".mode")).stream()
                .map(WebElement::getText).toList());
        assertEquals("quickstart", served.findElement(By.cssSelector("td:nth-child(5)")).getText());
        assertEquals("3", served.findElement(By.cssSelector("td:nth-child(11)")).getText(), "its lookups");
        WebElement retail = row(RETAIL);
        assertEquals("1", retail.findElement(By.cssSelector("td:nth-child(9)")).getText(), "one failed call");
        assertEquals(List.of("context", "judge"), retail.findElements(By.cssSelector(".mode")).stream()
                .map(WebElement::getText).toList());
        browser.screenshot("sessions");

        new Select(browser.find("select[name=domain]")).selectByValue("shop");
        browser.until("the domain filter applied", d -> d.getCurrentUrl().contains("domain=shop"));
        assertEquals(7, browser.all("td.sid a").size(), "six recorded and one served shop session");
        assertTrue(browser.find(".result-line").getText().startsWith("1\u20137 of 7 sessions matching"),
                browser.find(".result-line").getText());

        WebElement search = browser.find("input[name=q]");
        search.clear();
        search.sendKeys("#W41b", Keys.ENTER);
        browser.until("the search applied", d -> d.getCurrentUrl().contains("q=%23W41b"));
        assertEquals(List.of(SERVED), browser.texts("td.sid a"), "only the session whose flow looked up #W41b");

        browser.open(base + "/?mode=judge");
        assertEquals(List.of(RETAIL), browser.texts("td.sid a"));
        new Select(browser.find("select[name=mode]")).selectByValue("");
        browser.until("every mode again", d -> !d.getCurrentUrl().contains("mode=judge"));
        browser.find("input[name=from]").sendKeys("09282026");
        browser.find("input[name=to]").sendKeys("09282026");
        browser.find(".filters button[type=submit]").click();
        browser.until("the dates applied", d -> d.getCurrentUrl().contains("from=2026-09-28")
                && d.getCurrentUrl().contains("to=2026-09-28"));
        assertEquals(8, browser.all("td.sid a").size(), "the reference's eight sessions of 2026-09-28");
        browser.find("a.clear").click();
        browser.until("cleared", d -> d.getCurrentUrl().equals(base + "/"));
    }

    @Test
    void aSessionIsATimelineWhoseCallsExpand() throws Exception {
        browser.open(base + "/");
        row(SERVED).findElement(By.cssSelector("td:nth-child(3)")).click();
        browser.until("the session page", d -> d.getTitle().startsWith(SERVED));
        assertEquals(SERVED, browser.find("h1").getText());
        assertEquals(List.of("2 calls", "2 turns", "0 failed", "0 refused", "3 lookups"), browser.texts(".counts li"));
        List<String> said = browser.texts(".said .bubble");
        assertEquals(List.of("Hi, I'm c41@example.com. I want to cancel an order I no longer need.",
                "You have two pending orders, #W41a and #W41b. Which one should I cancel?", "The first one, please.",
                "Order #W41a is cancelled."), said, "the conversation, in order");
        assertEquals(List.of("find_user_id_by_email", "get_user_details", "get_order_details", "get_order_details",
                "cancel_pending_order"), browser.texts(".steps .c-name"), "the calls, in order");
        assertEquals(List.of("", "LOOKUP", "LOOKUP", "LOOKUP", ""), browser.texts(".steps .c-marks"));
        assertEquals(5, browser.all(".wf-row").size(), "the waterfall has a bar per call");

        WebElement first = browser.find("details#c0");
        WebElement args = first.findElement(By.cssSelector(".c-body pre.json"));
        assertFalse(args.isDisplayed(), "collapsed at first");
        first.findElement(By.tagName("summary")).click();
        browser.until("the call expanded", d -> args.isDisplayed());
        assertEquals("{\n  \"email\": \"c41@example.com\"\n}", args.getText(), "the arguments, pretty-printed");
        List<WebElement> pres = first.findElements(By.cssSelector(".c-body .c-sec pre"));
        assertEquals("user_41", pres.get(1).getText(), "the result");
        WebElement raw = first.findElement(By.cssSelector("details.raw"));
        raw.findElement(By.tagName("summary")).click();
        WebElement request = raw.findElement(By.cssSelector(".rawline pre"));
        browser.until("the raw line shown", d -> request.isDisplayed());
        assertTrue(request.getText().startsWith("{\"t_ms\":9,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":3,"
                + "\"method\":\"tools/call\""), request.getText());
        assertEquals(List.of("8", "9", "16"), raw.findElements(By.cssSelector(".ln")).stream().map(WebElement::getText)
                .toList(), "the request, the server's answer and the answer the proxy gave with the lookups");

        String run = browser.find(".flow-run").getText();
        assertTrue(run.startsWith("The flow after this call"), run);
        assertTrue(run.contains("3 lookups made") && run.contains("surprise 0.28"), run);
        assertTrue(run.contains("look up get_user_details {\"user_id\":\"user_41\"}"), run);
        assertTrue(run.contains("p 0.99 \u00b7 arguments 0.88"), run);
        assertTrue(run.contains("hand back: get_order_details at 0.05, below 0.3"), run);
        assertEquals(List.of("made", "made", "made"), browser.all(".flow-run").getFirst()
                .findElements(By.cssSelector(".mark")).stream().map(WebElement::getText).toList());

        browser.all(".wf-row a").get(2).click();
        WebElement third = browser.find("details#c2");
        browser.until("the waterfall opens its call", d -> third.getAttribute("open") != null);
        browser.screenshot("session");

        browser.find("button[data-expand=all]").click();
        browser.until("every call open", d -> browser.all("details.call:not([open])").isEmpty());
        browser.find("button[data-expand=none]").click();
        browser.until("every call closed", d -> browser.all("details.call[open]").isEmpty());
    }

    @Test
    void aLongResultIsCutAndShownWhole() throws Exception {
        browser.open(base + "/session/0/logs/hostile/" + HOSTILE + ".jsonl");
        WebElement call = browser.find("details#c1");
        call.findElement(By.tagName("summary")).click();
        WebElement clip = call.findElement(By.cssSelector(".clip"));
        WebElement button = clip.findElement(By.cssSelector("button.unclip"));
        assertEquals("Show all 42 lines", button.getText());
        int cut = clip.findElement(By.tagName("pre")).getSize().getHeight();
        button.click();
        browser.until("the whole value", d -> clip.findElement(By.tagName("pre")).getSize().getHeight() > cut * 2);
        assertEquals("Show less", button.getText());
    }

    @Test
    void whatALogHoldsIsShownAsTextNeverRun() throws Exception {
        browser.open(base + "/?q=" + java.net.URLEncoder.encode("<script>", StandardCharsets.UTF_8));
        assertEquals(List.of(HOSTILE), browser.texts("td.sid a"));
        assertEquals("<script>", browser.find("input[name=q]").getAttribute("value"), "the search box holds the words");
        browser.open(base + "/session/0/logs/hostile/" + HOSTILE + ".jsonl");
        assertEquals("undefined", browser.script("return typeof window.pwned;"), "nothing from the log ran");
        assertTrue(browser.all("img").isEmpty(), "no element from the log");
        assertEquals(List.of(SCRIPT, BREAKOUT), browser.texts(".said .bubble"), "the conversation as text");
        assertEquals(SCRIPT, browser.texts(".steps .c-name").getFirst(), "a tool name as text");
        WebElement call = browser.find("details#c0");
        call.findElement(By.tagName("summary")).click();
        browser.until("expanded", d -> call.findElement(By.cssSelector(".c-body pre")).isDisplayed());
        assertEquals("{\n  \"" + SCRIPT.replace("\"", "\\\"") + "\": \"" + BREAKOUT.replace("\"", "\\\"") + "\"\n}",
                call.findElement(By.cssSelector(".c-body pre")).getText(), "an argument as text");
        browser.screenshot("hostile");
        assertEquals("undefined", browser.script("return typeof window.pwned;"));
    }

    @Test
    void aSessionIsFollowedLiveWhileARealProxyRecordsIt() throws Exception {
        Path chat = live.resolve("chat.jsonl");
        Files.writeString(chat, "");
        try (Proc proxy = Proc.proxy(Map.of(), "--record", live.resolve("logs").toString(), "--domain", "retail",
                "--guards", "--commit", "--context", chat.toString(), "--", Repo.bin("stretto-mcp-demo"), "--world",
                "retail")) {
            proxy.send("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\",\"params\":{\"protocolVersion\":"
                    + "\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"browser-test\",\"version\":\"1\"}}}");
            proxy.nextLine();
            proxy.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            proxy.send("{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/list\"}");
            assertTrue(proxy.nextLine().contains("stretto_commit"), "the commit tool is offered");
            proxy.awaitStderr("recording to ");
            Matcher m = Pattern.compile("recording to (\\S+/(\\d{8}T\\d{6}\\.\\d{3}Z-\\d+)\\.jsonl)").matcher(proxy.stderr());
            assertTrue(m.find(), proxy.stderr());
            String session = m.group(2);

            browser.open(base + "/");
            WebElement row = row(session);
            assertTrue(row.findElement(By.cssSelector(".rec")).getText().contains("recording"), "marked as recording");
            row.findElement(By.cssSelector("td.sid a")).click();
            browser.until("its page", d -> d.getTitle().startsWith(session));
            browser.until("the page says it follows the log", d -> browser.find("#live-state").getText()
                    .contains("This page follows the log as the proxy writes it."));

            say(chat, "user", "I am c7@example.com. Please cancel order #W7a, I found it cheaper elsewhere.");
            proxy.send(call(3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}"));
            assertTrue(proxy.nextLine().contains("user_7"));
            browser.until("the first call appears", d -> browser.texts(".steps .c-name").equals(
                    List.of("find_user_id_by_email")));
            browser.until("the conversation line before it", d -> browser.texts(".said .bubble").equals(
                    List.of("I am c7@example.com. Please cancel order #W7a, I found it cheaper elsewhere.")));
            browser.click("details#c0 summary");

            proxy.send(call(4, "cancel_pending_order", "{\"order_id\":\"#W7a\",\"reason\":\"no longer needed\"}"));
            assertTrue(proxy.nextLine().contains("Refused by the policy check"));
            // The page's body is replaced as the log grows: what is read of it is read in one go.
            Object refused = browser.until("the refusal appears", d -> browser.script(
                    "var r = document.querySelector('.steps li.refused'); return r && [r.querySelector('.c-marks')"
                            + ".textContent, r.querySelector('.rule').textContent, r.querySelector('.c-err').textContent,"
                            + " document.getElementById('c0').open];"));
            List<?> seen = (List<?>) refused;
            assertEquals("REFUSED", seen.get(0));
            assertEquals("retail.status_checked", seen.get(1), "the rule");
            assertTrue(((String) seen.get(2)).startsWith("Refused by the policy check, so cancel_pending_order was not"
                    + " run and nothing changed"), "and its text: " + seen.get(2));
            assertEquals(Boolean.TRUE, seen.get(3), "what was open stays open");
            browser.until("the counts", d -> browser.texts(".counts li").equals(List.of("2 calls", "2 turns",
                    "0 failed", "1 refused", "0 lookups")));

            proxy.send(call(5, "stretto_commit", "{\"calls\":[{\"name\":\"get_user_details\",\"arguments\":"
                    + "{\"user_id\":\"user_7\"}}]}"));
            assertTrue(proxy.nextLine().contains("\"id\":5"));
            browser.until("the commit", d -> browser.texts(".steps .c-marks").contains("COMMIT"));
            browser.click("li.commit > details > summary");
            browser.until("the call the commit made, inside it", d -> browser.texts("li.commit .calls.nested .c-name")
                    .equals(List.of("get_user_details")) && browser.texts("li.commit .calls.nested .c-marks")
                    .equals(List.of("BY COMMIT")));
            browser.screenshot("live");

            proxy.closeStdin();
            assertEquals(0, proxy.waitFor(), proxy.stderr());
            browser.until("the page says the session ended", d -> browser.find("#live-state").getText()
                    .startsWith("The session ended: its proxy has exited."));
            assertEquals("live-state ended", browser.until("the mark", d -> browser.find("#live-state")
                    .getAttribute("class")));

            // The guards page replays it: the refusal is there, and links to the call in its session.
            browser.open(base + "/guards");
            browser.all(".dirs a").stream().filter(a -> a.getText().contains("live")).findFirst().orElseThrow().click();
            browser.until("its directory", d -> d.getCurrentUrl().contains("dir="));
            WebElement write = browser.find("li.write.refused");
            assertTrue(write.getText().contains("cancel_pending_order"), write.getText());
            assertTrue(write.getText().contains("retail.status_checked"), write.getText());
            browser.screenshot("guards");
            write.findElement(By.cssSelector("a.mark-red")).click();
            browser.until("the session, at the refused call", d -> d.getCurrentUrl().endsWith("#c1"));
            WebElement call = browser.find("details#c1");
            browser.until("the refused call open", d -> call.getAttribute("open") != null);
            assertEquals("cancel_pending_order", call.findElement(By.cssSelector(".c-name")).getText());
        }
    }

    @Test
    void theFlowsPageShowsEachFlowAndItsSessions() throws Exception {
        browser.open(base + "/flows");
        WebElement flow = browser.find("section.flow");
        assertEquals("shop.flow.json", flow.findElement(By.cssSelector("h2")).getText());
        List<String> blocks = flow.findElements(By.cssSelector("details.flow-block > summary, p.flow-block")).stream()
                .map(WebElement::getText).toList();
        assertEquals(List.of("Tools (only read tools are ever looked up)",
                "Sites: after each call, the lookups that followed it in training (the flow offers these, or hands back)",
                "Lookups and their arguments", "Deciding: with reach unless --flow-decider says otherwise",
                "Arbiter: none (learned without a System-One model)", "Promotion: none (the flow acts after every call)"),
                blocks, "flow-show's sections, in its order");
        assertTrue(flow.getText().contains("find_user_id_by_email           get_user_details \u00d76"), flow.getText());
        List<WebElement> sessions = flow.findElements(By.cssSelector(".served a"));
        assertEquals(List.of(SERVED), sessions.stream().map(WebElement::getText).toList());
        browser.screenshot("flows");
        sessions.getFirst().click();
        browser.until("the served session", d -> d.getTitle().startsWith(SERVED));
    }

    @Test
    void showHtmlIsOneFileThatWorksOffline() throws Exception {
        Path out = tmp.resolve("served.html");
        try (Proc p = Proc.start(List.of(Repo.bin("stretto"), "show", "--html",
                home.resolve("served/shop/" + SERVED + ".jsonl").toString()))) {
            assertEquals(0, p.waitFor(), p.stderr());
            Files.write(out, p.stdoutBytes());
        }
        browser.open(out.toUri().toString());
        assertEquals(SERVED, browser.find("h1").getText());
        WebElement first = browser.find("details#c0");
        first.findElement(By.tagName("summary")).click();
        browser.until("its script runs under the file's own policy", d -> first.getAttribute("open") != null
                && first.findElement(By.cssSelector(".c-body pre.json")).isDisplayed());
        browser.find("button[data-expand=all]").click();
        browser.until("every call open", d -> browser.all("details.call:not([open])").isEmpty());
        assertEquals(List.of(), browser.all("a[href^='/']"), "no link into a console that is not there");
        browser.screenshot("show-html");
    }

    // ---- helpers ----

    private WebElement row(String session) {
        return browser.until("a row for " + session, d -> {
            for (WebElement r : browser.all("tbody tr")) {
                if (r.findElements(By.cssSelector("td.sid a")).stream().anyMatch(a -> a.getText().equals(session))) {
                    return r;
                }
            }
            return null;
        });
    }

    private static String call(int id, String tool, String args) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"tools/call\",\"params\":{\"name\":\"" + tool
                + "\",\"arguments\":" + args + "}}";
    }

    private static void say(Path chat, String role, String text) throws IOException {
        Files.writeString(chat, "{\"role\":\"" + role + "\",\"content\":\"" + text + "\"}\n", StandardCharsets.UTF_8,
                java.nio.file.StandardOpenOption.APPEND);
    }

    /** A session whose tool name, arguments, results and conversation would run or break out if not escaped. */
    private static void hostileLog(Path file) throws IOException {
        String s = json(SCRIPT);
        String b = json(BREAKOUT);
        StringBuilder longResult = new StringBuilder("{");
        for (int i = 0; i < 40; i++) {
            longResult.append(i == 0 ? "" : ",").append("\"k").append(i).append("\":").append(i);
        }
        List<String> lines = new ArrayList<>(List.of(
                "{\"stretto_mcp_log\":2,\"session\":\"" + HOSTILE + "\",\"started_unix_ms\":1790683200000,"
                        + "\"server_command\":[\"demo\"],\"domain\":\"hostile\",\"agent_model\":" + b + "}",
                "{\"t_ms\":1,\"from\":\"context\",\"message\":{\"role\":\"user\",\"content\":" + s + "}}",
                "{\"t_ms\":2,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":" + s + ",\"arguments\":{" + s + ":" + b + "}}}}",
                "{\"t_ms\":3,\"from\":\"server\",\"message\":{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":"
                        + "[{\"type\":\"text\",\"text\":" + b + "}],\"isError\":true}}}",
                "{\"t_ms\":4,\"from\":\"context\",\"message\":{\"role\":\"assistant\",\"content\":" + b + "}}",
                "{\"t_ms\":900,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":4,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"get_order_details\",\"arguments\":{\"order_id\":\"#W1\"}}}}",
                "{\"t_ms\":901,\"from\":\"server\",\"message\":{\"id\":4,\"jsonrpc\":\"2.0\",\"result\":{\"content\":"
                        + "[{\"type\":\"text\",\"text\":" + json(longResult.append('}').toString()) + "}]}}}"));
        Files.createDirectories(file.getParent());
        Files.writeString(file, String.join("\n", lines) + "\n", StandardCharsets.UTF_8);
    }

    private static String json(String s) {
        return "\"" + s.replace("\\", "\\\\").replace("\"", "\\\"") + "\"";
    }

    private static void copyTree(Path from, Path to) throws IOException {
        try (Stream<Path> files = Files.walk(from)) {
            for (Path p : files.toList()) {
                Path target = to.resolve(from.relativize(p).toString());
                if (Files.isDirectory(p)) {
                    Files.createDirectories(target);
                } else {
                    Files.copy(p, target);
                }
            }
        }
    }
}
