package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proxy's exit status in each way a session can end (architecture.md invariant 8). */
class ExitStatusIT {

    @TempDir
    Path tmp;

    private static boolean hasLog(Path dir) throws Exception {
        if (!Files.isDirectory(dir)) {
            return false;
        }
        try (Stream<Path> s = Files.list(dir)) {
            return s.anyMatch(p -> p.toString().endsWith(".jsonl"));
        }
    }

    @Test
    void serverExitStatusIsTheProxys() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--", "sh", "-c", "exit 7")) {
            p.closeStdin();
            assertEquals(7, p.waitFor(), p.stderr());
        }
    }

    @Test
    void serverKilledBySignalGives128PlusTheSignal() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--", "sh", "-c", "kill -KILL $$")) {
            assertEquals(137, p.waitFor(), p.stderr());
            assertFalse(p.stderr().contains("the proxy ended the server"), "not the proxy's signal: " + p.stderr());
        }
    }

    @Test
    void aServerTheProxyEndsAfterTheGraceExitsWithTheSignalsStatusAndStderrSaysWhoSentIt() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--shutdown-grace", "0.2", "--", "sleep", "30")) {
            p.closeStdin();
            assertEquals(143, p.waitFor(), p.stderr());
            assertTrue(p.stderr().endsWith("stretto-proxy: the proxy ended the server with SIGTERM; exit status 143\n"),
                    p.stderr());
        }
    }

    @Test
    void serverNotFoundExits125NamingTheCommandAndLeavesNoLog() throws Exception {
        Path dir = tmp.resolve("logs");
        try (Proc p = Proc.proxy(Map.of(), "--record", dir.toString(), "--", "no-such-mcp-server-xyz", "--flag")) {
            assertEquals(125, p.waitFor());
            assertTrue(p.stderr().contains("no-such-mcp-server-xyz"), p.stderr());
            assertTrue(p.stderr().contains("PATH"), "names the PATH searched: " + p.stderr());
            assertFalse(p.stderr().contains("recording to"), "names a log that never exists: " + p.stderr());
            assertTrue(p.stderr().startsWith("stretto-proxy: "), p.stderr());
            assertEquals("", new String(p.stdoutBytes(), StandardCharsets.UTF_8), "nothing on the protocol channel");
        }
        assertFalse(hasLog(dir), "no log is left behind");
    }

    @Test
    void recordDirectoryThatCannotBeCreatedExits125() throws Exception {
        Path file = Files.writeString(tmp.resolve("a-file"), "x");
        try (Proc p = Proc.proxy(Map.of(), "--record", file.resolve("logs").toString(), "--", "cat")) {
            assertEquals(125, p.waitFor());
            assertTrue(p.stderr().startsWith("stretto-proxy: "), p.stderr());
            assertTrue(p.stderr().contains(file.resolve("logs").toString()), p.stderr());
        }
    }

    /**
     * Issue 7: a full disk at start left an empty log (created, but its header never written)
     * that every reader then rejected. A file size limit of 0 fails the header's write as a
     * full disk does; the pipes to the host are not files, so forwarding still works.
     */
    @Test
    void aLogWhoseHeaderCannotBeWrittenIsNotLeftBehindAndTheSessionGoesOnUnrecorded() throws Exception {
        Path dir = tmp.resolve("logs");
        String ping = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}";
        try (Proc p = Proc.start(List.of("sh", "-c", "ulimit -f 0; exec \"$0\" --record \"$1\" -- cat",
                Repo.bin("stretto-proxy"), dir.toString()), tmp, Map.of("STRETTO_AOT", "0"))) {
            p.send(ping);
            assertEquals(ping, p.nextLine());
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertEquals("stretto-proxy: cannot write the session log in " + dir + " (File too large); this session"
                    + " is not recorded, forwarding goes on\n", p.stderr());
        }
        try (Stream<Path> left = Files.list(dir)) {
            assertEquals(List.of(), left.toList(), "no log without its header");
        }
    }

    @Test
    void unknownOptionIsAUsageError() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--recrod", "/tmp/x", "--", "cat")) {
            assertEquals(2, p.waitFor());
            String first = p.stderr().lines().findFirst().orElse("");
            assertTrue(first.startsWith("stretto-proxy: ") && first.contains("--recrod"), p.stderr());
        }
    }

    @Test
    void missingServerCommandIsAUsageError() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--record", tmp.toString())) {
            assertEquals(2, p.waitFor());
            assertTrue(p.stderr().startsWith("stretto-proxy: "), p.stderr());
        }
        assertFalse(hasLog(tmp));
    }

    @Test
    void serverThatExitsFirstEndsTheProxyPromptlyWhileStdinStaysOpen() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--", "sh", "-c", "echo bye; exit 3")) {
            // stdin is deliberately left open: the host has not gone away.
            assertEquals("bye", p.nextLine());
            assertEquals(3, p.waitFor(), p.stderr());
        }
    }

    @Test
    void outputTheServerWritesAfterTheHostsEofStillReachesTheHost() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--", "sh", "-c", "cat >/dev/null; echo after-eof; echo done")) {
            p.send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertEquals("after-eof\ndone\n", new String(p.stdoutBytes(), StandardCharsets.UTF_8));
        }
    }

    @Test
    void helpAndVersionExitZeroOnStdout() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--help")) {
            assertEquals(0, p.waitFor());
            assertTrue(new String(p.stdoutBytes(), StandardCharsets.UTF_8).contains("--record"));
        }
        try (Proc p = Proc.proxy(Map.of(), "--version")) {
            assertEquals(0, p.waitFor());
            assertTrue(new String(p.stdoutBytes(), StandardCharsets.UTF_8).startsWith("stretto-proxy 0.1.0"));
        }
    }

    @Test
    void aLongerShutdownGraceLetsACallInFlightAtTheHostsEofFinish() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--shutdown-grace", "30", "--", Repo.bin("stretto-mcp-demo"))) {
            // The host sends a slow call and closes its end at once; the demo finishes calls in
            // flight before it exits, which takes longer than the default grace of 2 s.
            p.send("{\"jsonrpc\":\"2.0\",\"id\":9,\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\","
                    + "\"arguments\":{\"text\":\"slow\",\"delay_ms\":3000}}}");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertEquals("{\"id\":9,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"{\\\"delay_ms\\\":3000,"
                    + "\\\"text\\\":\\\"slow\\\"}\",\"type\":\"text\"}],\"isError\":false}}\n",
                    new String(p.stdoutBytes(), StandardCharsets.UTF_8));
        }
    }
}
