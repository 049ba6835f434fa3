package dev.stretto.proxy.oracle;

import dev.stretto.proxy.io.IoMessages;
import dev.stretto.proxy.record.Retention;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The oracle's answers on disk, keyed by {@link Request#key()}: one file per answer at
 * {@code <dir>/<first two hex digits of the key>/<key>.json}, holding the {@link Response}
 * pretty-printed ({@link Response#toPrettyJson()}), the layout the reference uses, so caches
 * move between the two.
 *
 * <p>Several proxies may share one cache. An answer is written to a temporary file in its
 * final directory and renamed over the final name in one atomic step, so a reader sees either
 * no file or a complete one, and of two writers of the same key one simply wins. New
 * directories are made readable by their owner only (0700), files likewise (0600).
 */
public final class OracleCache {

    private static final Pattern KEY = Pattern.compile("[0-9a-f]{64}");
    private static final Pattern SHARD = Pattern.compile("[0-9a-f]{2}");
    private static final Pattern ENTRY = Pattern.compile("([0-9a-f]{64})\\.json");
    // What put() leaves behind if the process dies between creating and renaming the file.
    private static final Pattern TEMPORARY = Pattern.compile("\\.[0-9a-f]{64}\\..*\\.tmp");

    private final Path dir;

    /** @param dir the cache directory; it is made when the first answer is stored */
    public OracleCache(Path dir) {
        this.dir = Objects.requireNonNull(dir, "dir");
    }

    /** The proxy's default cache directory, {@code ~/.stretto/oracle-cache}. */
    public static Path defaultDirectory(Path home) {
        return home.resolve(".stretto").resolve("oracle-cache");
    }

    /** The cache directory. */
    public Path directory() {
        return dir;
    }

    /** Whether {@code key} is a cache key: 64 lowercase hex digits. */
    public static boolean isKey(String key) {
        return key != null && KEY.matcher(key).matches();
    }

    /**
     * The file of {@code key}'s answer.
     *
     * @throws IllegalArgumentException if {@code key} is not a cache key
     */
    public Path fileOf(String key) {
        if (!isKey(key)) {
            throw new IllegalArgumentException("not a cache key (64 lowercase hex digits): " + key);
        }
        return dir.resolve(key.substring(0, 2)).resolve(key + ".json");
    }

    /**
     * The answer stored under {@code key}, if any.
     *
     * @throws OracleException if the file exists but cannot be read or is not a response
     */
    public Optional<Response> find(String key) {
        Path file = fileOf(key);
        String text;
        try {
            text = Files.readString(file, StandardCharsets.UTF_8);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw new OracleException("the oracle cache entry " + file + " cannot be read: " + IoMessages.describe(e), e);
        }
        try {
            return Optional.of(Response.parse(text));
        } catch (IllegalArgumentException e) {
            throw new OracleException("the oracle cache entry " + file + " is not an answer: " + e.getMessage(), e);
        }
    }

    /**
     * Stores {@code response} under {@code key}, replacing what was there, atomically.
     *
     * @throws OracleException if it cannot be written
     */
    public void put(String key, Response response) {
        Path file = fileOf(key);
        Path shard = file.getParent();
        byte[] content = response.toPrettyJson().getBytes(StandardCharsets.UTF_8);
        Path temporary = null;
        try {
            createPrivateDirectories(shard);
            temporary = Files.createTempFile(shard, "." + key + ".", ".tmp", privateFile(shard));
            try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.WRITE)) {
                ByteBuffer buffer = ByteBuffer.wrap(content);
                while (buffer.hasRemaining()) {
                    out.write(buffer);
                }
                // On disk before the rename, so a crash cannot leave the final name pointing
                // at an empty file.
                out.force(true);
            }
            Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            temporary = null;
        } catch (AtomicMoveNotSupportedException e) {
            throw new OracleException("the oracle cache " + dir + " is on a file system without atomic renames", e);
        } catch (IOException e) {
            throw new OracleException("cannot store an answer in the oracle cache " + dir + ": " + IoMessages.describe(e), e);
        } finally {
            if (temporary != null) {
                try {
                    Files.deleteIfExists(temporary);
                } catch (IOException ignored) {
                    // Left for prune(); the answer itself was not stored, which the caller hears.
                }
            }
        }
    }

    /**
     * The keys of the answers stored, sorted. Only files named {@code <key>.json} in the
     * directory named by the key's first two digits count; anything else (temporary files,
     * files people put there) is not an answer of this cache and is left out.
     *
     * @throws IOException if the directory cannot be listed
     */
    public List<String> keys() throws IOException {
        List<String> keys = new ArrayList<>();
        if (!Files.isDirectory(dir)) {
            throw new NoSuchFileException(dir.toString(), null, "no such directory");
        }
        try (DirectoryStream<Path> shards = Files.newDirectoryStream(dir)) {
            for (Path shard : shards) {
                String shardName = shard.getFileName().toString();
                if (!SHARD.matcher(shardName).matches() || !Files.isDirectory(shard, LinkOption.NOFOLLOW_LINKS)) {
                    continue;
                }
                try (DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
                    for (Path f : files) {
                        var m = ENTRY.matcher(f.getFileName().toString());
                        if (m.matches() && m.group(1).startsWith(shardName) && Files.isRegularFile(f)) {
                            keys.add(m.group(1));
                        }
                    }
                }
            }
        }
        keys.sort(null);
        return keys;
    }

    /**
     * Deletes the answers last written more than {@code days} days before {@code now}, and
     * temporary files as old (left by a writer that died): {@code --retain-days}. Only the
     * cache's own files are touched: {@code <2 hex>/<key>.json} and their temporary files;
     * links are not followed. Directories are kept, since another proxy may be about to write
     * into one.
     *
     * @return how many answers (temporary files included) were deleted, and one message for
     *         each file that could not be dealt with; nothing is thrown
     * @throws IllegalArgumentException if {@code days} is negative
     */
    public Retention.Outcome prune(int days, Instant now) {
        if (days < 0) {
            throw new IllegalArgumentException("days cannot be negative");
        }
        Instant cutoff = now.minus(Duration.ofDays(days));
        List<String> problems = new ArrayList<>();
        int deleted = 0;
        if (!Files.isDirectory(dir)) {
            return new Retention.Outcome(0, problems);
        }
        try (DirectoryStream<Path> shards = Files.newDirectoryStream(dir)) {
            for (Path shard : shards) {
                if (SHARD.matcher(shard.getFileName().toString()).matches()
                        && Files.isDirectory(shard, LinkOption.NOFOLLOW_LINKS)) {
                    deleted += pruneShard(shard, cutoff, problems);
                }
            }
        } catch (IOException e) {
            problems.add("cannot clean up the oracle cache " + dir + ": " + IoMessages.describe(e));
        }
        return new Retention.Outcome(deleted, problems);
    }

    private static int pruneShard(Path shard, Instant cutoff, List<String> problems) {
        int deleted = 0;
        try (DirectoryStream<Path> files = Files.newDirectoryStream(shard)) {
            for (Path f : files) {
                String name = f.getFileName().toString();
                if (!ENTRY.matcher(name).matches() && !TEMPORARY.matcher(name).matches()) {
                    continue;
                }
                try {
                    BasicFileAttributes attrs = Files.readAttributes(f, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
                    if (attrs.isRegularFile() && attrs.lastModifiedTime().toInstant().isBefore(cutoff)
                            && Files.deleteIfExists(f)) {
                        deleted++;
                    }
                } catch (IOException e) {
                    problems.add("cannot delete the old oracle answer " + f + ": " + IoMessages.describe(e));
                }
            }
        } catch (IOException e) {
            problems.add("cannot clean up " + shard + ": " + IoMessages.describe(e));
        }
        return deleted;
    }

    private static void createPrivateDirectories(Path d) throws IOException {
        if (Files.isDirectory(d)) {
            return;
        }
        if (isPosix(d)) {
            Files.createDirectories(d, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
        } else {
            Files.createDirectories(d);
        }
    }

    private static FileAttribute<?>[] privateFile(Path d) {
        return isPosix(d)
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------"))}
                : new FileAttribute<?>[0];
    }

    private static boolean isPosix(Path p) {
        return p.getFileSystem().supportedFileAttributeViews().contains("posix");
    }
}
