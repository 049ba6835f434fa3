package dev.stretto.proxy.policy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.FileSystems;
import java.nio.file.Path;
import java.nio.file.PathMatcher;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.params.provider.ValueSource;

/** The policy's globs: matched as the JDK's glob matcher matches single names, bad ones refused. */
class GlobTest {

    @ParameterizedTest
    @CsvSource({
            "*, read_file, true", "read_*, read_file, true", "read_*, write_file, false", "*_file, move_file, true",
            "?ead_file, read_file, true", "[rw]*, write_file, true", "[!rw]*, write_file, false", "a\\*b, a*b, true",
            "a\\*b, axb, false", "*.md, /srv/docs/a.md, true", "/srv/*, /srv/a/b/c, true", "get-*, get-sum, true",
            "[a-c]x, bx, true", "[a-c]x, dx, false", "*a*b*c*, xxaxxbxxcxx, true", "*a*b*c*, xxaxxcxxbxx, false"})
    void matches(String glob, String value, boolean expected) {
        assertEquals(expected, Glob.compile(glob).matches(value));
    }

    @Test
    void agreesWithTheJdksGlobOnGeneratedNames() {
        Random random = new Random(7);
        for (int i = 0; i < 3000; i++) {
            StringBuilder g = new StringBuilder();
            for (int k = 0, n = 1 + random.nextInt(5); k < n; k++) {
                g.append(switch (random.nextInt(6)) {
                    case 0 -> "*";
                    case 1 -> "?";
                    case 2 -> "[ab]";
                    case 3 -> "[!a]";
                    default -> String.valueOf("abc".charAt(random.nextInt(3)));
                });
            }
            PathMatcher jdk = FileSystems.getDefault().getPathMatcher("glob:" + g);
            Glob ours = Glob.compile(g.toString());
            for (int j = 0; j < 5; j++) {
                StringBuilder v = new StringBuilder();
                for (int k = 0, n = random.nextInt(7); k < n; k++) {
                    v.append("abc".charAt(random.nextInt(3)));
                }
                if (v.isEmpty()) {
                    continue;
                }
                assertEquals(jdk.matches(Path.of(v.toString())), ours.matches(v.toString()), g + " on " + v);
            }
        }
    }

    @Test
    void manyStarsOnALongValueStayFast() {
        Glob g = Glob.compile("*a*a*a*a*a*a*a*a*a*a*b");
        String value = "a".repeat(20_000);
        assertTimeoutPreemptively(Duration.ofSeconds(10), () -> assertEquals(false, g.matches(value)));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "abc\\", "[abc", "a]", "[]", "[!]", "[z-a]", "[a[b]"})
    void badGlobsAreRefused(String glob) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> Glob.compile(glob));
        assertTrue(e.getMessage().contains("glob"), e.getMessage());
    }
}
