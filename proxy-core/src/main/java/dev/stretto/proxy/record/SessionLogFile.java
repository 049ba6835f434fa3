package dev.stretto.proxy.record;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.function.Function;

/**
 * A session log file, newly and exclusively created, readable and writable by its owner
 * only (where the file system has POSIX permissions, they are set as the file is created,
 * so no other user can open it in between), with its header line already written. Record
 * directories the proxy creates are for their owner only too (0700, not what the umask gives).
 *
 * <p>A log exists only with its header: when the header cannot be written (a full disk, a
 * file size limit), the file is deleted again and {@link HeaderNotWritten} says why.
 *
 * <p>The stream is a plain {@link FileOutputStream}, not a channel: an interrupt must not
 * close the log while the writer drains it at the end of a session.
 *
 * @param path    the file
 * @param session the session id that names it (the base id, plus {@code -<n>} when another
 *                session of the same process took the same millisecond)
 * @param out     the open stream, positioned after the header line
 */
public record SessionLogFile(Path path, String session, OutputStream out) {

    private static final int MAX_SUFFIX = 1000;

    /** The log file was created, but its header could not be written; the file is gone again. */
    public static final class HeaderNotWritten extends IOException {
        HeaderNotWritten(String message, Throwable cause) {
            super(message, cause);
        }
    }

    /**
     * Creates {@code dir} if needed and a new log {@code dir/<baseId>.jsonl} in it, and writes
     * its header line. Should a file of that name exist already (two embedded sessions in one
     * millisecond), the id gets the suffix {@code -1}, {@code -2}, ...; an existing file is
     * never opened.
     *
     * @param headerFor the header line (without its newline) for the session id chosen
     * @throws HeaderNotWritten when the file was made but its header could not be written; the
     *                          file has been deleted
     * @throws IOException      when the directory or the file cannot be created
     */
    public static SessionLogFile create(Path dir, String baseId, Function<String, String> headerFor)
            throws IOException {
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        try {
            if (posix) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(dir);
            }
        } catch (FileAlreadyExistsException e) {
            // Something that is not a directory (a file, a dangling link) holds the name.
            throw new NotDirectoryException(dir.toString());
        }
        for (int n = 0; n < MAX_SUFFIX; n++) {
            String id = n == 0 ? baseId : baseId + "-" + n;
            Path path = dir.resolve(id + ".jsonl");
            try {
                if (posix) {
                    Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
                } else {
                    Files.createFile(path);
                }
            } catch (FileAlreadyExistsException e) {
                continue;
            }
            OutputStream out;
            try {
                out = new FileOutputStream(path.toFile());
            } catch (IOException e) {
                Files.deleteIfExists(path);
                throw e;
            }
            SessionLogFile file = new SessionLogFile(path, id, out);
            try {
                out.write((headerFor.apply(id) + "\n").getBytes(StandardCharsets.UTF_8));
            } catch (IOException | RuntimeException e) {
                file.discard();
                throw new HeaderNotWritten(e instanceof IOException io ? Retention.describe(io)
                        : String.valueOf(e.getMessage()), e);
            }
            return file;
        }
        throw new FileAlreadyExistsException(dir.resolve(baseId + ".jsonl").toString(), null,
                "too many sessions started in the same millisecond");
    }

    /** Closes and deletes the file: the session did not start, so it leaves no log. */
    public void discard() {
        try {
            out.close();
        } catch (IOException ignored) {
            // The file is deleted next; a failed close changes nothing for the user.
        }
        try {
            Files.deleteIfExists(path);
        } catch (IOException ignored) {
            // Nothing more can be done; the caller reports the start failure itself.
        }
    }
}
