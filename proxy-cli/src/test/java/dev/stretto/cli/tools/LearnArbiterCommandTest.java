package dev.stretto.cli.tools;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.FlowFiles;
import dev.stretto.trace.testing.Fixtures;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto learn}'s arbiter path as a command: the oracle it opens from {@code --oracle},
 * {@code --oracle-cache} and the environment, and what it says when that cannot be done. How
 * the arbiter is learned is proxy-core's {@code LearnArbiterTest}.
 */
class LearnArbiterCommandTest {

    @TempDir
    Path tmp;

    private static String[] learn(Path out, String... more) {
        List<String> all = new ArrayList<>(List.of("learn", "--sessions", Fixtures.file("home/logs/shop").toString(),
                "--domain", "shop", "--out", out.toString()));
        all.addAll(List.of(more));
        return all.toArray(String[]::new);
    }

    @Test
    void theMockOracleAnswersEveryQuestionAndTheFlowGetsAnArbiter() throws Exception {
        Path out = tmp.resolve("shop.flow.json");
        StrettoTest.Run r = StrettoTest.run(Map.of(), learn(out, "--oracle", "mock"));
        assertEquals(0, r.status(), r.err());
        assertTrue(r.err().contains("(mock answers)"), r.err());
        assertTrue(FlowFiles.read(out).hasArbiter());
    }

    @Test
    void withoutAKeyTheDefaultOracleCannotAskAndSaysWhatToDo() {
        Path out = tmp.resolve("f.json");
        Path cacheDir = tmp.resolve("empty-cache");
        StrettoTest.Run noKey = StrettoTest.run(Map.of(), learn(out, "--oracle-cache", cacheDir.toString()));
        assertEquals(1, noKey.status());
        assertTrue(noKey.err().endsWith("stretto: 8 questions about the held-out sessions are not in the cache "
                + cacheDir + ", and asking System-One (--oracle jev, the default) needs a TypeSafe API key: set"
                + " TYPESAFE_API_KEY or TYPESAFE_API_KEY_FILE, or use --oracle replay with a cache of answers,"
                + " --oracle mock to try it out, or --habit-only to learn without a model\n"), noKey.err());
        assertTrue(Files.notExists(out));
    }

    @Test
    void aKeyFileThatCannotBeReadIsNamedByItsVariable() {
        Path out = tmp.resolve("f.json");
        StrettoTest.Run badKeyFile = StrettoTest.run(Map.of("TYPESAFE_API_KEY_FILE",
                tmp.resolve("missing-key").toString()), learn(out, "--oracle-cache", tmp.resolve("cache").toString()));
        assertEquals(1, badKeyFile.status());
        assertTrue(badKeyFile.err().contains("stretto: TYPESAFE_API_KEY_FILE names " + tmp.resolve("missing-key")
                + ", which cannot be read"), badKeyFile.err());
        assertTrue(Files.notExists(out));
    }
}
