package dev.stretto.proxy.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.SessionLog;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The logs beside a session log, and a session log's header. */
class SideLogsAndHeaderTest {

    private static final String SERVED = "home/served/shop/20260928T020401.117Z-14662";

    @TempDir
    Path tmp;

    @Test
    void aFlowLogsBoundArgumentsGetTheSessionsPseudonymsAndEverythingElseStays() throws Exception {
        Path log = ReferenceData.file(SERVED + ".jsonl");
        Path flowLog = ReferenceData.file(SERVED + ".flow.jsonl");
        ShareReport r = ShareCopy.run(RedactorTest.redactor(), List.of(log), tmp, false);
        assertEquals(2, r.outcomes().size(), r.toString());
        List<String> before = Files.readAllLines(flowLog);
        List<String> after = Files.readAllLines(tmp.resolve(flowLog.getFileName()));
        assertEquals(before.size(), after.size());
        String session = Files.readString(tmp.resolve(log.getFileName()), StandardCharsets.UTF_8);
        assertFalse(session.contains("c41@example.com") || session.contains("user_41"), session);
        JsonNode first = CanonicalJson.parse(after.getFirst());
        String userId = first.path("arguments").path("user_id").textValue();
        assertTrue(userId.matches("user_\\d\\d") && !userId.equals("user_41"), userId);
        // The id the flow bound is the one the session's lookup passed and its result showed.
        assertTrue(session.contains("\"arguments\":{\"user_id\":\"" + userId + "\"}"), session);
        assertTrue(session.contains("{\"text\":\"" + userId + "\",\"type\":\"text\"}"), session);
        for (int i = 0; i < before.size(); i++) {
            JsonNode b = CanonicalJson.parse(before.get(i));
            JsonNode a = CanonicalJson.parse(after.get(i));
            for (String field : List.of("action", "address", "after", "probs", "prob", "binding", "reason", "site", "tool", "run")) {
                assertEquals(b.get(field), a.get(field), field);
            }
        }
    }

    @Test
    void aConfirmLogsArgumentsAndFlaggedValuesAreTheSessionsAndItsKeysAreHashedAgain() throws Exception {
        Logs logs = new Logs("20260928T020401.312Z-14780")
                .call("get_user_details", "{\"user_id\":\"user_61\"}", "{\"payment_methods\":{\"credit_card_61\":{}},"
                        + "\"user_id\":\"user_61\"}");
        String key = "69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5";
        String line = "{\"arguments\":{\"order_id\":\"#W61a\",\"payment_method_id\":\"credit_card_61\"},\"enforced\":false,"
                + "\"fails\":false,\"key\":\"" + key + "\",\"ms\":0,\"p_yes\":0.5,\"proposal_check\":[{\"argument\":"
                + "\"payment_method_id\",\"value\":\"credit_card_61\"}],\"tool\":\"modify_pending_order_payment\","
                + "\"unknown\":false,\"word_list\":true}";
        RedactionResult r = RedactorTest.redactor().redactFiles(List.of(logs.file(),
                new ShareFile.ConfirmLog("20260928T020401.312Z-14780.confirm.jsonl", List.of(line))));
        String confirm = ((ShareFile.ConfirmLog) r.files().get(1).redacted()).lines().getFirst();
        JsonNode c = CanonicalJson.parse(confirm);
        String method = c.path("arguments").path("payment_method_id").textValue();
        assertTrue(method.matches("credit_card_\\d\\d") && !method.equals("credit_card_61"), method);
        assertEquals(method, c.path("proposal_check").path(0).path("value").textValue());
        assertEquals("#W61a", c.path("arguments").path("order_id").textValue());
        assertTrue(c.path("key").textValue().matches("[0-9a-f]{64}"));
        assertNotEquals(key, c.path("key").textValue());
        assertTrue(RedactorTest.text(r.files().getFirst().redacted()).contains("\\\"" + method + "\\\":{}"));
        assertEquals(confirm.replace(method, "credit_card_61").replace(c.path("key").textValue(), key), line);
    }

