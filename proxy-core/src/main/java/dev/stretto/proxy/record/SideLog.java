package dev.stretto.proxy.record;

import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.Objects;
import org.tinylog.Logger;

/**
 * A JSON-lines file a session keeps beside its log, one line per thing it reports (the
 * confirmation judge's judgments in {@code <session>.confirm.jsonl}). The file is made when
 * the first line comes, readable by its owner only (0600), so a session with nothing to report
 * leaves no file; an existing file is appended to.
 *
 * <p>Each line goes out in one write to a file opened for appending, unbuffered: once
 * {@link #append} returns the line is in the file, whatever ends the session afterwards (a
 * signal included), and proxies that share one file do not interleave their lines. The stream
 * is a plain {@link FileOutputStream}, not a channel, so that interrupting the writing thread
 * (a session being stopped) cannot close it mid-session.
 *
 * <p>A file that cannot be made or written is reported once on stderr and the session goes
 * on: what the lines report (a refusal, say) still happens. Not thread-safe: one thread
 * (the session's actor) appends.
 */
public final class SideLog implements AutoCloseable {

    private final Path path;
    private final String what;
    private OutputStream out;
    private boolean failed;

    /**
     * A side log not yet made.
     *
     * @param path the file
     * @param what what it is, for messages ({@code "confirm log"})
     */
    public SideLog(Path path, String what) {
        this.path = Objects.requireNonNull(path, "path");
        this.what = Objects.requireNonNull(what, "what");
    }

    /**
     * The default path of a side log of the session logged at {@code sessionLog}: its name
     * with the {@code .jsonl} extension replaced by {@code extension} ({@code .confirm.jsonl}
     * makes {@code <session>.confirm.jsonl}), in the same directory.
     */
    public static Path besideSessionLog(Path sessionLog, String extension) {
        String name = sessionLog.getFileName().toString();
        String stem = name.endsWith(".jsonl") ? name.substring(0, name.length() - ".jsonl".length()) : name;
        return sessionLog.resolveSibling(stem + extension);
    }

    /** The file. */
    public Path path() {
        return path;
    }

    /** Appends {@code line} (without its newline) and a newline. */
    public void append(String line) {
        if (failed) {
            return;
        }
        byte[] bytes = (line + "\n").getBytes(StandardCharsets.UTF_8);
        try {
            if (out == null) {
                out = open(path);
            }
            out.write(bytes);
        } catch (IOException e) {
            failed = true;
            Logger.error("cannot write the {} {} ({}); its lines are lost from here on, the session goes on", what, path,
                    Retention.describe(e));
        }
    }

    private static OutputStream open(Path path) throws IOException {
        if (FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
            try {
                Files.createFile(path, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
            } catch (FileAlreadyExistsException appendToIt) {
                // Another session's lines, or this file given twice: appended to.
            }
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
            Logger.warn("cannot close the {} {} ({})", what, path, Retention.describe(e));
        }
    }
}
