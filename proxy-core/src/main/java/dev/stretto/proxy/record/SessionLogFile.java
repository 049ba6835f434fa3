package dev.stretto.proxy.record;

import java.io.FileDescriptor;
import java.io.FileOutputStream;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.NotDirectoryException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * A session log file, newly and exclusively created, readable and writable by its owner
 * only (where the file system has POSIX permissions, they are set as the file is created,
 * so no other user can open it in between), still empty: {@link LogFileSink} writes it. Record
 * directories the proxy creates are for their owner only too (0700, not what the umask gives).
 *
 * <p>The stream is a plain {@link FileOutputStream}, not a channel: an interrupt must not
 * close the log while the writer drains it at the end of a session. For the same reason
 * {@link #sync()} forces it with {@link FileDescriptor#sync()} (the same {@code fsync} as
 * {@code FileChannel.force(true)}), which an interrupt cannot cut short.
 *
 * @param path        the file
 * @param session     the session id that names it (the base id, plus {@code -<n>} when another
 *                    session of the same process took the same millisecond)
 * @param out         the open stream
 * @param directories the directories whose entries must reach the disk for the file to be
 *                    found after a power cut: the file's own, and the parent of each
 *                    directory created for it (see {@link #syncDirectories()})
 */
public record SessionLogFile(Path path, String session, FileOutputStream out, List<Path> directories) {

    /** A file in {@code directories}, whose first is the file's own; the list is copied. */
    public SessionLogFile {
        directories = List.copyOf(directories);
    }

    private static final int MAX_SUFFIX = 1000;

    /**
     * Creates {@code dir} if needed and a new, empty log {@code dir/<baseId>.jsonl} in it.
     * Should a file of that name exist already (two embedded sessions in one millisecond), the
     * id gets the suffix {@code -1}, {@code -2}, ...; an existing file is never opened.
     *
     * @throws IOException when the directory or the file cannot be created
     */
    public static SessionLogFile create(Path dir, String baseId) throws IOException {
        boolean posix = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");
        // The file's directory, then each directory that is about to be created's parent.
        List<Path> directories = new ArrayList<>();
        Path absolute = dir.toAbsolutePath();
        directories.add(absolute);
        for (Path d = absolute; d.getParent() != null && !Files.exists(d); d = d.getParent()) {
            directories.add(d.getParent());
        }
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
            FileOutputStream out;
            try {
                out = new FileOutputStream(path.toFile());
            } catch (IOException e) {
                Files.deleteIfExists(path);
                throw e;
            }
            return new SessionLogFile(path, id, out, directories);
        }
        throw new FileAlreadyExistsException(dir.resolve(baseId + ".jsonl").toString(), null,
                "too many sessions started in the same millisecond");
    }

    /** Forces what was written to the file to disk ({@code fsync}). */
    public void sync() throws IOException {
        out.getFD().sync();
    }

    /**
     * Forces the entries of {@link #directories()} to disk, so that after a power cut the file
     * is there (with what {@link #sync()} forced), not only its data.
     */
    public void syncDirectories() throws IOException {
        for (Path d : directories) {
            try (FileChannel dir = FileChannel.open(d, StandardOpenOption.READ)) {
                dir.force(true);
            }
        }
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
