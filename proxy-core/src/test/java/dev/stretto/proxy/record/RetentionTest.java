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

    @Test
    void deletesOnlyOldLogsInTheTreeAndKeepsEverythingElse(@TempDir Path dir) throws Exception {
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Instant old = now.minus(Duration.ofDays(8));
        Instant recent = now.minus(Duration.ofDays(6));
        Path oldLog = file(dir.resolve("a.jsonl"), old);
        Path oldNested = file(dir.resolve("sub/deeper/b.json"), old);
        Path oldOther = file(dir.resolve("notes.txt"), old);
        Path recentLog = file(dir.resolve("sub/c.jsonl"), recent);
        List<String> problems = Retention.apply(dir, 7, now);
        assertEquals(List.of(), problems);
        assertFalse(Files.exists(oldLog));
        assertFalse(Files.exists(oldNested));
        assertTrue(Files.exists(oldOther));
        assertTrue(Files.exists(recentLog));
    }

    @Test
    void aMissingDirectoryIsNothingToDo(@TempDir Path dir) {
        assertEquals(List.of(), Retention.apply(dir.resolve("none"), 1, Instant.now()));
    }

    @Test
    void aRecordDirectoryThatIsASymlinkIsCleanedToo(@TempDir Path tmp) throws Exception {
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Path real = Files.createDirectories(tmp.resolve("real"));
        Path oldLog = file(real.resolve("a.jsonl"), now.minus(Duration.ofDays(9)));
        Path recentLog = file(real.resolve("b.jsonl"), now.minus(Duration.ofDays(1)));
        Path link = Files.createSymbolicLink(tmp.resolve("logs"), real);
        assertEquals(List.of(), Retention.apply(link, 7, now));
        assertFalse(Files.exists(oldLog));
        assertTrue(Files.exists(recentLog));
    }

    @Test
    void linksInsideTheDirectoryAreNeitherFollowedNorDeleted(@TempDir Path tmp) throws Exception {
        Instant now = Instant.parse("2026-10-01T00:00:00Z");
        Instant old = now.minus(Duration.ofDays(9));
        Path dir = Files.createDirectories(tmp.resolve("logs"));
        Path outside = Files.createDirectories(tmp.resolve("elsewhere"));
        Path outsideLog = file(outside.resolve("keep.jsonl"), old);
        Path fileLink = Files.createSymbolicLink(dir.resolve("link.jsonl"), outsideLog);
        Path dirLink = Files.createSymbolicLink(dir.resolve("more"), outside);
        assertEquals(List.of(), Retention.apply(dir, 7, now));
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
        assertEquals(List.of(), Retention.apply(dir, 0, now));
        assertTrue(Files.exists(running));
        assertTrue(Files.exists(runningFlow));
        assertFalse(Files.exists(finished));
    }
}
