package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.testing.Fixtures;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto learn} run in-process, as the command line runs it. */
class LearnCommandTest {

    private static final Pattern COMPILED = Pattern.compile("\"compiled_unix_ms\":(\\d+)");

    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        try (PrintStream o = new PrintStream(out, true, StandardCharsets.UTF_8);
             PrintStream e = new PrintStream(err, true, StandardCharsets.UTF_8)) {
            int status = Stretto.run(args, o, e);
            return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
        }
    }

    private static String withoutClock(String flow) {
        return COMPILED.matcher(flow).replaceFirst("\"compiled_unix_ms\":0");
    }

    /** Equal texts, or a failure that shows where they part (flows are one long line). */
    static void assertSameText(String expected, String actual) {
        if (expected.equals(actual)) {
            return;
        }
        int i = 0;
        while (i < Math.min(expected.length(), actual.length()) && expected.charAt(i) == actual.charAt(i)) {
            i++;
        }
        int from = Math.max(0, i - 80);
        assertEquals(expected.substring(from, Math.min(expected.length(), i + 80)),
                actual.substring(from, Math.min(actual.length(), i + 80)), "the texts part at character " + i);
    }

    @Test
    void theSixShopSessionsGiveTheReferencesFlowByteForByte(@TempDir Path tmp) throws IOException {
        Path out = tmp.resolve("shop.flow.json");
        long before = System.currentTimeMillis();
        Run r = run("learn", "--sessions", Fixtures.file("home/logs/shop").toString(), "--domain", "shop",
                "--out", out.toString(), "--habit-only");
        long after = System.currentTimeMillis();
        assertEquals(0, r.status(), r.err());
        String expected = Files.readString(Fixtures.file("home/shop.flow.json"), StandardCharsets.UTF_8);
        String written = Files.readString(out, StandardCharsets.UTF_8);
        assertSameText(withoutClock(expected), withoutClock(written));
        Matcher m = COMPILED.matcher(written);
        assertTrue(m.find());
        long compiled = Long.parseLong(m.group(1));
        assertTrue(compiled >= before && compiled <= after, "compiled_unix_ms is the time of writing: " + compiled);
        assertTrue(r.err().endsWith("stretto: learned the shop flow from 6 sessions (4 tools) and wrote " + out + "\n"),
                r.err());
        assertEquals("", r.out());
    }
}
