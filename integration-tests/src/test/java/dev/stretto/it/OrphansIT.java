package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * No orphans, no hangs: a process the server left in the background, holding the server's
 * stdout, is ended with the server however the session ends, and neither it nor a host that
 * stopped reading keeps the proxy from exiting with the server's status.
 *
 * <p>The proxy makes itself a child subreaper off its start-up path; each test lets the server
 * leave its process behind only once the proxy has said (at debug level) that it is one.
 */
class OrphansIT {
    /** A server whose shell leaves {@code sleep} behind, holding the server's stdout, and says its pid. */
    private static final String LEAVES_SLEEP = "sleep 300 & echo $!; ";
    private static final Map<String, String> DEBUG = Map.of("STRETTO_LOG_LEVEL", "debug");
    private static final String SUBREAPER = "this process is a child subreaper";

    @TempDir
    Path logs;

    private long orphan = -1;

    @AfterEach
    void endTheOrphanIfATestFailed() {
        if (orphan > 0) {
            ProcessHandle.of(orphan).ifPresent(ProcessHandle::destroyForcibly);
        }
    }

    private void sleepStarted(Proc p) throws Exception {
        orphan = Long.parseLong(p.nextLine().trim());
        assertTrue(ShutdownLadderIT.running(orphan), "the background sleep runs");
    }

    private void assertOrphanGone() {
        assertFalse(ShutdownLadderIT.running(orphan), "the server's background sleep outlived the proxy");
    }

    @Test
    void aBackgroundProcessOfTheServerEndsWhenTheHostClosesStdin() throws Exception {
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", LEAVES_SLEEP + "exec cat")) {
            sleepStarted(p);
            p.awaitStderr(SUBREAPER);
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
        // descendant, it was re-parented (to the proxy, a child subreaper).
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", "read go; (sleep 300 & echo $!); exec cat")) {
            p.awaitStderr(SUBREAPER);
            p.send("go");
            sleepStarted(p);
            p.signal("TERM");
            assertEquals(143, p.waitFor(), p.stderr());
            assertOrphanGone();
        }
    }

    @Test
    void aServerThatExitsLeavingABackgroundProcessOnItsOutputEndsTheProxyWithItsStatus() throws Exception {
        try (Proc p = Proc.proxy(DEBUG, "--", "sh", "-c", LEAVES_SLEEP + "read go; echo last; exit 3")) {
            // stdin stays open: the host is still there.
            sleepStarted(p);
            p.awaitStderr(SUBREAPER);
            p.send("go");
            assertEquals("last", p.nextLine());
            assertEquals(3, p.waitFor(), p.stderr());
            assertOrphanGone();
        }
    }

    @Test
    void aHostThatStopsReadingCannotKeepTheProxyFromEndingAndTheLogIsComplete() throws Exception {
        // Three megabytes fill the host's pipe many times over; then the server exits.
        try (Proc p = Proc.proxyNotRead("--record", logs.toString(), "--", "sh", "-c",
                "head -c 3000000 /dev/zero | tr '\\0' a; echo; echo '{\"last\":1}'; exit 4")) {
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
