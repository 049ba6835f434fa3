package dev.stretto.proxy.session;

import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.trace.log.Source;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * What every line passes between being read and being forwarded, in either direction: it is
 * recorded first (record before forward), and once the session stops nothing passes any
 * more, so that a line forwarded is a line in the log, however the session ends. The threads
 * that read the host's and the server's lines pass it in passive mode; in active mode the actor records every
 * line through it before it queues the line for a side. With {@code --record-sync} "recorded"
 * means on disk: whoever writes a line out (the host's reader for the server's input, the
 * host's output, the active-mode server writer) takes a {@link #mark()} when it gets the line
 * and waits in {@link #awaitDurable} before the line leaves the process. It counts the lines it
 * lets through, by who wrote them. Thread-safe.
 */
final class ForwardGate implements Recorder {
    private static final long NONE = Long.MIN_VALUE;

    private final Recorder recorder;
    // Indexed by Source.ordinal().
    private final AtomicLongArray admitted = new AtomicLongArray(4);
    // System.nanoTime() when the server's first line was admitted, or NONE.
    private final AtomicLong firstServerLine = new AtomicLong(NONE);
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
        return !closed && counted(from, recorder.record(from, line), 1);
    }

    /** As {@link #record(Source, Line)}, running {@code beforeWaiting} before it waits for room. */
    @Override
    public boolean record(Source from, Line line, Runnable beforeWaiting) throws InterruptedException {
        return !closed && counted(from, recorder.record(from, line, beforeWaiting), 1);
    }

    /** As {@link #record(Source, Line)}, with the active-mode actor's stamp. */
    @Override
    public boolean record(Source from, Line line, long tMs) throws InterruptedException {
        return !closed && counted(from, recorder.record(from, line, tMs), 1);
    }

    /** Whether lines are recorded at all (not so for a session without a log or a listener). */
    @Override
    public boolean records() {
        return recorder.records();
    }

    /**
     * For a session that records nothing: lets {@code lines} lines through at once (bytes read
     * together, forwarded as they are); false once the gate is closed, when they must not be
     * forwarded.
     *
     * @throws IllegalStateException when lines are recorded: each must then pass on its own
     */
    boolean admit(Source from, int lines) {
        if (recorder.records()) {
            throw new IllegalStateException("recorded lines pass the gate one at a time");
        }
        return !closed && counted(from, true, lines);
    }

    /** Whether lines wait for the disk before they are forwarded ({@code --record-sync}). */
    @Override
    public boolean syncs() {
        return recorder.syncs();
    }

    @Override
    public long mark() {
        return recorder.mark();
    }

    @Override
    public boolean isDurable(long mark) {
        return recorder.isDurable(mark);
    }

    /** Waits until the lines {@code mark} covers are on disk, when the recorder syncs; see {@link Recorder}. */
    @Override
    public void awaitDurable(long mark) throws InterruptedException {
        recorder.awaitDurable(mark);
    }

    private boolean counted(Source from, boolean recorded, int lines) {
        if (recorded && lines > 0) {
            admitted.addAndGet(from.ordinal(), lines);
            if (from == Source.SERVER && firstServerLine.get() == NONE) {
                firstServerLine.compareAndSet(NONE, System.nanoTime());
            }
        }
        return recorded;
    }

    /** Lets nothing through any more and closes the recorder, which then writes out what it holds. */
    @Override
    public void close() {
        closed = true;
        recorder.close();
    }

    /** The lines let through so far. */
    SessionResult.LineCounts counts() {
        return new SessionResult.LineCounts(admitted.get(Source.CLIENT.ordinal()), admitted.get(Source.SERVER.ordinal()),
                admitted.get(Source.PROXY.ordinal()), admitted.get(Source.CONTEXT.ordinal()));
    }

    /** {@link System#nanoTime()} when the server's first line was let through, or {@link Long#MIN_VALUE}. */
    long firstServerLineNanos() {
        return firstServerLine.get();
    }
}
