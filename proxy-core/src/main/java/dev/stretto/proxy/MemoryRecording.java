package dev.stretto.proxy;

import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.SessionLog;
import java.util.ArrayList;
import java.util.List;

/**
 * A session recorded in memory: what its log file would hold, for harnesses and tests that
 * want the session without a file. One instance records one session.
 *
 * <pre>{@code
 * MemoryRecording recording = new MemoryRecording();
 * Proxy.run(ProxyConfig.builder(server).recordTo(recording).build(), fromAgent, toAgent);
 * Episode episode = Episode.of(recording.sessionLog());
 * }</pre>
 *
 * <p>Thread-safe: it may be read while the session runs, and each read is a snapshot.
 */
public final class MemoryRecording implements RecordingSink {
    // Guarded by this.
    private LogHeader header;
    // Guarded by this.
    private final List<LogEntry> entries = new ArrayList<>();
    // Guarded by this.
    private boolean closed;

    /** A recording that has not started. */
    public MemoryRecording() {
    }

    /** @throws IllegalStateException when this recording already holds a session */
    @Override
    public synchronized void open(LogHeader header) {
        if (this.header != null) {
            throw new IllegalStateException("a MemoryRecording records one session; this one has "
                    + this.header.session());
        }
        this.header = header;
    }

    @Override
    public synchronized void entry(LogEntry entry) {
        entries.add(entry);
    }

    @Override
    public synchronized void close() {
        closed = true;
    }

    /** Forgets the session that did not start: the recording is empty again. */
    @Override
    public synchronized void discard() {
        header = null;
        entries.clear();
        closed = false;
    }

    /** {@return the session's header, or null before the session starts} */
    public synchronized LogHeader header() {
        return header;
    }

    /** {@return the entries so far, in log order} */
    public synchronized List<LogEntry> entries() {
        return List.copyOf(entries);
    }

    /** {@return whether the session has ended (and so {@link #entries()} is complete)} */
    public synchronized boolean closed() {
        return closed;
    }

    /**
     * The session as trace-reader's model of a log file, to turn into an {@code Episode} or
     * write out ({@link SessionLog#toJsonLines()} gives the file's bytes).
     *
     * @return the header and the entries so far
     * @throws IllegalStateException before the session has started
     */
    public synchronized SessionLog sessionLog() {
        if (header == null) {
            throw new IllegalStateException("the session has not started");
        }
        return new SessionLog(header, entries);
    }

    @Override
    public String toString() {
        return "the in-memory recording";
    }
}
