package dev.stretto.proxy.record;

import dev.stretto.proxy.RecordingSink;
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
 * file size limit), the file is deleted again and {@link HeaderNotWritten} says why.
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

    /** The sink of a log file just created, and still empty. */
    public LogFileSink(SessionLogFile created) {
        this(created.path(), created.out(), created);
    }

    // Tests write to a stream of their own; path names it in messages.
    LogFileSink(Path path, OutputStream out) {
        this(path, out, null);
    }

    private LogFileSink(Path path, OutputStream file, SessionLogFile created) {
        this.path = path;
        this.file = file;
        this.out = new EntryWriter(file);
        this.created = created;
    }

    /** The log file. */
    public Path path() {
        return path;
    }

    /**
     * Writes the header line at once (unbuffered).
     *
     * @throws HeaderNotWritten when it cannot be written; the file has been deleted
     */
    @Override
    public void open(LogHeader header) throws HeaderNotWritten {
        try {
            file.write((header.toJson() + "\n").getBytes(StandardCharsets.UTF_8));
        } catch (IOException | RuntimeException e) {
            discard();
            throw new HeaderNotWritten(e instanceof IOException io ? Retention.describe(io)
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
