package dev.stretto.cli.console;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code stretto console}'s command line where it does not start: help, bad options, missing
 * directories. (That it serves is shown by the browser tests, which run the command.)
 */
class ConsoleCommandTest {

    @TempDir
    Path tmp;

    @Test
    void help() {
        Command r = Command.run("console", "--help");
        assertEquals(0, r.status());
        assertTrue(r.out().startsWith("Usage: stretto console [--port N] [--no-open] [DIR...]\n"), r.out());
        assertTrue(r.out().contains("127.0.0.1"));
        Command top = Command.run("--help");
        assertTrue(top.out().contains("  console [DIR...]"), "the command list names it");
        assertTrue(Command.run("show", "--help").out().contains("--html"));
    }

    @Test
    void badOptionsAreUsageErrors() {
        for (String[] args : new String[][] {{"console", "--port"}, {"console", "--port", "http"},
                {"console", "--port", "70000"}, {"console", "--port=-1"}, {"console", "--open-all"},
                {"console", "--no-open=yes"}}) {
            Command r = Command.run(args);
            assertEquals(2, r.status(), String.join(" ", args));
            assertTrue(r.err().startsWith("stretto: console: ") && r.err().endsWith("(see 'stretto console --help')\n"),
                    r.err());
        }
        assertEquals("stretto: console: --port takes a port number from 0 to 65535, not 'http' (see 'stretto console"
                + " --help')\n", Command.run("console", "--port", "http").err());
    }

    @Test
    void aMissingDirectoryIsNamed() throws Exception {
        Path none = tmp.resolve("none");
        Command r = Command.run("console", "--no-open", none.toString());
        assertEquals(1, r.status());
        assertEquals("stretto: " + none + ": no such file or directory\n", r.err());
        Path file = Files.writeString(tmp.resolve("file"), "x");
        Command f = Command.run("console", "--no-open", tmp.toString(), file.toString());
        assertEquals(1, f.status());
        assertEquals("stretto: " + file + ": not a directory\n", f.err());
    }
}
