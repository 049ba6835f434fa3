package dev.stretto.proxy.share;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.SecureRandom;
import java.util.Arrays;
import java.util.HexFormat;
import java.util.Set;

/**
 * The secret that pseudonyms are drawn with (HMAC-SHA-256): the same key gives the same
 * pseudonym to a value in every run, and without it nobody can tell which value a pseudonym
 * stands for, nor check a guess. Keep it as you keep the logs; share only the redacted copies.
 *
 * <p>A key file holds the key's text (whatever it is, white space around it aside, at least
 * {@value #MIN_LENGTH} characters); {@link #loadOrCreate(Path)} makes one of 32 random bytes,
 * in hex, readable by its owner only.
 */
public final class PseudonymKey {

    /** The shortest key accepted, in characters: a short one could be guessed and every pseudonym undone. */
    public static final int MIN_LENGTH = 16;

    private final byte[] key;
    private final Path file;
    private final boolean created;

    private PseudonymKey(byte[] key, Path file, boolean created) {
        this.key = key.clone();
        this.file = file;
        this.created = created;
    }

    /**
     * A key of the given bytes (a harness that keeps its key elsewhere).
     *
     * @param key the key's bytes, at least {@value #MIN_LENGTH}
     * @return the key
     * @throws IllegalArgumentException when it is shorter
     */
    public static PseudonymKey of(byte[] key) {
        if (key.length < MIN_LENGTH) {
            throw new IllegalArgumentException("a pseudonym key has at least " + MIN_LENGTH + " bytes");
        }
        return new PseudonymKey(key, null, false);
    }

    /** {@return a random key for this run only: pseudonyms that no later run will repeat} */
    public static PseudonymKey random() {
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        return new PseudonymKey(HexFormat.of().formatHex(b).getBytes(StandardCharsets.US_ASCII), null, false);
    }

    /**
     * The key in {@code file}; when there is no such file, a new random key written there
     * first, the file made readable and writable by its owner only (0600) and its directory
     * created (0700) if missing.
     *
     * @param file the key file
     * @return the key
     * @throws ShareException when the file holds too short a key, or others may read it
     * @throws IOException    when it cannot be read or made
     */
    public static PseudonymKey loadOrCreate(Path file) throws IOException {
        if (!Files.exists(file)) {
            try {
                return create(file);
            } catch (FileAlreadyExistsException raced) {
                // Another run made it just now: use that one.
            }
        }
        return load(file);
    }

    /**
     * The key in an existing {@code file}.
     *
     * @param file the key file
     * @return the key
     * @throws ShareException when the file holds too short a key, or others may read it
     * @throws IOException    when it cannot be read
     */
    public static PseudonymKey load(Path file) throws IOException {
        if (posix(file)) {
            Set<PosixFilePermission> p = Files.getPosixFilePermissions(file);
            if (p.contains(PosixFilePermission.GROUP_READ) || p.contains(PosixFilePermission.OTHERS_READ)
                    || p.contains(PosixFilePermission.GROUP_WRITE) || p.contains(PosixFilePermission.OTHERS_WRITE)) {
                throw new ShareException(file + ": the pseudonym key may be read by others (mode "
                        + PosixFilePermissions.toString(p) + "); make it the owner's only (chmod 600 " + file + ")");
            }
        }
        byte[] raw = Files.readAllBytes(file);
        String text = new String(raw, StandardCharsets.UTF_8).strip();
        if (text.length() < MIN_LENGTH) {
            throw new ShareException(file + ": the pseudonym key is " + text.length() + " characters long; it needs at least "
                    + MIN_LENGTH + " (delete the file to have a new one made)");
        }
        return new PseudonymKey(text.getBytes(StandardCharsets.UTF_8), file, false);
    }

    private static PseudonymKey create(Path file) throws IOException {
        Path dir = file.toAbsolutePath().getParent();
        if (dir != null && !Files.isDirectory(dir)) {
            if (posix(dir.getRoot())) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        }
        byte[] b = new byte[32];
        new SecureRandom().nextBytes(b);
        String hex = HexFormat.of().formatHex(b);
        Path made = posix(dir == null ? file.toAbsolutePath().getRoot() : dir)
                ? Files.createFile(file, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")))
                : Files.createFile(file);
        Files.writeString(made, hex + "\n", StandardCharsets.US_ASCII);
        return new PseudonymKey(hex.getBytes(StandardCharsets.US_ASCII), file, true);
    }

    private static boolean posix(Path p) {
        return p != null && Files.getFileAttributeView(p, java.nio.file.attribute.PosixFileAttributeView.class) != null;
    }

    /** {@return the file the key came from, or null for a key given in code} */
    public Path file() {
        return file;
    }

    /** {@return whether {@link #loadOrCreate(Path)} made the file just now} */
    public boolean created() {
        return created;
    }

    byte[] bytes() {
        return key.clone();
    }

    @Override
    public String toString() {
        // Never the key itself: a key in a log line or a message undoes every pseudonym.
        return file == null ? "PseudonymKey[in memory]" : "PseudonymKey[" + file + "]";
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof PseudonymKey k && Arrays.equals(key, k.key);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(key);
    }
}
