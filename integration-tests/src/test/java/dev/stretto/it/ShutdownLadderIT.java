package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server that ignores its closed stdin (and SIGTERM) is ended by the ladder, descendants too. */
class ShutdownLadderIT {

    @TempDir
    Path tmp;

    /** Waits until the stubborn server and its child run; returns their pids. */
    private static List<Long> startStubbornServer(Proc p, Path pids) throws Exception {
        assertEquals("ready", p.nextLine());
        List<Long> started = List.of(Files.readString(pids).trim().split(" ")).stream().map(Long::parseLong).toList();
        assertTrue(started.stream().allMatch(ShutdownLadderIT::running), "both processes run: " + started);
        return started;
    }

    /**
     * The proxy in front of a server that ignores both its closed stdin and SIGTERM: sh
     * ignores TERM and waits on a sleep that inherits the ignored TERM, so only SIGKILL ends
     * them. The server writes their pids to {@code pids}.
     */
    private static Proc proxyInFrontOfStubbornServer(Path pids) throws Exception {
        String script = "trap '' TERM; sleep 1000 & echo $$ $! > " + pids + ".tmp; mv " + pids + ".tmp " + pids
                + "; echo ready; wait; wait";
        return Proc.start(List.of(Repo.bin("stretto-proxy"), "--", "sh", "-c", script));
    }

    private static void assertNoneRunning(List<Long> pids) {
        for (long pid : pids) {
            assertFalse(running(pid), "process " + pid + " outlived the proxy");
        }
    }

    @Test
    void serverIgnoringEofAndSigtermIsKilledWithItsChildren() throws Exception {
        Path pids = tmp.resolve("pids");
        try (Proc p = proxyInFrontOfStubbornServer(pids)) {
            List<Long> started = startStubbornServer(p, pids);
            p.closeStdin();
            assertEquals(128 + 9, p.waitFor(), "the shell died of SIGKILL; stderr:\n" + p.stderr());
            assertTrue(p.stderr().endsWith("stretto-proxy: the proxy ended the server with SIGKILL; exit status 137\n"),
                    "stderr says who killed it:\n" + p.stderr());
            assertNoneRunning(started);
        }
    }

    @Test
    void proxyStoppedByTheHostEndsTheServerTreeToo() throws Exception {
        Path pids = tmp.resolve("pids-term");
        try (Proc p = proxyInFrontOfStubbornServer(pids)) {
            List<Long> started = startStubbornServer(p, pids);
            // What an MCP host does a moment after closing stdin; here stdin stays open.
            p.process().destroy();
            assertEquals(143, p.waitFor(), "the proxy ends on SIGTERM; stderr:\n" + p.stderr());
            assertFalse(p.stderr().contains("the proxy ended the server"), "143 is the proxy's own: " + p.stderr());
            assertNoneRunning(started);
        }
    }

    /**
     * A server that floods the stderr it shares with the proxy, in front of a host that never
     * reads the proxy's stderr: the pipe is full, and the proxy's warning before SIGTERM must
     * not wait for it. The host closes stdin; the server gets SIGTERM after the grace, and the
     * proxy exits with its status, its log complete.
     */
    @Test
    void aServerFloodingAStderrNobodyReadsIsStillSentSigterm() throws Exception {
        Path logs = tmp.resolve("logs");
        Process p = new ProcessBuilder(Repo.bin("stretto-proxy"), "--record", logs.toString(), "--", "sh", "-c",
                "echo ready; while :; do echo xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx >&2; done")
                .redirectOutput(ProcessBuilder.Redirect.PIPE)
                .start();
        try {
            // stderr stays a pipe nobody reads: full within a moment of the server's start.
            BufferedReader stdout = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
            assertEquals("ready", stdout.readLine());
            p.getOutputStream().close();
            assertTrue(p.waitFor(30, TimeUnit.SECONDS),
                    "the proxy did not end the server within 30 s of the host closing stdin");
            assertEquals(143, p.exitValue(), "the server died of SIGTERM");
            assertEquals(null, stdout.readLine(), "the host's stdout ended");
            List<Path> written;
            try (Stream<Path> s = Files.list(logs)) {
                written = s.toList();
            }
            assertEquals(1, written.size(), written.toString());
            List<String> lines = Files.readAllLines(written.getFirst());
            assertTrue(lines.getFirst().startsWith("{\"stretto_mcp_log\":"), lines.getFirst());
            assertTrue(lines.getLast().contains("\"ready\""), "the server's line is logged: " + lines);
        } finally {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
        }
    }

    /** Alive and not a zombie (an orphan's zombie may wait for a reaper that never comes here). */
    static boolean running(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            char state = stat.charAt(stat.lastIndexOf(')') + 2);
            return state != 'Z' && state != 'X';
        } catch (java.io.IOException e) {
            return false;
        }
    }
}
