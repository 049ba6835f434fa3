package dev.stretto.proxy.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A rules file, the key file, and the copies on disk. */
class RulesAndFilesTest {

    @TempDir
    Path tmp;

    private static String redacted(RedactionRules rules, Logs logs) throws Exception {
        return RedactorTest.text(Redactor.of(RedactorTest.KEY, rules, RedactionOptions.defaults())
                .redactFiles(List.of(logs.file())).files().getFirst().redacted());
    }

    private static Logs shop() {
        return new Logs("20260101T000000.000Z-1")
                .said("user", "I'm employee EMP-123456, member 778899, zip 19122, write to ada@example.org")
                .call("get_member", "{\"club_code\":\"778899\"}",
                        "{\"items\":[{\"name\":\"Desk lamp\"},{\"name\":\"Chair\"}],\"zip\":\"19122\",\"contact\":\"ada@example.org\"}");
    }

    @Test
    void aRulesFileAddsKeysPointersAndPatternsAndKeepsValuesAndFields() throws Exception {
        Path file = tmp.resolve("rules.json");
        Files.writeString(file, """
                {"keys": {"clubCode": "id"},
                 "tools": {"get_member": {"result": {"/items/*/name": "text"}}},
                 "patterns": {"EMP-[0-9]{6}": "id"},
                 "keep": ["ada@example.org"],
                 "keep_fields": ["zip"]}
                """);
        String plain = redacted(RedactionRules.none(), shop());
        assertTrue(plain.contains("778899") && plain.contains("EMP-123456") && plain.contains("Desk lamp"));
        assertFalse(plain.contains("19122") || plain.contains("ada@example.org"));
        String ruled = redacted(RedactionRules.read(file), shop());
        assertFalse(ruled.contains("778899") || ruled.contains("EMP-123456") || ruled.contains("Desk lamp")
                || ruled.contains("Chair"), ruled);
        assertTrue(ruled.matches("(?s).*employee EMP-\\d{6}, member \\d{6}, zip 19122, write to ada@example\\.org.*"), ruled);
        // The kept field keeps its values wherever they stand; --keep does the same.
        String keep = redacted(RedactionRules.none().keepingFields(List.of("zip")), shop());
        assertTrue(keep.contains("zip 19122") && keep.contains("\\\"zip\\\":\\\"19122\\\""), keep);
    }

    @Test
    void aBadRulesFileIsNamedWithWhatIsWrong() throws Exception {
        assertBad("{\"key\": {}}", "unknown member \"key\" (a rules file has keys, tools, patterns, keep and keep_fields)");
        assertBad("{\"keys\": {\"x\": \"person\"}}", "no kind of value is called \"person\"");
        assertBad("{\"tools\": {\"t\": {\"result\": {\"a/b\": \"id\"}}}}", "not a JSON pointer: \"a/b\" (it starts with /)");
        assertBad("{\"tools\": {\"t\": {\"output\": {}}}}", "unknown member \"output\" (a tool's rules have arguments and result)");
        assertBad("{\"patterns\": {\"[0-9\": \"id\"}}", "not a regular expression: [0-9");
        assertBad("{\"keep\": \"x\"}", "\"keep\" must be a list of strings");
        assertBad("[1]", "a rules file is one JSON object");
        assertBad("{", "not JSON");
    }

    private void assertBad(String json, String message) throws Exception {
        Path file = tmp.resolve("bad.json");
        Files.writeString(file, json);
        ShareException e = assertThrows(ShareException.class, () -> RedactionRules.read(file));
        assertTrue(e.getMessage().startsWith(file.toString() + ": "), e.getMessage());
        assertTrue(e.getMessage().contains(message), e.getMessage());
    }

