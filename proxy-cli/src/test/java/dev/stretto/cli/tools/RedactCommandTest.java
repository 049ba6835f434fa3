package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.ProxyReplay;
import dev.stretto.proxy.share.PseudonymKey;
import dev.stretto.proxy.share.RedactionOptions;
import dev.stretto.proxy.share.RedactionResult;
import dev.stretto.proxy.share.RedactionRules;
import dev.stretto.proxy.share.Redactor;
import dev.stretto.proxy.share.ShareFile;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.testing.Fixtures;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto redact} as a user runs it, and what the other commands make of its copies:
 * {@code learn --habit-only} learns the flow it learns from the originals, {@code promote}
 * promotes the same sites, {@code episode} and {@code show} read the same sessions but for the
 * pseudonyms (compared after mapping them back with the same key).
 */
class RedactCommandTest {

    private static final Path SHOP_FLOW = Fixtures.file("home/shop.flow.json");
    private static final Pattern COMPILED = Pattern.compile("\"compiled_unix_ms\":\\d+");

    @TempDir
    Path tmp;

    private StrettoTest.Run stretto(String... args) {
        return StrettoTest.run(Map.of("HOME", tmp.toString()), args);
    }

    private static Path personal() {
        return Fixtures.root().getParent().resolve("personal");
    }

    private Path copyOf(Path dir, String name) throws IOException {
        Path to = Files.createDirectories(tmp.resolve(name));
        try (Stream<Path> files = Files.list(dir)) {
            for (Path f : files.filter(f -> f.toString().endsWith(".jsonl")).toList()) {
                Files.copy(f, to.resolve(f.getFileName()));
            }
        }
        return to;
    }

    /** The pseudonyms of the run over {@code dir} with the key of {@code keyFile}, mapped back to what they stand for. */
    private static Map<String, String> back(Path keyFile, Path dir) throws IOException {
        List<ShareFile> files = new ArrayList<>();
        for (Path p : SessionLog.logFiles(dir)) {
            files.add(new ShareFile.Session(p.getFileName().toString(), SessionLog.read(p)));
        }
        RedactionResult r = Redactor.of(PseudonymKey.load(keyFile), RedactionRules.none(), RedactionOptions.defaults())
                .redactFiles(files);
        Map<String, String> back = new HashMap<>();
        r.replacements().forEach((original, pseudonym) -> back.putIfAbsent(pseudonym, original));
        return back;
    }

