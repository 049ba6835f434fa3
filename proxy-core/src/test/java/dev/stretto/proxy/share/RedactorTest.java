package dev.stretto.proxy.share;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The redactor over the six sessions of invented customers: nothing left, shapes kept, one pseudonym a value. */
class RedactorTest {

    static final PseudonymKey KEY = PseudonymKey.of("test-key-0123456789abcdef".getBytes(StandardCharsets.UTF_8));

    @TempDir
    Path tmp;

    static Redactor redactor() {
        return Redactor.of(KEY, RedactionRules.none(), RedactionOptions.defaults());
    }

    static List<ShareFile> sessions() throws IOException {
        List<ShareFile> files = new ArrayList<>();
        for (Path p : PersonalLogs.logs()) {
            files.add(new ShareFile.Session(p.getFileName().toString(), SessionLog.read(p)));
        }
        return files;
    }

    static String text(ShareFile f) {
        return switch (f) {
            case ShareFile.Session s -> s.log().toJsonLines();
            case ShareFile.FlowLog l -> String.join("\n", l.lines()) + "\n";
            case ShareFile.ConfirmLog l -> String.join("\n", l.lines()) + "\n";
        };
    }

    @Test
    void noPersonalValueOfTheSessionsIsLeftInAnyByteOfTheCopies() throws IOException {
        ShareReport report = ShareCopy.run(redactor(), List.of(PersonalLogs.dir()), tmp.resolve("out"), false);
        assertFalse(report.failed(), report.toString());
        int checked = 0;
        for (Path original : PersonalLogs.logs()) {
            Path copy = tmp.resolve("out").resolve(original.getFileName());
            String bytes = Files.readString(copy, StandardCharsets.UTF_8).toLowerCase(Locale.ROOT);
            Set<String> values = PersonalLogs.values(original);
            assertTrue(values.size() >= 18, values.toString());
            for (String v : values) {
                assertFalse(bytes.contains(v.toLowerCase(Locale.ROOT)), v + " is still in " + copy);
                checked++;
            }
            // Still a log every reader takes, entry for entry.
            SessionLog before = SessionLog.read(original);
            SessionLog after = SessionLog.read(copy);
            assertEquals(before.entries().size(), after.entries().size());
            for (int i = 0; i < before.entries().size(); i++) {
                assertEquals(before.entries().get(i).from(), after.entries().get(i).from());
                assertEquals(before.entries().get(i).tMs(), after.entries().get(i).tMs());
                assertEquals(before.entries().get(i).payload().getClass(), after.entries().get(i).payload().getClass());
            }
        }
        assertTrue(checked > 100);
    }

    @Test
    void pseudonymsKeepTheShapeOfTheirValues() throws IOException {
        RedactionResult r = redactor().redactFiles(sessions());
        Map<String, String> to = r.replacements();
        int shapes = 0;
        for (Path log : PersonalLogs.logs()) {
            String original = Files.readString(log, StandardCharsets.UTF_8);
            for (String v : PersonalLogs.values(log)) {
                if (!original.contains(v)) {
                    continue; // a card's or an IBAN's digits without their spaces: only checked to be gone
                }
                String p = pseudonymOf(v, to);
                if (v.contains("@")) {
                    assertTrue(p.matches("user-[0-9a-f]{4,6}@example\\.invalid"), p);
                } else if (v.startsWith("+1 (")) {
                    assertEquals(v.replaceAll("[0-9]", "9"), p.replaceAll("[0-9]", "9"), v + " -> " + p);
                    assertEquals('1', p.charAt(1));
                } else if (v.matches("4[0-9]{15}") || v.matches("4[0-9]{3}( [0-9]{4}){3}")) {
                    String digits = p.replace(" ", "");
                    assertEquals(v.length(), p.length());
                    assertEquals(v.indexOf(' '), p.indexOf(' '));
                    assertTrue(Values.luhn(digits), p);
                    assertEquals('4', digits.charAt(0));
                } else if (v.startsWith("DE")) {
                    assertEquals(v.length(), p.length());
                    assertTrue(Values.iban(p.replace(" ", "")), p);
                    assertTrue(p.startsWith("DE"), p);
                } else if (v.matches("\\d{4}-\\d\\d-\\d\\d")) {
                    LocalDate.parse(p);
                } else if (v.matches("\\d{5}")) {
                    assertTrue(p.matches("\\d{5}"), p);
                } else if (v.startsWith("credit_card_")) {
                    assertTrue(p.matches("credit_card_\\d{7}"), p);
                } else if (v.matches("[a-z]+_[a-z]+_\\d{4}")) {
                    assertEquals(v.replaceAll("[a-z]", "a").replaceAll("[0-9]", "9"),
                            p.replaceAll("[a-z]", "a").replaceAll("[0-9]", "9"), v + " -> " + p);
                } else if (v.matches("[A-Z][a-z]+")) {
                    assertTrue(p.matches("[A-Z][a-z]{" + (v.length() - 1) + "}"), v + " -> " + p);
                } else if (v.matches("\\d+ [A-Z][a-z]+ (Street|Avenue|Road|Lane|Drive|Court)")) {
                    assertTrue(p.matches("\\d+ [A-Z][a-z]+ " + v.substring(v.lastIndexOf(' ') + 1)), v + " -> " + p);
                    assertEquals(v.length(), p.length());
                }
                assertNotEquals(v, p);
                shapes++;
            }
        }
        assertTrue(shapes >= 90, "checked " + shapes);
        assertEquals(0, r.secondChoices(), "every value got its first pseudonym");
    }

