package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.console.html.SessionsPage;
import dev.stretto.cli.console.index.Listing;
import dev.stretto.cli.console.index.SessionFilter;
import dev.stretto.cli.console.index.SessionIndex;
import dev.stretto.cli.console.index.SessionSummary;
import dev.stretto.cli.console.source.Root;
import dev.stretto.cli.tools.ConsoleEngine;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index under load: 10,000 generated sessions in three domains and every mode, over ten
 * days, with a few logs that cannot be read. What the sessions page shows is asserted (order,
 * counts, filters, pages), and that a refresh reads only what changed; how long it takes is
 * bin/bench's business, not a test's.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class SessionIndexTest {

    static final int SESSIONS = 10_000;
    static final long DAY0 = Instant.parse("2026-11-01T00:00:00Z").toEpochMilli();
    private static final DateTimeFormatter ID = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'")
            .withZone(ZoneOffset.UTC);
    private static final String[] DOMAINS = {"shop", "retail", "airline"};

    Path dir;
    SessionIndex index;
    List<Root> roots;

    /** Session {@code i}'s id: one every 86.4 s, so the ten days hold 1,000 each. */
    static String id(int i) {
        return ID.format(Instant.ofEpochMilli(started(i))) + "-" + (100000 + i);
    }

    static long started(int i) {
        return DAY0 + i * 86_400L;
    }

    @BeforeAll
    void generate(@TempDir Path tmp) throws Exception {
        dir = tmp;
        for (int i = 0; i < SESSIONS; i++) {
            String domain = DOMAINS[i % 3];
            Path sub = dir.resolve("logs").resolve(domain);
            TestLog log = TestLog.of(id(i), started(i), domain).initialize(0, "host-" + i % 4)
                    .call(10, 3, "find_user_id_by_email", "{\"email\":\"c" + i + "@example.com\"}")
                    .result(11, 3, "user_" + i, false);
            if (i % 5 == 0) {
                log.said(12, "user", "Please cancel #W" + i);
            }
            if (i % 7 == 0) {
                log.call(600, 4, "cancel_pending_order", "{\"order_id\":\"#W" + i + "\",\"reason\":\"found it cheaper\"}")
                        .result(600, "proxy", 4, "Refused by the policy check, so cancel_pending_order was not run and"
                                + " nothing changed: no (policy check retail.cancel_reason).", true);
            } else {
                log.call(600, 4, "get_order_details", "{\"order_id\":\"#W" + i + "\"}").result(601, 4,
                        i % 11 == 0 ? "Error: no such order" : "{\"status\":\"pending\"}", i % 11 == 0);
            }
            log.writeTo(sub.resolve(id(i) + ".jsonl"));
            if (i % 13 == 0) {
                boolean shadow = i % 26 == 0;
                Files.writeString(sub.resolve(id(i) + ".flow.jsonl"), "{\"action\":\"lookup\",\"address\":\"decide#0\","
                        + "\"after\":3,\"arguments\":{\"user_id\":\"user_" + i + "\"},\"binding\":0.9,\"key\":null,"
                        + "\"ms\":0,\"prob\":0.99,\"probs\":{},\"site\":\"find_user_id_by_email\",\"tool\":"
                        + "\"get_user_details\"" + (shadow ? ",\"shadow\":true" : "") + "}\n{\"after\":3,\"run\":{\"call\":"
                        + "\"find_user_id_by_email\",\"failed\":false,\"max_lookups\":8,\"sites\":[[\"decide#0\","
                        + (shadow ? 0 : 3) + ",0.0],[\"outcome#0\",true,-0.1]],\"surprise\":0.1}}\n");
            }
        }
        // Three logs that cannot be read, each for another reason; and files that are not logs.
        Files.writeString(dir.resolve("logs/shop/20261105T120000.000Z-1.jsonl"), "not json\n");
        Files.writeString(dir.resolve("logs/shop/20261106T120000.000Z-2.jsonl"),
                "{\"stretto_mcp_log\":2,\"session\":\"x\",\"started_unix_ms\":1,\"server_command\":[],\"domain\":null,"
                        + "\"agent_model\":null}\n{\"t_ms\":\"soon\"}\n");
        Files.write(dir.resolve("logs/shop/20261107T120000.000Z-3.jsonl"), new byte[] {(byte) 0xff, (byte) 0xfe, 0});
        Files.writeString(dir.resolve("logs/chat.jsonl"), "{\"role\":\"user\",\"content\":\"hi\"}\n");
        roots = List.of(Root.given(dir));
        index = new SessionIndex(roots, new ConsoleEngine());
    }

    @Test
    void theFirstPageShowsTheNewestFiftyOfEveryLogNewestFirst() {
        Listing all = index.list(SessionFilter.ALL);
        assertEquals(SESSIONS + 3, all.total());
        assertEquals(SESSIONS + 3, all.matched());
        assertEquals(3, all.unreadable());
        assertEquals(50, all.rows().size());
        assertEquals((SESSIONS + 3 + 49) / 50, all.pages());
        String page = SessionsPage.render(all, roots);
        List<String> shown = sessionIds(page);
        assertEquals(50, shown.size());
        assertEquals(id(SESSIONS - 1), shown.getFirst(), "the newest session first");
        for (int k = 0; k < 50; k++) {
            assertEquals(id(SESSIONS - 1 - k), shown.get(k), "row " + k);
        }
        assertTrue(page.contains("<strong>1\u201350</strong> of 10,003 sessions"), "the result line");
        assertTrue(page.contains("3 logs cannot be read"), "the unreadable logs are counted");
        assertTrue(page.contains("Page 1 of 201"), "the pager");
        assertTrue(page.contains("retail (3,333)") && page.contains("shop (3,334)") && page.contains("airline (3,333)"),
                "each domain with its count in the filter");
    }

    @Test
    void aLaterPageAndOnePastTheEnd() {
        Listing p2 = index.list(SessionFilter.of(Map.of("page", "2")));
        assertEquals(2, p2.page());
        assertEquals(id(SESSIONS - 51), p2.rows().getFirst().session());
        Listing past = index.list(SessionFilter.of(Map.of("page", "9999")));
        assertEquals(201, past.page(), "a page past the end shows the last");
        assertEquals(3, past.rows().size());
        assertEquals(id(0), past.rows().getLast().session(), "the oldest last");
        Listing bad = index.list(SessionFilter.of(Map.of("page", "two")));
        assertEquals(1, bad.page());
        assertEquals(List.of("'two' is not a page number; the first page is shown"), bad.filter().notes());
    }

    @Test
    void filtersByDomainModeDatesAndWords() {
        assertEquals(3333, index.list(SessionFilter.of(Map.of("domain", "retail"))).matched());
        int guards = 0;
        int context = 0;
        int flow = 0;
        int shadow = 0;
        int failed = 0;
        for (int i = 0; i < SESSIONS; i++) {
            guards += i % 7 == 0 ? 1 : 0;
            context += i % 5 == 0 ? 1 : 0;
            flow += i % 13 == 0 && i % 26 != 0 ? 1 : 0;
            shadow += i % 26 == 0 ? 1 : 0;
            failed += i % 7 != 0 && i % 11 == 0 ? 1 : 0;
        }
        assertEquals(guards, index.list(SessionFilter.of(Map.of("mode", "guards"))).matched());
        assertEquals(context, index.list(SessionFilter.of(Map.of("mode", "context"))).matched());
        assertEquals(flow, index.list(SessionFilter.of(Map.of("mode", "flow"))).matched());
        assertEquals(shadow, index.list(SessionFilter.of(Map.of("mode", "shadow"))).matched());
        assertEquals(3, index.list(SessionFilter.of(Map.of("mode", "unreadable"))).matched());
        int passive = 0;
        for (int i = 0; i < SESSIONS; i++) {
            passive += i % 7 != 0 && i % 5 != 0 && i % 13 != 0 ? 1 : 0;
        }
        assertEquals(passive, index.list(SessionFilter.of(Map.of("mode", "passive"))).matched());
        int failedShown = index.snapshot().newestFirst().stream().mapToInt(SessionSummary::failed).sum();
        assertEquals(failed, failedShown, "failed calls, refusals left out");

        // Day 3 (2026-11-03) holds sessions 2000..2999; from the 3rd to the 4th, 2000..3999.
        Listing day = index.list(SessionFilter.of(Map.of("from", "2026-11-03", "to", "2026-11-03")));
        assertEquals(1000, day.matched());
        assertEquals(id(2999), day.rows().getFirst().session());
        Listing twoDays = index.list(SessionFilter.of(Map.of("from", "2026-11-04", "to", "2026-11-03")));
        assertEquals(2000, twoDays.matched(), "a range given backwards is swapped");
        assertEquals(1, twoDays.filter().notes().size());

        Listing words = index.list(SessionFilter.of(Map.of("q", "GET_order_details #W4243")));
        assertEquals(List.of(id(4243)), words.rows().stream().map(SessionSummary::session).toList(),
                "every word must be in a tool name or argument, in any case");
        Listing email = index.list(SessionFilter.of(Map.of("q", "c9999@example.com", "domain", "shop")));
        assertEquals(List.of(id(9999)), email.rows().stream().map(SessionSummary::session).toList());
        String none = SessionsPage.render(index.list(SessionFilter.of(Map.of("q", "no-such-tool"))), roots);
        assertTrue(none.contains("No session matches"), none);
    }

    @Test
    void anUnreadableLogIsListedWithItsReason() {
        Listing bad = index.list(SessionFilter.of(Map.of("mode", "unreadable")));
        String page = SessionsPage.render(bad, roots);
        assertTrue(page.contains("line 1: not a session log: the first line is not JSON"), "not JSON");
        assertTrue(page.contains("line 2: &quot;t_ms&quot; must be a non-negative integer"), "a bad entry");
        assertTrue(page.contains("line 1: not a session log: the file has no header line"), "bytes that are no text");
        assertTrue(bad.rows().stream().anyMatch(r -> r.problem() != null && r.session().equals("20261107T120000.000Z-3")));
        assertTrue(index.snapshot().newestFirst().stream().noneMatch(r -> r.session().equals("chat")),
                "another tool's JSON lines are no session log");
    }

    @Test
    void aRefreshReadsOnlyWhatChanged() throws Exception {
        index.refresh();
        assertEquals(0, index.refresh().read(), "nothing changed, nothing read");
        Path log = dir.resolve("logs/shop").resolve(id(9999) + ".jsonl");
        String before = Files.readString(log);
        try {
            Files.writeString(log, "{\"t_ms\":900,\"from\":\"client\",\"message\":{\"jsonrpc\":\"2.0\",\"id\":9,"
                    + "\"method\":\"tools/call\",\"params\":{\"name\":\"get_user_details\",\"arguments\":{}}}}\n",
                    StandardCharsets.UTF_8, java.nio.file.StandardOpenOption.APPEND);
            SessionIndex.Snapshot after = nextChange();
            assertEquals(1, after.read(), "the grown log only");
            assertEquals(3, after.newestFirst().getFirst().calls(), "its new call is counted");
            Path added = dir.resolve("logs/new/20261231T000000.000Z-7.jsonl");
            TestLog.of("20261231T000000.000Z-7", Instant.parse("2026-12-31T00:00:00Z").toEpochMilli(), "late")
                    .writeTo(added);
            SessionIndex.Snapshot withNew = nextChange();
            assertEquals(1, withNew.read());
            assertEquals("20261231T000000.000Z-7", withNew.newestFirst().getFirst().session(), "a new log on top");
            Files.delete(added);
            long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
            while (index.refresh().newestFirst().size() != SESSIONS + 3) {
                assertTrue(System.nanoTime() < deadline, "the deleted log is still listed after 10 s");
                Thread.onSpinWait();
            }
        } finally {
            Files.writeString(log, before);
        }
    }

    /**
     * The first refresh that reads something: the file system's notice of a change reaches the
     * index a moment after the change, through the JDK's watch thread.
     */
    private SessionIndex.Snapshot nextChange() {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(10);
        while (true) {
            SessionIndex.Snapshot s = index.refresh();
            if (s.read() > 0) {
                return s;
            }
            assertTrue(System.nanoTime() < deadline, "no change noticed within 10 s");
            Thread.onSpinWait();
        }
    }

    private static List<String> sessionIds(String page) {
        Matcher m = Pattern.compile("<a href=\"/session/[^\"]+\" class=\"mono\">([^<]+)</a>").matcher(page);
        List<String> ids = new ArrayList<>();
        while (m.find()) {
            ids.add(m.group(1));
        }
        return ids;
    }
}
