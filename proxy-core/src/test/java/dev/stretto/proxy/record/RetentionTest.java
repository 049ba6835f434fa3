package dev.stretto.proxy.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RetentionTest {

    private static Path file(Path p, Instant modified) throws Exception {
        Files.createDirectories(p.getParent());
        Files.writeString(p, "x");
        Files.setLastModifiedTime(p, FileTime.from(modified));
        return p;
    }

    /** A finished session's id: its pid is that of a process that has ended. */
    private static String endedSession() throws Exception {
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        return "20260920T101010.123Z-" + ended.pid();
    }

    /**
     * Issue 7: every *.json and *.jsonl in the tree was deleted, a user's package.json
     * included. Only the proxy's own files go, known by their names.
     */
    @Test
    void deletesOnlyTheProxysOwnOldFilesInTheTreeAndCountsThem(@TempDir Path dir) throws Exception {
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Instant old = now.minus(Duration.ofDays(8));
        Instant recent = now.minus(Duration.ofDays(6));
        String s = endedSession();
        Path oldLog = file(dir.resolve(s + ".jsonl"), old);
        Path oldFlow = file(dir.resolve(s + ".flow.jsonl"), old);
        Path oldConfirm = file(dir.resolve("sub/deeper/" + s + "-2.confirm.jsonl"), old);
        Path recentLog = file(dir.resolve("sub/" + s + "-1.jsonl"), recent);
        List<Path> kept = List.of(file(dir.resolve("package.json"), old), file(dir.resolve("notes.jsonl"), old),
                file(dir.resolve("sub/data.json"), old), file(dir.resolve("notes.txt"), old),
                file(dir.resolve(s + ".json"), old), file(dir.resolve(s + ".jsonl.bak"), old),
                file(dir.resolve("x" + s + ".jsonl"), old), file(dir.resolve(s + ".other.jsonl"), old));
        assertEquals(new Retention.Outcome(3, List.of()), Retention.apply(dir, 7, now));
        assertFalse(Files.exists(oldLog));
        assertFalse(Files.exists(oldFlow));
        assertFalse(Files.exists(oldConfirm));
        assertTrue(Files.exists(recentLog));
        for (Path p : kept) {
            assertTrue(Files.exists(p), p + " is not the proxy's");
        }
    }

    @Test
    void aMissingDirectoryIsNothingToDo(@TempDir Path dir) {
        assertEquals(new Retention.Outcome(0, List.of()), Retention.apply(dir.resolve("none"), 1, Instant.now()));
    }

    @Test
    void aRecordDirectoryThatIsASymlinkIsCleanedToo(@TempDir Path tmp) throws Exception {
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Path real = Files.createDirectories(tmp.resolve("real"));
        String s = endedSession();
        Path oldLog = file(real.resolve(s + ".jsonl"), now.minus(Duration.ofDays(9)));
        Path recentLog = file(real.resolve(s + "-1.jsonl"), now.minus(Duration.ofDays(1)));
        Path link = Files.createSymbolicLink(tmp.resolve("logs"), real);
        assertEquals(new Retention.Outcome(1, List.of()), Retention.apply(link, 7, now));
        assertFalse(Files.exists(oldLog));
        assertTrue(Files.exists(recentLog));
    }

    @Test
    void linksInsideTheDirectoryAreNeitherFollowedNorDeleted(@TempDir Path tmp) throws Exception {
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Instant old = now.minus(Duration.ofDays(9));
        Path dir = Files.createDirectories(tmp.resolve("logs"));
        Path outside = Files.createDirectories(tmp.resolve("elsewhere"));
        String s = endedSession();
        Path outsideLog = file(outside.resolve(s + ".jsonl"), old);
        Path fileLink = Files.createSymbolicLink(dir.resolve(s + "-1.jsonl"), outsideLog);
        Path dirLink = Files.createSymbolicLink(dir.resolve("more"), outside);
        assertEquals(new Retention.Outcome(0, List.of()), Retention.apply(dir, 7, now));
        assertTrue(Files.exists(outsideLog));
        assertTrue(Files.isSymbolicLink(fileLink));
        assertTrue(Files.isSymbolicLink(dirLink));
    }

    @Test
    void theLogOfASessionStillRunningIsKeptHoweverOld(@TempDir Path dir) throws Exception {
        // Hosts start several proxies on one record directory at once; with --retain-days 0
        // (or a session idle for days) one would delete the log another is still writing.
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Instant old = now.minus(Duration.ofDays(9));
        Process ended = new ProcessBuilder("true").start();
        ended.waitFor();
        long live = ProcessHandle.current().pid();
        Path running = file(dir.resolve("20260920T101010.123Z-" + live + ".jsonl"), old);
        Path runningFlow = file(dir.resolve("20260920T101010.123Z-" + live + "-2.flow.jsonl"), old);
        Path finished = file(dir.resolve("20260920T101010.123Z-" + ended.pid() + ".jsonl"), old);
        assertEquals(new Retention.Outcome(1, List.of()), Retention.apply(dir, 0, now));
        assertTrue(Files.exists(running));
        assertTrue(Files.exists(runningFlow));
        assertFalse(Files.exists(finished));
    }
}