    @Test
    void hostSessionsGetOnePseudonymForAllTheirLogsUnlessKept() throws Exception {
        Logs a = new Logs("20260101T000000.000Z-1", "[\"demo\"]", "host-4242");
        Logs b = new Logs("20260101T000000.500Z-2", "[\"demo\"]", "host-4242");
        Logs c = new Logs("20260101T000001.000Z-3", "[\"demo\"]", "alice-laptop");
        RedactionResult r = RedactorTest.redactor().redactFiles(List.of(a.file(), b.file(), c.file()));
        String ha = header(r, 0).hostSession();
        assertTrue(ha.matches("host-\\d{4}") && !ha.equals("host-4242"), ha);
        assertEquals(ha, header(r, 1).hostSession());
        assertFalse(header(r, 2).hostSession().contains("alice"), header(r, 2).hostSession());
        RedactionResult kept = Redactor.of(RedactorTest.KEY, RedactionRules.none(), new RedactionOptions(true, false, false))
                .redactFiles(List.of(a.file()));
        assertEquals("host-4242", header(kept, 0).hostSession());
    }

    @Test
    void homePathsOfTheServerCommandArePseudonymisedThereAndEverywhereUnlessKept() throws Exception {
        Logs logs = new Logs("20260101T000000.000Z-1",
                "[\"/usr/local/bin/npx\",\"-y\",\"@modelcontextprotocol/server-filesystem\",\"/home/alice/projects/acme\","
                        + "\"--token=<redacted>\"]", null)
                .call("list_directory", "{\"path\":\"/home/alice/projects/acme\"}", "[FILE] /home/alice/projects/acme/notes.md");
        RedactionResult r = RedactorTest.redactor().redactFiles(List.of(logs.file()));
        List<String> command = header(r, 0).serverCommand();
        assertEquals("/usr/local/bin/npx", command.get(0));
        assertEquals("@modelcontextprotocol/server-filesystem", command.get(2));
        assertEquals("--token=<redacted>", command.get(4));
        assertTrue(command.get(3).matches("/home/[a-z]{5}/projects/[a-z]{4}"), command.get(3));
        String text = RedactorTest.text(r.files().getFirst().redacted());
        assertFalse(text.contains("alice") || text.contains("acme"), text);
        assertTrue(text.contains("{\"path\":\"" + command.get(3) + "\"}"), text);
        RedactionResult kept = Redactor.of(RedactorTest.KEY, RedactionRules.none(), new RedactionOptions(false, true, false))
                .redactFiles(List.of(logs.file()));
        assertEquals("/home/alice/projects/acme", header(kept, 0).serverCommand().get(3));
    }

    @Test
    void shiftedStartTimesMoveEverySessionByTheSameDaysAndTheirFilesWithThem() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        for (Path p : PersonalLogs.logs().subList(0, 2)) {
            Files.copy(p, in.resolve(p.getFileName()));
        }
        Path first = PersonalLogs.logs().getFirst();
        String base = first.getFileName().toString().replace(".jsonl", "");
        Files.writeString(in.resolve(base + ".flow.jsonl"), "{\"action\":\"hand_back\",\"after\":3,\"policy\":"
                + "{\"task_id\":\"" + base + "\",\"options\":[]},\"reason\":\"no lookups followed here in training\"}\n");
        Redactor shifting = Redactor.of(RedactorTest.KEY, RedactionRules.none(), new RedactionOptions(false, false, true));
        ShareReport r = ShareCopy.run(shifting, List.of(in), tmp.resolve("out"), false);
        assertFalse(r.failed(), r.toString());
        List<Path> out = SessionLog.logFiles(tmp.resolve("out"));
        assertEquals(2, out.size());
        long shift = 0;
        for (int i = 0; i < 2; i++) {
            SessionLog before = SessionLog.read(PersonalLogs.logs().get(i));
            SessionLog after = SessionLog.read(out.get(i));
            long d = after.header().startedUnixMs() - before.header().startedUnixMs();
            assertTrue(d < 0 && d % 86_400_000L == 0, "whole days back: " + d);
            assertTrue(i == 0 || d == shift, "the same shift for every session");
            shift = d;
            Instant start = Instant.ofEpochMilli(after.header().startedUnixMs());
            String expectedId = DateTimeFormatter.ofPattern("yyyyMMdd'T'HHmmss.SSS'Z'").withZone(ZoneOffset.UTC).format(start)
                    + before.session().substring(before.session().indexOf('-'));
            assertEquals(expectedId, after.session());
            assertEquals(expectedId + ".jsonl", out.get(i).getFileName().toString());
        }
        String newBase = out.getFirst().getFileName().toString().replace(".jsonl", "");
        String flow = Files.readString(tmp.resolve("out").resolve(newBase + ".flow.jsonl"));
        assertTrue(flow.contains("\"task_id\":\"" + newBase + "\""), flow);
    }

    private static LogHeader header(RedactionResult r, int i) {
        return ((ShareFile.Session) r.files().get(i).redacted()).log().header();
    }
}
