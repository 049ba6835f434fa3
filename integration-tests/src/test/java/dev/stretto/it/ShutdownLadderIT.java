package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server that ignores its closed stdin (and SIGTERM) is ended by the ladder, descendants too. */
class ShutdownLadderIT {

    @TempDir
    Path tmp;

    @Test
    void serverIgnoringEofAndSigtermIsKilledWithItsChildren() throws Exception {
        Path pids = tmp.resolve("pids");
        // sh ignores TERM and waits on a sleep that inherits the ignored TERM: only SIGKILL ends them.
        String script = "trap '' TERM; sleep 1000 & echo $$ $! > " + pids + ".tmp; mv " + pids + ".tmp " + pids
                + "; echo ready; wait; wait";
        try (Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--", "sh", "-c", script))) {
            assertEquals("ready", p.nextLine());
            List<Long> started = List.of(Files.readString(pids).trim().split(" ")).stream().map(Long::parseLong).toList();
            assertTrue(started.stream().allMatch(ShutdownLadderIT::running), "both processes run: " + started);
            p.closeStdin();
            int status = p.waitFor();
            assertEquals(128 + 9, status, "the shell died of SIGKILL; stderr:\n" + p.stderr());
            for (long pid : started) {
                assertFalse(running(pid), "process " + pid + " outlived the proxy");
            }
        }
    }

    @Test
    void proxyStoppedByTheHostEndsTheServerTreeToo() throws Exception {
        Path pids = tmp.resolve("pids-term");
        String script = "trap '' TERM; sleep 1000 & echo $$ $! > " + pids + ".tmp; mv " + pids + ".tmp " + pids
                + "; echo ready; wait; wait";
        try (Proc p = Proc.start(List.of(Repo.bin("stretto-proxy"), "--", "sh", "-c", script))) {
            assertEquals("ready", p.nextLine());
            List<Long> started = List.of(Files.readString(pids).trim().split(" ")).stream().map(Long::parseLong).toList();
            // What an MCP host does a moment after closing stdin; here stdin stays open.
            p.process().destroy();
            assertEquals(143, p.waitFor(), "the proxy ends on SIGTERM; stderr:\n" + p.stderr());
            for (long pid : started) {
                assertFalse(running(pid), "process " + pid + " outlived the proxy");
            }
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
