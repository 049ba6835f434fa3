package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What the proxy does to its record directory: creating it, and --retain-days. */
class RecordDirectoryIT {

    @TempDir
    Path tmp;

    /** Issue 7: under umask 000 the directories were made 0777. */
    @Test
    void recordDirectoriesAreCreatedForTheOwnerOnlyWhateverTheUmask() throws Exception {
        Path dir = tmp.resolve("a/logs");
        try (Proc p = Proc.start(List.of("sh", "-c", "umask 000; exec \"$0\" --record \"$1\" -- cat",
                Repo.bin("stretto-proxy"), dir.toString()), tmp, Map.of())) {
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(tmp.resolve("a"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir)));
        try (Stream<Path> logs = Files.list(dir)) {
            Path log = logs.findFirst().orElseThrow();
            assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(log)));
        }
    }

    /** Issue 7: --retain-days deleted a user's package.json, and said nothing. */
    @Test
    void retainDaysDeletesOnlyTheProxysOldFilesAndSaysHowMany() throws Exception {
        Path dir = Files.createDirectories(tmp.resolve("logs"));
        FileTime old = FileTime.from(Instant.now().minus(Duration.ofDays(40)));
        List<Path> proxys = List.of(dir.resolve("20260101T000000.000Z-999999999.jsonl"),
                dir.resolve("20260101T000000.000Z-999999999.flow.jsonl"),
                dir.resolve("shop/20260102T000000.000Z-999999998-1.jsonl"));
        List<Path> users = List.of(dir.resolve("package.json"), dir.resolve("shop/notes.jsonl"));
        for (Path p : Stream.concat(proxys.stream(), users.stream()).toList()) {
            Files.createDirectories(p.getParent());
            Files.writeString(p, "{}\n");
            Files.setLastModifiedTime(p, old);
        }
        try (Proc p = Proc.proxy(Map.of(), "--record", dir.toString(), "--retain-days", "30", "--", "cat")) {
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            List<String> err = p.stderr().lines().toList();
            assertEquals(2, err.size(), p.stderr());
            assertEquals("stretto-proxy: --retain-days 30: deleted 3 log files under " + dir, err.get(0));
            // Said once the server has started.
            assertTrue(err.get(1).startsWith("stretto-proxy: recording to " + dir + "/"), p.stderr());
        }
        for (Path p : proxys) {
            assertTrue(Files.notExists(p), p + " is old and the proxy's");
        }
        for (Path p : users) {
            assertTrue(Files.exists(p), p + " is not the proxy's");
        }
    }
}