    /** {@code text} with every pseudonym put back at once (the longest first where two start at one place). */
    static String mappedBack(String text, Map<String, String> back) {
        if (back.isEmpty()) {
            return text;
        }
        // As the redactor finds values: never glued to a letter or digit that goes on past them.
        String alternatives = back.keySet().stream().sorted(Comparator.comparing(String::length).reversed())
                .map(p -> (Character.isLetterOrDigit(p.charAt(0)) ? "(?<![\\p{L}\\p{N}])" : "") + Pattern.quote(p)
                        + (Character.isLetterOrDigit(p.charAt(p.length() - 1)) ? "(?![\\p{L}\\p{N}])" : ""))
                .collect(Collectors.joining("|"));
        Matcher m = Pattern.compile(alternatives).matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            m.appendReplacement(out, Matcher.quoteReplacement(back.get(m.group())));
        }
        return m.appendTail(out).toString();
    }

    private String learn(Path sessions, String domain) throws IOException {
        Path out = tmp.resolve(sessions.getFileName() + ".flow.json");
        StrettoTest.Run r = stretto("learn", "--sessions", sessions.toString(), "--domain", domain, "--out", out.toString(),
                "--habit-only");
        assertEquals(0, r.status(), r.err());
        return COMPILED.matcher(Files.readString(out, StandardCharsets.UTF_8)).replaceFirst("\"compiled_unix_ms\":0");
    }

    @Test
    void theSixShopLogsKeepNoEmailAndLearnTheFlowTheOriginalsLearn() throws IOException {
        Path shop = copyOf(Fixtures.file("home/logs/shop"), "shop");
        Path shared = tmp.resolve("shared");
        StrettoTest.Run r = stretto("redact", shop.toString(), "--out", shared.toString());
        assertEquals(0, r.status(), r.err());
        Path key = tmp.resolve(".stretto/redact.key");
        List<String> err = r.err().lines().toList();
        assertEquals("stretto: made a new pseudonym key in " + key + " (0600); keep it to give the same values the same"
                + " pseudonyms in later runs, and never share it", err.getFirst());
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(key)));
        for (Path log : SessionLog.logFiles(shop)) {
            assertTrue(err.contains("stretto: " + log + ": replaced 11 values (email 3, id 8) -> "
                    + shared.resolve(log.getFileName())), r.err());
        }
        assertTrue(err.contains("stretto: 6 files redacted into " + shared + ", 0 skipped; replaced 66 values (email 18, id 48)"
                + " (18 distinct values)"), r.err());
        for (Path copy : SessionLog.logFiles(shared)) {
            String bytes = Files.readString(copy, StandardCharsets.UTF_8);
            assertFalse(bytes.contains("@example.com"), copy + ": " + bytes);
            Matcher m = Pattern.compile("c(\\d)@example\\.com").matcher(Files.readString(shop.resolve(copy.getFileName())));
            assertTrue(m.find());
            assertFalse(bytes.contains("\"user_id\":\"user_" + m.group(1) + "\""), "the user id was replaced");
        }
        String original = learn(shop, "shop");
        String redacted = learn(shared, "shop");
        LearnCommandTest.assertSameText(original, mappedBack(redacted, back(key, shop)));
        // The run is the same again with the same key: the file exists, so nothing is replaced.
        StrettoTest.Run again = stretto("redact", shop.toString(), "--out", shared.toString());
        assertEquals(1, again.status());
        assertTrue(again.err().contains(" exists already (not replaced)"), again.err());
    }

    @Test
    void sessionsWithNamesAddressesCardsAndPhonesLearnTheSameFlowAndReadTheSame() throws IOException {
        Path people = copyOf(personal(), "people");
        Path shared = tmp.resolve("shared");
        Path key = tmp.resolve("my.key");
        StrettoTest.Run r = stretto("redact", "--key-file", key.toString(), people.toString(), "--out", shared.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains(": replaced 49 values (email 2, card 1, iban 1, phone 2, date 1, zip 9, address 13,"
                + " name 6, path 3, id 11) -> "), r.err());
        Map<String, String> back = back(key, people);
        for (Path log : SessionLog.logFiles(people)) {
            String bytes = Files.readString(shared.resolve(log.getFileName()), StandardCharsets.UTF_8);
            for (String gone : List.of("Rossi", "Okafor", "Lindqvist", "Haddad", "Brennan", "Moreau", "@example.com",
                    "Elm Street", "Oak Avenue", "Maple Road", "Cedar Lane", "Birch Drive", "Willow Court", "/home/yusufr")) {
                assertFalse(bytes.contains(gone), gone + " in " + log.getFileName());
            }
            String original = Files.readString(log, StandardCharsets.UTF_8);
            assertNotEquals(original, bytes);
            assertEquals(original.toLowerCase(Locale.ROOT), mappedBack(bytes, back).toLowerCase(Locale.ROOT));
        }
        LearnCommandTest.assertSameText(learn(people, "retail2"), mappedBack(learn(shared, "retail2"), back));
        StrettoTest.Run before = stretto("episode", people.toString());
        StrettoTest.Run after = stretto("episode", shared.toString());
        assertEquals(0, after.status(), after.err());
        assertEquals(before.out().toLowerCase(Locale.ROOT), mappedBack(after.out(), back).toLowerCase(Locale.ROOT));
        Path one = SessionLog.logFiles(people).getFirst();
        StrettoTest.Run show = stretto("show", shared.resolve(one.getFileName()).toString());
        assertEquals(0, show.status(), show.err());
        // The timeline shortens long lines to the width of a terminal, which may cut a pseudonym in two.
        List<String> shown = stretto("show", one.toString()).out().toLowerCase(Locale.ROOT).lines().toList();
        List<String> shownAfter = mappedBack(show.out(), back).toLowerCase(Locale.ROOT).lines().toList();
        assertEquals(shown.size(), shownAfter.size());
        for (int i = 0; i < shown.size(); i++) {
            if (!shown.get(i).endsWith("\u2026")) {
                assertEquals(shown.get(i), shownAfter.get(i));
            }
        }
        assertEquals(0, stretto("sessions", shared.toString()).status());
        assertEquals(0, stretto("guards", "--domain", "retail", shared.toString()).status());
    }

    /**
     * The promotion test: the session the reference served with the shop flow and its flow log,
     * and four shop sessions recorded in shadow through stretto-proxy in front of the retail
     * demo, with the flow logs the proxy wrote; promoted as they are and as redacted copies.
     */
    @Test
    void promoteGivesTheSamePromotionFromRedactedCopiesOfServedAndShadowSessions() throws Exception {
        Path sessions = Files.createDirectories(tmp.resolve("sessions"));
        String served = "home/served/shop/20260928T020401.117Z-14662";
        Files.copy(Fixtures.file(served + ".jsonl"), sessions.resolve("20260928T020401.117Z-14662.jsonl"));
        Files.copy(Fixtures.file(served + ".flow.jsonl"), sessions.resolve("20260928T020401.117Z-14662.flow.jsonl"));
        int n = 0;
        for (String id : List.of("14457", "14486", "14540", "14565")) {
            Path log;
            try (Stream<Path> files = Files.list(Fixtures.file("home/logs/shop"))) {
                log = files.filter(f -> f.getFileName().toString().contains(id)).findFirst().orElseThrow();
            }
            Path chat = tmp.resolve("chat-" + (n++) + ".jsonl");
            ProxyReplay.Result p = ProxyReplay.replay(SessionLog.read(log), chat, Map.of("HOME", tmp.toString()),
                    List.of("--record", sessions.toString(), "--domain", "shop", "--context", chat.toString(), "--flow",
                            SHOP_FLOW.toString(), "--flow-shadow"));
            assertEquals(0, p.status(), p.stderr());
        }
        List<Path> recorded = SessionLog.logFiles(sessions);
        assertEquals(5, recorded.size());
        for (Path log : recorded) {
            assertTrue(Files.exists(sessions.resolve(log.getFileName().toString().replace(".jsonl", ".flow.jsonl"))), log.toString());
        }
        Path shared = tmp.resolve("shared");
        StrettoTest.Run r = stretto("redact", sessions.toString(), "--out", shared.toString());
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("stretto: 10 files redacted into " + shared + ", 0 skipped;"), r.err());
        for (Path copy : SessionLog.logFiles(shared)) {
            assertFalse(Files.readString(copy, StandardCharsets.UTF_8).contains("@example.com"), copy.toString());
            String flowLog = copy.getFileName().toString().replace(".jsonl", ".flow.jsonl");
            assertEquals(Files.readAllLines(sessions.resolve(flowLog)).size(), Files.readAllLines(shared.resolve(flowLog)).size());
            assertEquals(0, stretto("flow", shared.resolve(flowLog).toString()).status());
        }
        Map<String, String> outputs = new HashMap<>();
        for (Path dir : List.of(sessions, shared)) {
            Path out = tmp.resolve(dir.getFileName() + ".promoted.flow.json");
            Path report = tmp.resolve(dir.getFileName() + ".md");
            StrettoTest.Run p = stretto("promote", "--flow", SHOP_FLOW.toString(), "--sessions", dir.toString(), "--out",
                    out.toString(), "--report", report.toString());
            assertEquals(0, p.status(), p.err());
            outputs.put(dir.getFileName() + ".flow", Files.readString(out, StandardCharsets.UTF_8));
            outputs.put(dir.getFileName() + ".report", Files.readString(report, StandardCharsets.UTF_8).replace(dir.toString(), "DIR"));
            outputs.put(dir.getFileName() + ".err", p.err().replace(dir.toString(), "DIR"));
        }
        // Which sites pass the bar depends on how the replays' calls fell into turns; that they are the same does not.
        assertTrue(outputs.get("sessions.flow").contains("\"promoted\":{\"bar\":"), outputs.get("sessions.flow"));
        assertTrue(outputs.get("sessions.flow").contains("\"get_user_details\":{\"decisions\":5,\"lookups\":5,"),
                outputs.get("sessions.flow"));
        assertTrue(outputs.get("sessions.err").contains("sites promoted"), outputs.get("sessions.err"));
        assertEquals(outputs.get("sessions.flow"), outputs.get("shared.flow"));
        assertEquals(outputs.get("sessions.report"), outputs.get("shared.report"));
        assertEquals(outputs.get("sessions.err"), outputs.get("shared.err"));
    }

    @Test
    void aDryRunSaysWhatItWouldDoAndWritesNothingNotEvenTheKey() throws IOException {
        Path shop = copyOf(Fixtures.file("home/logs/shop"), "shop");
        Files.writeString(shop.resolve("README.txt"), "notes");
        StrettoTest.Run r = stretto("redact", "--dry-run", shop.toString(), "--out", tmp.resolve("shared").toString());
        assertEquals(0, r.status(), r.err());
        List<String> err = r.err().lines().toList();
        assertEquals("stretto: no key in " + tmp.resolve(".stretto/redact.key") + " yet (a dry run makes none): counting with"
                + " a key for this run only", err.getFirst());
        assertTrue(err.contains("stretto: skipped " + shop.resolve("README.txt") + ": not a session log, flow log or confirm"
                + " log (not copied)"), r.err());
        assertTrue(err.contains("stretto: " + shop.resolve("20260928T020400.548Z-14457.jsonl") + ": would replace 11 values"
                + " (email 3, id 8)"), r.err());
        assertTrue(err.contains("stretto: 6 files to redact into " + tmp.resolve("shared") + ", 1 skipped; would replace 66"
                + " values (email 18, id 48) (18 distinct values); nothing written"), r.err());
        assertFalse(Files.exists(tmp.resolve("shared")));
        assertFalse(Files.exists(tmp.resolve(".stretto")));
    }

    @Test
    void aLogThatCannotBeReadIsNamedTheOthersAreCopiedAndTheStatusIsOne() throws IOException {
        Path in = Files.createDirectories(tmp.resolve("in"));
        Files.copy(Fixtures.file("home/logs/shop/20260928T020400.548Z-14457.jsonl"), in.resolve("a.jsonl"));
        Files.writeString(in.resolve("b.jsonl"), "{\"not\":\"a log\"}\n");
        StrettoTest.Run r = stretto("redact", in.toString(), "--out", tmp.resolve("out").toString());
        assertEquals(1, r.status());
        assertTrue(r.err().contains("stretto: skipped " + in.resolve("b.jsonl") + ": " + in.resolve("b.jsonl")
                + ":1: not a session log: the first line has no \"stretto_mcp_log\" header"), r.err());
        assertTrue(Files.exists(tmp.resolve("out/a.jsonl")));
        assertFalse(Files.exists(tmp.resolve("out/b.jsonl")));
    }

    @Test
    void usageErrorsAndABadKeyOrRulesFileSayWhatIsWrong() throws IOException {
        assertUsage("no IN given (session logs or directories)", "redact", "--out", "x");
        assertUsage("--out is required", "redact", "a.jsonl");
        assertUsage("unknown option '--keep-all'", "redact", "a.jsonl", "--out", "x", "--keep-all");
        assertUsage("--keep needs a value", "redact", "a.jsonl", "--out", "x", "--keep");
        Path file = Files.writeString(tmp.resolve("f"), "");
        assertUsage("--out " + file + " is a file, not a directory", "redact", "a.jsonl", "--out", file.toString());
        Path rules = Files.writeString(tmp.resolve("rules.json"), "{\"keys\":{\"x\":\"person\"}}");
        StrettoTest.Run bad = stretto("redact", "--rules", rules.toString(), "a.jsonl", "--out", "x");
        assertEquals(1, bad.status());
        assertTrue(bad.err().startsWith("stretto: " + rules + ": \"keys\" of \"x\": no kind of value is called \"person\""),
                bad.err());
        Path key = Files.writeString(tmp.resolve("k"), "short");
        Files.setPosixFilePermissions(key, PosixFilePermissions.fromString("rw-------"));
        StrettoTest.Run shortKey = stretto("redact", "--key-file", key.toString(), "a.jsonl", "--out", "x");
        assertEquals(1, shortKey.status());
        assertTrue(shortKey.err().contains("it needs at least 16"), shortKey.err());
        StrettoTest.Run help = stretto("redact", "--help");
        assertEquals(0, help.status());
        for (String option : List.of("--out DIR", "--key-file FILE", "--rules FILE", "--keep FIELD", "--keep-host-session",
                "--keep-server-paths", "--shift-start-time", "--dry-run")) {
            assertTrue(help.out().contains(option), option);
        }
        assertTrue(stretto("--help").out().contains("  redact IN... --out DIR\n"));
    }

    private void assertUsage(String message, String... args) {
        StrettoTest.Run r = stretto(args);
        assertEquals(2, r.status(), r.err());
        assertEquals("stretto: redact: " + message + " (see 'stretto redact --help')\n", r.err());
    }
}
