package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * No orphans, no hangs: a process the server left in the background, holding the server's
 * stdout, is ended with the server however the session ends, and neither it nor a host that
 * stopped reading keeps the proxy from exiting with the server's status.
 *
 * <p>What the server left behind when its parent exited went to init, and is found by the
 * server's mark in its environment: the first two tests leave it in the server's first instant
 * and end the session at once.
 */
class OrphansIT {
    /** A server whose shell leaves {@code sleep} behind, holding the server's stdout, and says its pid. */
    private static final String LEAVES_SLEEP = "sleep 300 & echo $!; ";
    private static final Map<String, String> DEBUG = Map.of("STRETTO_LOG_LEVEL", "debug");

    @TempDir
    Path logs;

    private long orphan = -1;
    // Taken while the orphan runs: a handle knows its start time, so it never ends another
    // process that got the same pid later.
    private ProcessHandle orphanHandle;

    @AfterEach
    void endTheOrphanIfATestFailed() {
        if (orphanHandle != null) {
            orphanHandle.destroyForcibly();
        }
    }

    private void sleepStarted(Proc p) throws Exception {
        orphan = Long.parseLong(p.nextLine().trim());
        orphanHandle = ProcessHandle.of(orphan).orElse(null);
        assertTrue(ShutdownLadderIT.running(orphan), "the background sleep runs");
    }

    private void assertOrphanGone() {
        assertFalse(ShutdownLadderIT.running(orphan), "the server's background sleep outlived the proxy");
    }

    /** Where a server that prints nothing writes its background sleep's pid. */
    private Path pidFile() {
        return logs.resolve("orphan.pid");
    }

    // Read once the proxy has exited (the shell wrote it before it went on).
    private void sleepStartedAccordingToTheFile() throws Exception {
        orphan = Long.parseLong(Files.readString(pidFile()).trim());
        orphanHandle = ProcessHandle.of(orphan).orElse(null);
    }

    @Test
    void aBackgroundProcessStartedInTheServersFirstInstantEndsWhenTheHostClosesStdinAtOnce() throws Exception {
        // cat writes nothing and ends at the host's first move; sleep went to init when it exited.
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", "sleep 300 & echo $! > '" + pidFile() + "'; exec cat")) {
            p.closeStdin();
            assertEquals(0, p.waitFor(), "cat's status, once its background sleep is ended; stderr:\n" + p.stderr());
            sleepStartedAccordingToTheFile();
            assertOrphanGone();
        }
    }

    @Test
    void aBackgroundProcessOfAServerThatExitsInItsFirstInstantEndsWithIt() throws Exception {
        // The host keeps stdin open; the shell exits at once, and its sleep (holding the
        // server's stdout) goes to init.
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", "sleep 300 & echo $! > '" + pidFile() + "'; exit 3")) {
            assertEquals(3, p.waitFor(), "the shell's status; stderr:\n" + p.stderr());
            sleepStartedAccordingToTheFile();
            assertOrphanGone();
        }
    }

    @Test
    void aBackgroundProcessOfTheServerEndsWhenTheHostClosesStdin() throws Exception {
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", LEAVES_SLEEP + "exec cat")) {
            sleepStarted(p);
            p.closeStdin();
            assertEquals(0, p.waitFor(), "cat's status, once its background sleep is ended; stderr:\n" + p.stderr());
            assertOrphanGone();
        }
    }

    @Test
    void aBackgroundProcessOfTheServerEndsWhenTheHostSendsSigterm() throws Exception {
        try (Proc p = Proc.proxy(Map.of(), "--", "sh", "-c", LEAVES_SLEEP + "exec cat")) {
            sleepStarted(p);
            p.signal("TERM");
            assertEquals(143, p.waitFor(), p.stderr());
            assertOrphanGone();
        }
    }

    @Test
    void aProcessTheServerDetachedFromItselfEndsWhenTheHostSendsSigterm() throws Exception {
        // The subshell starts sleep and exits at once: sleep is no longer the server's
        // descendant, it was re-parented (to init), but it has the server's mark.
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", "read go; (sleep 300 & echo $!); exec cat")) {
            p.send("go");
            sleepStarted(p);
            p.signal("TERM");
            assertEquals(143, p.waitFor(), p.stderr());
            assertOrphanGone();
        }
    }

    @Test
    void aProcessTheServerDetachedLeavesNoZombieOfTheProxyWhenItExits() throws Exception {
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", "read go; (sleep 1 & echo $!); exec cat")) {
            p.send("go");
            sleepStarted(p);
            // It exits while the session runs and must not stay a zombie of the proxy's. /proc
            // tells no one when that changes, so it is looked at every 50 ms.
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(Proc.WAIT_SECONDS);
            while (parentOf(orphan) == p.process().pid()) {
                assertTrue(System.nanoTime() < deadline, "process " + orphan + " was left a zombie of the proxy");
                Thread.sleep(50);
            }
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
    }

    /** The parent of {@code pid} as /proc says, or -1 when there is no such process. */
    private static long parentOf(long pid) {
        try {
            String stat = Files.readString(Path.of("/proc/" + pid + "/stat"));
            return Long.parseLong(stat.substring(stat.lastIndexOf(')') + 2).split(" ")[1]);
        } catch (java.io.IOException e) {
            return -1;
        }
    }

    @Test
    void aServerThatExitsLeavingABackgroundProcessOnItsOutputEndsTheProxyWithItsStatus() throws Exception {
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", LEAVES_SLEEP + "read go; echo last; exit 3")) {
            // stdin stays open: the host is still there.
            sleepStarted(p);
            p.send("go");
            assertEquals("last", p.nextLine());
            assertEquals(3, p.waitFor(), p.stderr());
            assertOrphanGone();
        }
    }

    /** In active mode too, where the actor queues what the host gets (--commit: nothing else changes). */
    @ParameterizedTest(name = "{0}")
    @ValueSource(strings = {"passive", "active"})
    void aHostThatStopsReadingCannotKeepTheProxyFromEndingAndTheLogIsComplete(String mode) throws Exception {
        List<String> args = new ArrayList<>(mode.equals("active") ? List.of("--commit") : List.of());
        args.addAll(List.of("--record", logs.toString(), "--", "sh", "-c",
                "head -c 3000000 /dev/zero | tr '\\0' a; echo; echo '{\"last\":1}'; exit 4"));
        // Three megabytes fill the host's pipe many times over; then the server exits.
        try (Proc p = Proc.proxyNotRead(args.toArray(String[]::new))) {
            assertEquals(4, p.waitFor(), p.stderr());
            assertTrue(p.stderr().contains("the host has not read the proxy's output"), p.stderr());
        }
        SessionLogFile log = SessionLogFile.onlyIn(logs);
        assertEquals(2, log.entries().size());
        JsonNode big = log.entries().getFirst();
        assertEquals("server", big.get("from").asText());
        assertEquals(3_000_000, big.get("raw").asText().length());
        assertEquals("{\"last\":1}", log.messageText(1));
    }
}