    @Test
    void aMissingKeyFileIsMadeReadableByItsOwnerOnlyAndThenUsed() throws Exception {
        Path file = tmp.resolve("home/.stretto/redact.key");
        PseudonymKey made = PseudonymKey.loadOrCreate(file);
        assertTrue(made.created());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(file.getParent())));
        assertTrue(Files.readString(file).matches("[0-9a-f]{64}\n"));
        PseudonymKey again = PseudonymKey.loadOrCreate(file);
        assertFalse(again.created());
        assertEquals(made, again);
        assertEquals(PseudonymKey.of(Files.readString(file).strip().getBytes(StandardCharsets.UTF_8)), again);
        assertFalse(made.toString().contains(Files.readString(file).strip()));
    }

    @Test
    void aKeyFileOthersMayReadOrTooShortIsRefused() throws Exception {
        Path open = tmp.resolve("open.key");
        Files.writeString(open, "0123456789abcdef0123456789abcdef");
        Files.setPosixFilePermissions(open, PosixFilePermissions.fromString("rw-r--r--"));
        ShareException e = assertThrows(ShareException.class, () -> PseudonymKey.loadOrCreate(open));
        assertEquals(open + ": the pseudonym key may be read by others (mode rw-r--r--); make it the owner's only"
                + " (chmod 600 " + open + ")", e.getMessage());
        Path shortKey = tmp.resolve("short.key");
        Files.writeString(shortKey, "abc\n");
        Files.setPosixFilePermissions(shortKey, PosixFilePermissions.fromString("rw-------"));
        e = assertThrows(ShareException.class, () -> PseudonymKey.loadOrCreate(shortKey));
        assertTrue(e.getMessage().contains("is 3 characters long; it needs at least 16"), e.getMessage());
    }

    @Test
    void copiesAreNewFilesOfTheOwnerAndWhatIsNotALogIsSaidAndSkipped() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in/shop"));
        Logs logs = new Logs("20260101T000000.000Z-1").said("user", "ada@example.org");
        Files.writeString(in.resolve(logs.name()), logs.text());
        Files.writeString(in.resolve("notes.txt"), "ada@example.org");
        Files.writeString(in.resolve("shop.flow.json"), "{}");
        Path cache = Files.createDirectories(tmp.resolve("in/cache/69"));
        Files.writeString(cache.resolve("69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5.json"), "{}");
        Path out = tmp.resolve("out");
        ShareReport dry = ShareCopy.run(RedactorTest.redactor(), List.of(tmp.resolve("in")), out, true);
        assertFalse(Files.exists(out), "a dry run writes nothing");
        assertEquals(4, dry.outcomes().size());
        ShareReport r = ShareCopy.run(RedactorTest.redactor(), List.of(tmp.resolve("in")), out, false);
        assertFalse(r.failed(), r.toString());
        Path copy = out.resolve("shop").resolve(logs.name());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy)));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(copy.getParent())));
        List<String> reasons = r.outcomes().stream().filter(o -> o instanceof FileOutcome.Skipped)
                .map(o -> ((FileOutcome.Skipped) o).reason()).toList();
        assertEquals(List.of("an oracle cache answer: it holds no personal values, and its name is the hash of a request"
                        + " made from the original sessions, which the copies do not make (not copied)",
                "not a session log, flow log or confirm log (not copied)",
                "a flow file: learn it again from the redacted copies (not copied)"), reasons);
        // Again: every copy exists, so none is replaced, and that is a failure.
        ShareReport again = ShareCopy.run(RedactorTest.redactor(), List.of(in.resolve(logs.name())), out.resolve("shop"), false);
        assertTrue(again.failed());
        assertEquals(copy + " exists already (not replaced)", ((FileOutcome.Skipped) again.outcomes().getFirst()).reason());
        ShareReport missing = ShareCopy.run(RedactorTest.redactor(), List.of(tmp.resolve("nope.jsonl")), out, false);
        assertTrue(missing.failed());
        assertEquals("no such file or directory", ((FileOutcome.Skipped) missing.outcomes().getFirst()).reason());
    }

    @Test
    void aSessionLogNamedAloneBringsItsFlowAndConfirmLogs() throws Exception {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Logs logs = new Logs("20260101T000000.000Z-1").call("find", "{\"email\":\"ada@example.org\"}", "user_7");
        Files.writeString(in.resolve(logs.name()), logs.text());
        Files.writeString(in.resolve("20260101T000000.000Z-1.flow.jsonl"),
                "{\"action\":\"lookup\",\"arguments\":{\"email\":\"ada@example.org\"},\"tool\":\"find\"}\n");
        Files.writeString(in.resolve("20260101T000000.000Z-1.confirm.jsonl"),
                "{\"arguments\":{\"email\":\"ada@example.org\"},\"tool\":\"find\"}\n{\"arguments\":{\"ema");
        ShareReport r = ShareCopy.run(RedactorTest.redactor(), List.of(in.resolve(logs.name())), tmp.resolve("out"), false);
        assertEquals(3, r.outcomes().size(), r.toString());
        String flow = Files.readString(tmp.resolve("out/20260101T000000.000Z-1.flow.jsonl"));
        String confirm = Files.readString(tmp.resolve("out/20260101T000000.000Z-1.confirm.jsonl"));
        String email = flow.replaceAll("(?s).*\"email\":\"([^\"]+)\".*", "$1");
        assertTrue(email.matches("user-[0-9a-f]{4}@example\\.invalid"), flow);
        assertEquals("{\"arguments\":{\"email\":\"" + email + "\"},\"tool\":\"find\"}\n", confirm);
        assertEquals(2, ((FileOutcome.Redacted) r.outcomes().get(2)).tornLine());
    }
}
