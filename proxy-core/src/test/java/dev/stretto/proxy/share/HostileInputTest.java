package dev.stretto.proxy.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Logs as they come when things go wrong, or when someone makes them to break a reader. */
class HostileInputTest {

    @TempDir
    Path tmp;

    private static String redacted(Logs logs) throws Exception {
        return ((ShareFile.Session) RedactorTest.redactor().redactFiles(List.of(logs.file())).files().getFirst().redacted())
                .log().toJsonLines();
    }

    @Test
    void aTornLastLineIsLeftOutOfTheCopyAndSaidSo() throws Exception {
        Logs logs = new Logs("20260101T000000.000Z-1").said("user", "I'm ada@example.org");
        String torn = logs.text() + "{\"t_ms\":9,\"from\":\"context\",\"message\":{\"role\":\"user\",\"content\":\"also bob@exa";
        Path in = Files.createDirectories(tmp.resolve("in")).resolve(logs.name());
        Files.writeString(in, torn, StandardCharsets.UTF_8);
        ShareReport r = ShareCopy.run(RedactorTest.redactor(), List.of(in), tmp.resolve("out"), false);
        FileOutcome.Redacted o = (FileOutcome.Redacted) r.outcomes().getFirst();
        assertEquals(3, o.tornLine());
        String copy = Files.readString(o.target(), StandardCharsets.UTF_8);
        assertEquals(2, copy.lines().count());
        assertFalse(copy.contains("ada@") || copy.contains("bob@"), copy);
        assertEquals(1, SessionLog.read(o.target()).entries().size());
    }

    @Test
    void rawLinesStayRawWithTheirValuesReplacedKeyedOnesToo() throws Exception {
        Logs logs = new Logs("20260101T000000.000Z-1")
                .raw("server", "warning: cannot reach +1 (215) 555-0142 for ada@example.org")
                .raw("server", "{\"first_name\":\"Grace\",\"email\":\"grace@example.org\",\"zip\":\"90210\"  <cut off>")
                .said("user", "It's Grace, 90210.");
        SessionLog out = SessionLog.parse(redacted(logs).getBytes(StandardCharsets.UTF_8), "x");
        Payload.Raw first = (Payload.Raw) out.entries().get(0).payload();
        Payload.Raw second = (Payload.Raw) out.entries().get(1).payload();
        assertTrue(first.text().matches("warning: cannot reach \\+1 \\(\\d{3}\\) \\d{3}-\\d{4} for user-[0-9a-f]{4}@example\\.invalid"),
                first.text());
        assertFalse(second.text().contains("Grace") || second.text().contains("90210") || second.text().contains("grace@"),
                second.text());
        String said = ((Payload.Message) out.entries().get(2).payload()).json();
        assertFalse(said.contains("Grace") || said.contains("90210"), said);
    }

    @Test
    void hugeLinesAreRedactedWhole() throws Exception {
        StringBuilder records = new StringBuilder("[");
        for (int i = 0; i < 20_000; i++) {
            records.append(i == 0 ? "" : ",").append("{\"email\":\"person").append(i).append("@example.org\",")
                    .append("\"first_name\":\"Name").append((char) ('a' + i % 26)).append((char) ('a' + i / 26 % 26))
                    .append("\",\"note\":\"").append("x".repeat(100)).append("\"}");
        }
        records.append("]");
        String big = "b".repeat(3_000_000) + " call me: +44 20 7946 0958";
        Logs logs = new Logs("20260101T000000.000Z-1").call("list_people", "{}", records.toString())
                .raw("server", big);
        assertTrue(logs.text().length() > 6_000_000);
        String out = redacted(logs);
        assertFalse(out.contains("@example.org"));
        assertFalse(out.contains("\"first_name\\\":\\\"Nameaa"));
        assertFalse(out.contains("7946 0958"));
        assertTrue(out.contains("b".repeat(3_000_000)));
        assertEquals(2, SessionLog.parse(out.getBytes(StandardCharsets.UTF_8), "x").entries().size() - 1);
    }

