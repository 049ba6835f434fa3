package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.cli.tools.Stretto;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto console}'s command line where it does not start: help, bad options, missing
 * directories. (That it serves is shown by the browser tests, which run the command.)
 */
class ConsoleCommandTest {

    @TempDir
    Path tmp;

    record Run(int status, String out, String err) {
    }

    static Run run(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = Stretto.run(args, InputStream.nullInputStream(), new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8), false, false, Map.of("PATH", ""));
        return new Run(status, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void help() {
        Run r = run("console", "--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: stretto console [--port N] [--no-open] [DIR...]\n"), r.out());
        assertTrue(r.out().contains("127.0.0.1"));
        Run top = run("--help");
        assertTrue(top.out().contains("  console [DIR...]"), "the command list names it");
        assertTrue(run("show", "--help").out().contains("--html"));
    }

    @Test
    void badOptionsAreUsageErrors() {
        for (String[] args : new String[][] {{"console", "--port"}, {"console", "--port", "http"},
                {"console", "--port", "70000"}, {"console", "--port=-1"}, {"console", "--open-all"},
                {"console", "--no-open=yes"}}) {
            Run r = run(args);
            assertEquals(2, r.status(), String.join(" ", args));
            assertTrue(r.err().startsWith("stretto: console: ") && r.err().endsWith("(see 'stretto console --help')\n"),
                    r.err());
        }
        assertEquals("stretto: console: --port takes a port number from 0 to 65535, not 'http' (see 'stretto console"
                + " --help')\n", run("console", "--port", "http").err());
    }

    @Test
    void aMissingDirectoryIsNamed() throws Exception {
        Path none = tmp.resolve("none");
        Run r = run("console", "--no-open", none.toString());
        assertEquals(1, r.status());
        assertEquals("stretto: " + none + ": no such file or directory\n", r.err());
        Path file = Files.writeString(tmp.resolve("file"), "x");
        Run f = run("console", "--no-open", tmp.toString(), file.toString());
        assertEquals(1, f.status());
        assertEquals("stretto: " + file + ": not a directory\n", f.err());
    }
}
