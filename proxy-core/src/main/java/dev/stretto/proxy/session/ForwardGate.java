package dev.stretto.proxy.session;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.trace.log.Source;

/**
 * What every line passes between being read and being forwarded, in either direction: it is
 * recorded first (record before forward), and once the session stops nothing passes any
 * more, so that a line forwarded is a line in the log, however the session ends. The client
 * pump and the server sink pass it in passive mode; in active mode the actor records every
 * line through it before it queues the line for a side. Thread-safe.
 */
final class ForwardGate implements Recorder {
    private final Recorder recorder;
    private volatile boolean closed;

    ForwardGate(Recorder recorder) {
        this.recorder = recorder;
    }

    /**
     * Records {@code line}; true when it may now be forwarded. False once the gate is closed:
     * the line is then neither recorded nor to be forwarded.
     */
    @Override
    public boolean record(Source from, Line line) throws InterruptedException {
        return !closed && recorder.record(from, line);
    }

    /** As {@link #record(Source, Line)}, with the active-mode actor's stamp. */
    @Override
    public boolean record(Source from, Line line, long tMs) throws InterruptedException {
        return !closed && recorder.record(from, line, tMs);
    }

    /** Lets nothing through any more and closes the recorder, which then writes out what it holds. */
    @Override
    public void close() {
        closed = true;
        recorder.close();
    }
}
