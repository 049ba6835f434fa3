package dev.stretto.proxy.oracle;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.record.Retention;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class OracleCacheTest {

    private static final String KEY = "69fc9e05804e05e8afd64314f43599aadbb64db289b486763ed9ee6e25f83db5";
    private static final String OTHER = "0a" + "1".repeat(62);

    @TempDir
    Path dir;

    private static Response answer(String model) {
        return Response.of(model, Map.of("confirmed", new Answer.Noul(0.5)), TokenUsage.NONE);
    }

    @Test
    void anAnswerIsStoredPrettyPrintedUnderItsKeysFirstTwoDigits() throws Exception {
        OracleCache cache = new OracleCache(dir.resolve("cache"));
        cache.put(KEY, answer("mock"));
        Path file = dir.resolve("cache/69/" + KEY + ".json");
        assertEquals(file, cache.fileOf(KEY));
        assertEquals(answer("mock").toPrettyJson(), Files.readString(file));
        assertEquals(Optional.of(answer("mock")), cache.find(KEY));
    }

    @Test
    void filesAndNewDirectoriesAreForTheOwnerOnly() throws Exception {
        OracleCache cache = new OracleCache(dir.resolve("cache"));
        cache.put(KEY, answer("mock"));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("cache"))));
        assertEquals("rwx------", PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("cache/69"))));
        assertEquals("rw-------", PosixFilePermissions.toString(Files.getPosixFilePermissions(cache.fileOf(KEY))));
    }

    @Test
    void aMissingAnswerIsEmptyAndAnUnreadableOneAnErrorNamingItsFile() throws Exception {
        OracleCache cache = new OracleCache(dir);
        assertEquals(Optional.empty(), cache.find(KEY));
        Files.createDirectories(cache.fileOf(KEY).getParent());
        Files.writeString(cache.fileOf(KEY), "{\"model\":");
        OracleException e = assertThrows(OracleException.class, () -> cache.find(KEY));
        assertTrue(e.getMessage().startsWith("the oracle cache entry " + cache.fileOf(KEY) + " is not an answer: not JSON"),
                e.getMessage());
    }

    @Test
    void keysMustBe64LowercaseHexDigits() {
        OracleCache cache = new OracleCache(dir);
        assertThrows(IllegalArgumentException.class, () -> cache.fileOf(KEY.toUpperCase()));
        assertThrows(IllegalArgumentException.class, () -> cache.fileOf("../" + KEY.substring(3)));
        assertThrows(IllegalArgumentException.class, () -> cache.fileOf(KEY + "0"));
    }

    @Test
    void keysListsTheCachesOwnAnswersOnlySorted() throws Exception {
        OracleCache cache = new OracleCache(dir);
        cache.put(KEY, answer("a"));
        cache.put(OTHER, answer("b"));
        Files.writeString(dir.resolve("69/." + KEY + ".123.tmp"), "{");       // a write in progress
        Files.writeString(dir.resolve("69/" + OTHER + ".json"), "{}");        // in the wrong directory
        Files.writeString(dir.resolve("69/notes.json"), "{}");
        Files.writeString(dir.resolve("README.json"), "{}");
        assertEquals(List.of(OTHER, KEY), cache.keys());
    }

    @Test
    void pruneDeletesOldAnswersAndLeftoverTemporaryFilesOnly() throws Exception {
        OracleCache cache = new OracleCache(dir);
        Instant now = Instant.parse("2026-12-01T00:00:00Z");
        cache.put(KEY, answer("old"));
        cache.put(OTHER, answer("new"));
        Path leftover = dir.resolve("69/." + KEY + ".99.tmp");
        Path notOurs = dir.resolve("69/notes.json");
        Files.writeString(leftover, "{");
        Files.writeString(notOurs, "{}");
        for (Path p : List.of(cache.fileOf(KEY), leftover, notOurs)) {
            Files.setLastModifiedTime(p, FileTime.from(now.minus(Duration.ofDays(8))));
        }
        Files.setLastModifiedTime(cache.fileOf(OTHER), FileTime.from(now.minus(Duration.ofDays(6))));

        assertEquals(new Retention.Outcome(2, List.of()), cache.prune(7, now));

        assertFalse(Files.exists(cache.fileOf(KEY)));
        assertFalse(Files.exists(leftover));
        assertTrue(Files.exists(cache.fileOf(OTHER)));
        assertTrue(Files.exists(notOurs));
        assertTrue(Files.isDirectory(dir.resolve("69")));
    }

    @Test
    void pruneOfACacheNotMadeYetDoesNothing() {
        assertEquals(new Retention.Outcome(0, List.of()), new OracleCache(dir.resolve("none")).prune(0, Instant.now()));
    }

    /**
     * Many proxies share one cache: writers of the same key race, readers read all the while.
     * Every read must find either no file or one complete answer, and no temporary file may be
     * left behind.
     */
    @Test
    void concurrentWritersOfOneKeyNeverShowAReaderAPartialFile() throws Exception {
        OracleCache cache = new OracleCache(dir);
        int writers = 16;
        int rounds = 25;
        // Long answers, so that a torn write would show.
        String padding = "x".repeat(20_000);
        Set<String> written = ConcurrentHashMap.newKeySet();
        Set<String> seen = ConcurrentHashMap.newKeySet();
        List<String> failures = new java.util.concurrent.CopyOnWriteArrayList<>();
        CountDownLatch start = new CountDownLatch(1);
        AtomicBoolean writing = new AtomicBoolean(true);
        try (ExecutorService pool = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<?>> writes = new ArrayList<>();
            for (int w = 0; w < writers; w++) {
                int id = w;
                writes.add(pool.submit(() -> {
                    start.await();
                    for (int i = 0; i < rounds; i++) {
                        String model = "writer-" + id + "-" + i + "-" + padding;
                        written.add(model);
                        cache.put(KEY, answer(model));
                    }
                    return null;
                }));
            }
            List<Future<?>> reads = new ArrayList<>();
            for (int r = 0; r < 4; r++) {
                reads.add(pool.submit(() -> {
                    start.await();
                    while (writing.get()) {
                        try {
                            cache.find(KEY).ifPresent(a -> seen.add(a.model()));
                        } catch (OracleException e) {
                            failures.add(e.getMessage());
                        }
                        // Virtual threads are not preempted: a reader that never yields can
                        // keep the writers off the carriers of a small machine for good.
                        Thread.yield();
                    }
                    return null;
                }));
            }
            start.countDown();
            try {
                for (Future<?> f : writes) {
                    f.get(60, TimeUnit.SECONDS);
                }
            } finally {
                // Also when a writer failed or timed out, or closing the pool would wait for
                // the readers forever.
                writing.set(false);
            }
            for (Future<?> f : reads) {
                f.get(60, TimeUnit.SECONDS);
            }
        }
        assertEquals(List.of(), failures);
        assertFalse(seen.isEmpty(), "the readers never saw an answer");
        assertTrue(written.containsAll(seen), "a reader saw an answer nobody wrote");
        assertTrue(written.contains(cache.find(KEY).orElseThrow().model()));
        try (Stream<Path> files = Files.list(dir.resolve("69"))) {
            assertEquals(List.of(KEY + ".json"), files.map(p -> p.getFileName().toString()).toList());
        }
        assertTrue(Files.readString(cache.fileOf(KEY), StandardCharsets.UTF_8).endsWith("}"));
    }
}