    @Test
    void aLogThatIsNotUtf8IsSkippedWithItsLineAndTheOthersAreCopied() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Logs good = new Logs("20260101T000000.000Z-1").said("user", "ada@example.org");
        Files.writeString(in.resolve(good.name()), good.text(), StandardCharsets.UTF_8);
        ByteArrayOutputStream bad = new ByteArrayOutputStream();
        Logs badLog = new Logs("20260101T000001.000Z-2").said("user", "eve@example.org");
        bad.write(badLog.text().getBytes(StandardCharsets.UTF_8));
        bad.write("{\"t_ms\":5,\"from\":\"server\",\"raw\":\"caf".getBytes(StandardCharsets.UTF_8));
        bad.write(new byte[] {(byte) 0xE9, (byte) 0xFF});
        bad.write("\"}\n".getBytes(StandardCharsets.UTF_8));
        bad.write(badLog.text().lines().toList().get(1).getBytes(StandardCharsets.UTF_8));
        bad.write('\n');
        Files.write(in.resolve(badLog.name()), bad.toByteArray());
        ShareReport r = ShareCopy.run(RedactorTest.redactor(), List.of(in), tmp.resolve("out"), false);
        assertTrue(r.failed());
        FileOutcome.Skipped s = (FileOutcome.Skipped) r.outcomes().stream().filter(o -> o instanceof FileOutcome.Skipped)
                .findFirst().orElseThrow();
        assertTrue(s.reason().contains(":3: the line is not valid UTF-8"), s.reason());
        assertTrue(Files.exists(tmp.resolve("out").resolve(good.name())));
        assertFalse(Files.exists(tmp.resolve("out").resolve(badLog.name())));
    }

    @Test
    void valuesThatDifferOnlyByCaseOrSpacingAreOneValueAndStaySoInTheCopy() throws Exception {
        Logs logs = new Logs("20260101T000000.000Z-1")
                .said("user", "I'm ADA   LOVELACE, ada.lovelace@example.org, phone +1 215 555 0142.")
                .call("find_user", "{\"first_name\":\"Ada\",\"last_name\":\"Lovelace\",\"email\":\"Ada.Lovelace@Example.ORG\","
                        + "\"phone\":\"+12155550142\"}", "{\"user_id\":\"aB3x9Q\",\"name\":\"ada lovelace \"}")
                .call("get_user", "{\"user_id\":\"Ab3X9q\"}", "{\"user_id\":\"Ab3X9q\"}");
        String out = redacted(logs);
        SessionLog log = SessionLog.parse(out.getBytes(StandardCharsets.UTF_8), "x");
        String said = ((Payload.Message) log.entries().getFirst().payload()).tree().orElseThrow().path("content").asText();
        Matcher m = Pattern.compile("I'm ([A-Z]+)   ([A-Z]+), (user-[0-9a-f]{4}@example\\.invalid), phone \\+1 (\\d{3}) (\\d{3}) (\\d{4})\\.")
                .matcher(said);
        assertTrue(m.matches(), said);
        String call = ((Payload.Message) log.entries().get(1).payload()).json();
        String first = m.group(1).charAt(0) + m.group(1).substring(1).toLowerCase(Locale.ROOT);
        String last = m.group(2).charAt(0) + m.group(2).substring(1).toLowerCase(Locale.ROOT);
        assertTrue(call.contains("\"first_name\":\"" + first + "\",\"last_name\":\"" + last + "\",\"email\":\""
                + m.group(3) + "\",\"phone\":\"+1" + m.group(4) + m.group(5) + m.group(6) + "\""), call);
        String result = ((Payload.Message) log.entries().get(2).payload()).json();
        assertTrue(result.contains("\\\"name\\\":\\\"" + first.toLowerCase(Locale.ROOT) + " " + last.toLowerCase(Locale.ROOT)
                + " \\\""), result);
        // Ids that differ only by case stay different, by that case only.
        Matcher ids = Pattern.compile("user_id\\\\?\":\\\\?\"([A-Za-z0-9]{6})").matcher(out);
        assertTrue(ids.find());
        String a = ids.group(1);
        assertTrue(ids.find());
        String b = ids.group(1);
        assertNotEquals(a, b);
        assertTrue(a.equalsIgnoreCase(b), a + " " + b);
        assertFalse(out.toLowerCase(Locale.ROOT).contains("ab3x9q") || out.toLowerCase(Locale.ROOT).contains("lovelace"));
    }

    @Test
    void jsonInsideStringsInsideJsonAndDeepNestingAreFollowed() throws Exception {
        String inner = "{\"contact\":{\"email\":\"deep@example.org\"}}";
        String middle = "{\"payload\":" + Logs.quote(inner) + "}";
        String deep = "[".repeat(3000) + "\"deeper@example.org\"" + "]".repeat(3000);
        Logs logs = new Logs("20260101T000000.000Z-1").call("fetch", "{}", middle)
                .entry("server", "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"data\":" + deep + "}}")
                .call("note", "{}", "saved {\"email\":\"frag@example.org\",\"name\":\"x\"} and done");
        String out = redacted(logs);
        assertFalse(out.contains("deep@") || out.contains("deeper@") || out.contains("frag@"), out.substring(0, 400));
        assertTrue(out.contains("[".repeat(3000) + "\"user-"));
        assertTrue(out.contains("saved {\\\"email\\\":\\\"user-"), out);
    }

    @Test
    void secretsBecomeMarkersOneASecret() throws Exception {
        String token = "ghp_" + "A1b2C3d4".repeat(5);
        Logs logs = new Logs("20260101T000000.000Z-1")
                .call("login", "{\"password\":\"hunter2hunter2\",\"api_key\":\"k-123456\"}", "token " + token)
                .said("assistant", "your key k-123456 works");
        String out = redacted(logs);
        assertFalse(out.contains("hunter2") || out.contains(token) || out.contains("k-123456"), out);
        Matcher m = Pattern.compile("<redacted-[0-9a-f]{8}>").matcher(out);
        java.util.Set<String> markers = new java.util.HashSet<>();
        int n = 0;
        while (m.find()) {
            markers.add(m.group());
            n++;
        }
        assertEquals(4, n);
        assertEquals(3, markers.size());
    }

    @Test
    void aRunReportsWhatItReplacedByKind() throws Exception {
        Logs logs = new Logs("20260101T000000.000Z-1").said("user", "ada@example.org, 4111 1111 1111 1111");
        RedactedFile f = RedactorTest.redactor().redactFiles(List.of(logs.file())).files().getFirst();
        assertEquals(Map.of(ValueKind.EMAIL, 1, ValueKind.CARD, 1), f.replaced());
        assertEquals(2, f.total());
        LogEntry e = ((ShareFile.Session) f.redacted()).log().entries().getFirst();
        assertFalse(e.toJson().contains("4111 1111 1111 1111"));
    }
}
