package dev.stretto.proxy.record;

import dev.stretto.proxy.RecordingSink;
import dev.stretto.proxy.io.IoMessages;
import dev.stretto.trace.log.EntryWriter;
import dev.stretto.trace.log.LineBytes;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;

/**
 * The session log file ({@code --record}) as a {@link RecordingSink}: the header, then each
 * entry as its JSON line, buffered and written out whenever the log writer has caught up. The
 * log writer hands it most lines as they crossed ({@link #line}), and it writes their entries
 * from their bytes ({@link EntryWriter}); an entry made already comes to {@link #entry}.
 *
 * <p>A log exists only with its header: when the header cannot be written (a full disk, a
 * file size limit), the file is deleted again and {@link HeaderNotWritten} says why. With
 * {@code --record-sync} the header counts as written once it, the file and the directories
 * that name it are forced to disk; {@link #sync()} then forces each group of entries.
 */
public final class LogFileSink implements RecordingSink {

    /** The log file was created, but its header could not be written; the file is gone again. */
    public static final class HeaderNotWritten extends IOException {
        HeaderNotWritten(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private final Path path;
    private final OutputStream file;
    private final EntryWriter out;
    private final SessionLogFile created;
    private final boolean syncHeader;

    /** The sink of a log file just created, and still empty. */
    public LogFileSink(SessionLogFile created) {
        this(created, false);
    }

    /**
     * The sink of a log file just created, and still empty; with {@code syncHeader}
     * ({@code --record-sync}) {@link #open} forces the header, the file and its directories
     * to disk.
     */
    public LogFileSink(SessionLogFile created, boolean syncHeader) {
        this(created.path(), created.out(), created, syncHeader);
    }

    // Tests write to a stream of their own; path names it in messages.
    LogFileSink(Path path, OutputStream out) {
        this(path, out, null, false);
    }

    private LogFileSink(Path path, OutputStream file, SessionLogFile created, boolean syncHeader) {
        this.path = path;
        this.file = file;
        this.out = new EntryWriter(file);
        this.created = created;
        this.syncHeader = syncHeader;
    }

    /** The log file. */
    public Path path() {
        return path;
    }

    /**
     * Writes the header line at once (unbuffered), and forces it, the file and its directories
     * to disk when the sink was made to.
     *
     * @throws HeaderNotWritten when it cannot be written (or forced); the file has been deleted
     */
    @Override
    public void open(LogHeader header) throws HeaderNotWritten {
        try {
            file.write((header.toJson() + "\n").getBytes(StandardCharsets.UTF_8));
            if (syncHeader && created != null) {
                created.sync();
                created.syncDirectories();
            }
        } catch (IOException | RuntimeException e) {
            discard();
            throw new HeaderNotWritten(e instanceof IOException io ? IoMessages.describe(io)
                    : String.valueOf(e.getMessage()), e);
        }
    }

    @Override
    public void entry(LogEntry entry) throws IOException {
        out.write(entry);
    }

    /** Writes the entry of one line, message or raw, from the line's bytes. */
    void line(long tMs, Source from, LineBytes line) throws IOException {
        out.write(tMs, from, line);
    }

    @Override
    public void flush() throws IOException {
        out.flush();
    }

    /** Writes out what is buffered and forces the file to disk: one {@code fsync} for the group. */
    @Override
    public void sync() throws IOException {
        out.flush();
        if (created != null) {
            created.sync();
        }
    }

    @Override
    public void close() throws IOException {
        out.close();
    }

    /** Closes and deletes the file: the session did not start, so it leaves no log. */
    @Override
    public void discard() {
        if (created != null) {
            created.discard();
        }
    }

    /** Names the file, as messages about it do. */
    @Override
    public String toString() {
        return "the session log " + path;
    }
}