    private static String pseudonymOf(String v, Map<String, String> to) {
        String p = to.get(v);
        if (p == null) {
            p = to.get(v.toUpperCase(Locale.ROOT));
        }
        if (p == null) {
            // A value found only inside a longer text (a card said in the conversation).
            for (Map.Entry<String, String> e : to.entrySet()) {
                if (e.getKey().contains(v) && e.getKey().length() < v.length() + 40) {
                    return e.getValue().substring(e.getKey().indexOf(v), e.getKey().indexOf(v) + v.length());
                }
            }
        }
        if (p == null) {
            throw new AssertionError(v + " was not replaced");
        }
        return p;
    }

    @Test
    void oneValueIsOnePseudonymInTheConversationTheArgumentsTheResultsAndTheIds() throws IOException {
        RedactionResult r = redactor().redactFiles(sessions());
        for (RedactedFile f : r.files()) {
            SessionLog log = ((ShareFile.Session) f.redacted()).log();
            String said = "";
            JsonNode find = null;
            JsonNode user = null;
            JsonNode modify = null;
            for (LogEntry e : log.entries()) {
                JsonNode m = ((Payload.Message) e.payload()).tree().orElseThrow();
                String tool = m.path("params").path("name").asText();
                if (e.from() == dev.stretto.trace.log.Source.CONTEXT) {
                    said += m.path("content").asText() + "\n";
                } else if (tool.equals("find_user_id_by_name_zip")) {
                    find = m.path("params").path("arguments");
                } else if (tool.equals("modify_pending_order_address")) {
                    modify = m.path("params").path("arguments");
                }
                String text = m.path("result").path("content").path(0).path("text").asText();
                if (text.contains("\"dob\"")) {
                    user = CanonicalJson.parse(text);
                }
            }
            String first = find.path("first_name").textValue();
            String last = find.path("last_name").textValue();
            String zip = find.path("zip").textValue();
            assertTrue(said.contains("Hi, I'm " + first + " " + last + ", zip code " + zip + "."), said);
            assertEquals(first, user.path("name").path("first_name").textValue());
            assertEquals(last, user.path("name").path("last_name").textValue());
            assertEquals(zip, user.path("address").path("zip").textValue());
            // The id holds the name's words as the names do.
            assertTrue(user.path("user_id").textValue().startsWith(
                    first.toLowerCase(Locale.ROOT) + "_" + last.toLowerCase(Locale.ROOT) + "_"), user.toString());
            // The new address said in the conversation is the one passed, and the old one the result showed.
            assertTrue(said.contains("Please send it to " + modify.path("address1").textValue() + ", "
                    + modify.path("address2").textValue() + ", "), said);
            assertTrue(said.contains(user.path("address").path("address1").textValue() + ", "
                    + user.path("address").path("address2").textValue()), said);
            // The email written in capitals is the same pseudonym, and the payment method's key is its id's.
            assertTrue(said.contains(user.path("email").textValue()), said);
            String method = user.path("payment_methods").fieldNames().next();
            assertEquals(method, user.path("payment_methods").path(method).path("id").textValue());
        }
    }

    @Test
    void theSameKeyGivesTheSameCopiesAndAnotherKeyOthers() throws IOException {
        List<ShareFile> files = sessions();
        RedactionResult a = redactor().redactFiles(files);
        RedactionResult b = redactor().redactFiles(files);
        RedactionResult other = Redactor.of(PseudonymKey.of("another-key-0123456789".getBytes(StandardCharsets.UTF_8)),
                RedactionRules.none(), RedactionOptions.defaults()).redactFiles(files);
        for (int i = 0; i < files.size(); i++) {
            assertEquals(text(a.files().get(i).redacted()), text(b.files().get(i).redacted()));
            assertNotEquals(text(a.files().get(i).redacted()), text(other.files().get(i).redacted()));
            // A run over this one file alone gives its values the pseudonyms the run over all gave.
            RedactionResult alone = redactor().redactFiles(List.of(files.get(i)));
            assertEquals(text(a.files().get(i).redacted()), text(alone.files().getFirst().redacted()));
        }
    }

    @Test
    void whatIsNotPersonalKeepsItsBytes() throws IOException {
        RedactionResult r = redactor().redactFiles(sessions());
        for (RedactedFile f : r.files()) {
            SessionLog before = ((ShareFile.Session) f.original()).log();
            SessionLog after = ((ShareFile.Session) f.redacted()).log();
            for (int i = 0; i < before.entries().size(); i++) {
                String b = before.entries().get(i).toJson();
                String a = after.entries().get(i).toJson();
                if (b.contains("\"tools/list\"") || b.contains("\"initialize\"") || b.contains("\"tools\":[")
                        || b.contains("notifications/initialized") || b.contains("serverInfo")) {
                    assertEquals(b, a);
                }
                // The order ids and the product's name and numbers are nobody's.
                if (b.contains("get_order_details")) {
                    assertEquals(b, a);
                }
            }
        }
    }
}
