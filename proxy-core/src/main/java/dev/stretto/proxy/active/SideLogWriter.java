package dev.stretto.proxy.active;

import dev.stretto.proxy.io.IoMessages;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import dev.stretto.proxy.logging.Logger;

/**
 * A JSON-lines log beside the session log: the flow log ({@code <session>.flow.jsonl},
 * formats 3.7) or the confirmation judge's ({@code <session>.confirm.jsonl}, formats 10),
 * appended to one line at a time on the actor's thread: the lines are small and few (a
 * decision, a run's end, a judgment), so one write each costs the actor less than handing
 * them to a thread of their own would. The file is made only when the first line comes (a
 * session with nothing to log leaves none), for its owner only, as session logs are (its
 * parent directory too when missing), and opened in append mode, so a log named by several
 * sessions keeps all their lines. Each line is one write of its bytes and newline,
 * unbuffered, so the file is complete whenever the session ends, a signal included. A file
 * that cannot be written is reported once; the session goes on. Actor thread only.
 */
final class SideLogWriter implements AutoCloseable {

    private static final boolean POSIX = FileSystems.getDefault().supportedFileAttributeViews().contains("posix");

    private final Path path;
    private final String what;
    private OutputStream out;
    private boolean failed;

    /**
     * A log at {@code path}, not yet made.
     *
     * @param what what it is, for messages ({@code "flow log"})
     */
    SideLogWriter(Path path, String what) {
        this.path = path;
        this.what = what;
    }

    /** Appends {@code line} and a newline. */
    void write(String line) {
        if (failed) {
            return;
        }
        try {
            if (out == null) {
                out = open();
            }
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException e) {
            failed = true;
            Logger.error("cannot write the {} {} ({}); the session goes on without it", what, path,
                    IoMessages.describe(e));
        }
    }

    // A plain FileOutputStream, not a channel: an interrupt must not close the log while the
    // session stops.
    private OutputStream open() throws IOException {
        Path parent = path.getParent();
        if (parent != null && !Files.isDirectory(parent)) {
            if (POSIX) {
                Files.createDirectories(parent, PosixFilePermissions.asFileAttribute(
                        PosixFilePermissions.fromString("rwx------")));
            } else {
                Files.createDirectories(parent);
            }
        }
        try {
            if (POSIX) {
                Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } else {
                Files.createFile(path);
            }
        } catch (FileAlreadyExistsException e) {
            // Appended to, as the reference does.
        }
        return new FileOutputStream(path.toFile(), true);
    }

    @Override
    public void close() {
        if (out == null) {
            return;
        }
        try {
            out.close();
        } catch (IOException e) {
            if (!failed) {
                Logger.error("cannot close the {} {} ({})", what, path, IoMessages.describe(e));
            }
        }
        out = null;
    }
}
