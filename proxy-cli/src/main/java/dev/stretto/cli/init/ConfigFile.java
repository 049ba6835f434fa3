package dev.stretto.cli.init;

import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.AccessDeniedException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Clock;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.Set;

/**
 * A host's config file on disk: read as UTF-8 (a link is followed, so that a file kept in a
 * dotfiles repository stays there), and written in one step. Before a file is changed a copy
 * of it is made beside it ({@code NAME.YYYYMMDD-HHMMSS.bak}); the new text goes to a temporary
 * file in the same directory, with the old one's permissions, and is moved over it, so that a
 * host reading the file meanwhile sees the old text or the new, never half of one. A file
 * without its owner's write permission is read-only, for root too: it is not changed.
 *
 * @param path the file as given
 * @param real the file itself (links followed), or {@code path} when it does not exist yet
 * @param text the file's text, or null when it does not exist
 */
record ConfigFile(Path path, Path real, String text) {

    private static final DateTimeFormatter STAMP = DateTimeFormatter.ofPattern("yyyyMMdd-HHmmss")
            .withZone(ZoneOffset.UTC);

    static ConfigFile read(Path path) throws InitException {
        Path real;
        try {
            real = path.toRealPath();
        } catch (NoSuchFileException e) {
            if (Files.isSymbolicLink(path)) {
                throw new InitException(path + " is a link to a file that does not exist; nothing changed");
            }
            return new ConfigFile(path, path, null);
        } catch (IOException e) {
            throw new InitException("cannot read " + path + ": " + e.getMessage());
        }
        if (!Files.isRegularFile(real)) {
            throw new InitException(path + " is not a file; nothing changed");
        }
        try {
            return new ConfigFile(path, real, decode(Files.readAllBytes(real), path));
        } catch (AccessDeniedException e) {
            throw new InitException("cannot read " + path + ": permission denied");
        } catch (IOException e) {
            throw new InitException("cannot read " + path + ": " + e.getMessage());
        }
    }

    private static String decode(byte[] bytes, Path path) throws InitException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new InitException(path + " is not UTF-8 text; nothing changed");
        }
    }

    boolean exists() {
        return text != null;
    }

    /**
     * Writes {@code newText} in place of the file's text and returns the backup made of the
     * old one (null when the file did not exist, and was made with permissions for its owner
     * only: it may hold secrets in its env blocks).
     */
    Path write(String newText, Clock clock) throws InitException {
        Path dir = real.toAbsolutePath().getParent();
        Set<PosixFilePermission> permissions = PosixFilePermissions.fromString("rw-------");
        if (exists()) {
            try {
                permissions = Files.getPosixFilePermissions(real);
            } catch (IOException | UnsupportedOperationException e) {
                throw new InitException("cannot read the permissions of " + path + ": " + e.getMessage());
            }
            if (!permissions.contains(PosixFilePermission.OWNER_WRITE) || !Files.isWritable(real)) {
                throw new InitException(path + " is read-only; nothing changed (make it writable, or give --config"
                        + " another file)");
            }
            // Someone else's change since it was read is not written over.
            ConfigFile now = read(path);
            if (!text.equals(now.text())) {
                throw new InitException(path + " changed while stretto init was working on it; nothing changed, run"
                        + " it again");
            }
        }
        Path backup = null;
        Path temporary = null;
        try {
            Files.createDirectories(dir);
            if (exists()) {
                backup = backupPath(clock);
                Files.copy(real, backup, StandardCopyOption.COPY_ATTRIBUTES, LinkOption.NOFOLLOW_LINKS);
            }
            temporary = Files.createTempFile(dir, "." + real.getFileName() + ".", ".tmp");
            Files.setPosixFilePermissions(temporary, permissions);
            try (FileChannel out = FileChannel.open(temporary, StandardOpenOption.WRITE,
                    StandardOpenOption.TRUNCATE_EXISTING)) {
                ByteBuffer bytes = ByteBuffer.wrap(newText.getBytes(StandardCharsets.UTF_8));
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
                out.force(true);
            }
            try {
                Files.move(temporary, real, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, real, StandardCopyOption.REPLACE_EXISTING);
            }
            return backup;
        } catch (IOException e) {
            try {
                if (temporary != null) {
                    Files.deleteIfExists(temporary);
                }
                if (backup != null) {
                    Files.deleteIfExists(backup);
                }
            } catch (IOException ignored) {
                // The message below names what could not be written; a stray file is the lesser matter.
            }
            String why = e instanceof AccessDeniedException ? "permission denied" : e.getMessage();
            throw new InitException("cannot write " + path + " (" + why + "); nothing changed");
        }
    }

    private Path backupPath(Clock clock) {
        String base = real.getFileName() + "." + STAMP.format(clock.instant());
        Path candidate = real.resolveSibling(base + ".bak");
        for (int n = 2; Files.exists(candidate, LinkOption.NOFOLLOW_LINKS); n++) {
            candidate = real.resolveSibling(base + "-" + n + ".bak");
        }
        return candidate;
    }
}
