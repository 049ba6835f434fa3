package dev.stretto.proxy.oauth;

import dev.stretto.proxy.StoredLogin;
import dev.stretto.proxy.TokenStore;
import dev.stretto.proxy.logging.Logger;
import java.io.IOException;
import java.net.URI;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.DirectoryStream;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.locks.ReentrantLock;

/**
 * the proxy's own store ({@code OAuthLogins.directoryStore}): one file per server, {@code HOST[_PORT]-HASH.json} (the hash
 * of the server's key, so that two servers on one host never share a file), in a directory for
 * its owner only (0700), each file for its owner only (0600) from the moment it exists. A save
 * writes a new file beside the old and renames it over it, so a reader never sees half a file.
 *
 * <p>{@link #exclusive} takes two locks: one of this JVM, by the lock file's path (file locks
 * are held by the whole process, so two sessions of one JVM could not exclude each other with
 * them alone), and the lock of the file {@code HOST[_PORT]-HASH.lock}, which excludes other
 * processes. The lock file stays when the login is forgotten: deleting it could let two
 * processes lock two different files of the same name.
 */
public final class DirectoryTokenStore implements TokenStore {

    private static final Set<PosixFilePermission> OWNER_FILE = PosixFilePermissions.fromString("rw-------");
    private static final Set<PosixFilePermission> OWNER_DIR = PosixFilePermissions.fromString("rwx------");

    /** The JVM's own locks, by lock file: shared by every store of this JVM on the same directory. */
    private static final ConcurrentMap<Path, ReentrantLock> IN_JVM = new ConcurrentHashMap<>();

    private final Path directory;

    public DirectoryTokenStore(Path directory) {
        this.directory = directory.toAbsolutePath().normalize();
    }

    public Path directory() {
        return directory;
    }

    @Override
    public Optional<StoredLogin> load(URI server) throws IOException {
        URI key = TokenStore.keyOf(server);
        Path file = fileOf(key, ".json");
        byte[] bytes;
        try {
            bytes = Files.readAllBytes(file);
        } catch (NoSuchFileException e) {
            return Optional.empty();
        }
        StoredLogin login;
        try {
            login = LoginJson.read(bytes);
        } catch (IOException e) {
            throw new IOException("cannot read the sign-in kept in " + file + ": " + e.getMessage()
                    + " (stretto logout " + key + " forgets it)");
        }
        return login.server().equals(key) ? Optional.of(login) : Optional.empty();
    }

    @Override
    public void save(StoredLogin login) throws IOException {
        URI key = TokenStore.keyOf(login.server());
        ensureDirectory();
        Path file = fileOf(key, ".json");
        Path temp = directory.resolve("." + file.getFileName() + "." + Pkce.random(6) + ".tmp");
        Files.write(createPrivate(temp), LoginJson.write(new StoredLogin(key, login.resource(), login.issuer(),
                login.client(), login.tokens())));
        try {
            try {
                Files.move(temp, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } finally {
            Files.deleteIfExists(temp);
        }
    }

    @Override
    public boolean forget(URI server) throws IOException {
        return Files.deleteIfExists(fileOf(TokenStore.keyOf(server), ".json"));
    }

    @Override
    public List<StoredLogin> list() throws IOException {
        List<StoredLogin> out = new ArrayList<>();
        if (!Files.isDirectory(directory)) {
            return out;
        }
        try (DirectoryStream<Path> files = Files.newDirectoryStream(directory, "*.json")) {
            for (Path f : files) {
                if (f.getFileName().toString().startsWith(".")) {
                    continue;
                }
                try {
                    out.add(LoginJson.read(Files.readAllBytes(f)));
                } catch (IOException e) {
                    Logger.warn("skipping {}: {}", f, e.getMessage());
                }
            }
        }
        out.sort((a, b) -> a.server().toString().compareTo(b.server().toString()));
        return out;
    }

    @Override
    public <T> T exclusive(URI server, Work<T> work) throws IOException, InterruptedException {
        ensureDirectory();
        Path lockFile = fileOf(TokenStore.keyOf(server), ".lock");
        ReentrantLock inJvm = IN_JVM.computeIfAbsent(lockFile, p -> new ReentrantLock());
        inJvm.lockInterruptibly();
        try {
            if (!Files.exists(lockFile)) {
                try {
                    createPrivate(lockFile);
                } catch (FileAlreadyExistsException raced) {
                    // another process made it first
                }
            }
            try (FileChannel channel = FileChannel.open(lockFile, StandardOpenOption.WRITE);
                 FileLock held = channel.lock()) {
                return work.run();
            }
        } finally {
            inJvm.unlock();
        }
    }

    @Override
    public String toString() {
        return "the store in " + directory;
    }

    private void ensureDirectory() throws IOException {
        if (Files.isDirectory(directory)) {
            return;
        }
        if (isPosix()) {
            Files.createDirectories(directory.getParent());
            try {
                Files.createDirectory(directory, PosixFilePermissions.asFileAttribute(OWNER_DIR));
            } catch (FileAlreadyExistsException raced) {
                // made meanwhile
            }
            Files.setPosixFilePermissions(directory, OWNER_DIR);
        } else {
            Files.createDirectories(directory);
        }
    }

    private Path createPrivate(Path file) throws IOException {
        FileAttribute<?>[] attributes = isPosix()
                ? new FileAttribute<?>[] {PosixFilePermissions.asFileAttribute(OWNER_FILE)} : new FileAttribute<?>[0];
        return Files.createFile(file, attributes);
    }

    private boolean isPosix() {
        return directory.getFileSystem().supportedFileAttributeViews().contains("posix");
    }

    private Path fileOf(URI key, String suffix) {
        String host = key.getHost() == null ? "server" : key.getHost().toLowerCase(Locale.ROOT);
        String slug = (host + (key.getPort() > 0 ? "_" + key.getPort() : "")).replaceAll("[^a-z0-9._-]", "_");
        if (slug.length() > 64) {
            slug = slug.substring(0, 64);
        }
        return directory.resolve(slug + "-" + hash(key.toString()) + suffix);
    }

    private static String hash(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest, 0, 8);
        } catch (NoSuchAlgorithmException cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }
}
