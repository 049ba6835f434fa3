package dev.stretto.proxy.record;

import dev.stretto.proxy.io.Line;
import dev.stretto.trace.log.Source;

/**
 * Where each line goes before it is forwarded: the pumps hand it over in passive mode, the
 * actor in active mode. Thread-safe: every pump calls it.
 */
public interface Recorder {

    /** Records nothing: a session without {@code --record}. */
    Recorder NONE = new Recorder() {
        @Override
        public boolean record(Source from, Line line) {
            return true;
        }

        @Override
        public boolean records() {
            return false;
        }

        @Override
        public void close() {
        }
    };

    /**
     * Whether lines are recorded at all: false only for {@link #NONE}, when a passive session
     * may forward bytes as they come instead of line by line. By default true.
     */
    default boolean records() {
        return true;
    }

    /**
     * Stamps {@code line} with the time now and queues it for the log. Returns as soon as
     * it is queued; waits only while the queue is full. Lines recorded after {@link #close()}
     * are ignored.
     *
     * @return true when the line is queued (or nothing is recorded); false after {@link
     *         #close()}, when the line must not be forwarded either: a forwarded line is in the log
     */
    boolean record(Source from, Line line) throws InterruptedException;

    /**
     * Queues {@code line} with the stamp {@code tMs} (milliseconds after the session started)
     * instead of the time now: for the active-mode actor, which stamps lines itself because
     * the session's episode needs the same times the log has. The caller keeps the stamps
     * from decreasing. By default the stamp is ignored and the line is stamped now.
     *
     * @return as {@link #record(Source, Line)}
     */
    default boolean record(Source from, Line line, long tMs) throws InterruptedException {
        return record(from, line);
    }

    /**
     * As {@link #record(Source, Line)}, but when the line would have to wait for room, {@code
     * beforeWaiting} runs first (on the caller's thread, holding nothing of the recorder's):
     * a sender that batches its writes flushes them there, so that no line it sent sits in a
     * buffer while it waits (what the log waits for may be that line's answer). By default the
     * line is recorded as by {@link #record(Source, Line)}.
     */
    default boolean record(Source from, Line line, Runnable beforeWaiting) throws InterruptedException {
        return record(from, line);
    }

    /**
     * Whether the recorder forces lines to disk before they may be forwarded ({@code
     * --record-sync}): only then does {@link #awaitDurable} ever wait. By default false.
     */
    default boolean syncs() {
        return false;
    }

    /**
     * A mark of the log so far: it covers every line recorded (by any thread) before the call.
     * A forwarder takes it after recording a line and hands it to {@link #awaitDurable} before
     * the line leaves the process. By default 0, which covers nothing and waits for nothing.
     */
    default long mark() {
        return 0;
    }

    /**
     * Whether every line that {@code mark} covers is on disk already, so that {@link
     * #awaitDurable} would return at once: always, when the recorder does not {@link #syncs()}.
     */
    default boolean isDurable(long mark) {
        return true;
    }

    /**
     * When the recorder {@link #syncs()}: waits until every line that {@code mark} covers is
     * written to the log and forced to disk, or until the log can take no more (it failed, and
     * said so, or it has ended). Otherwise returns at once.
     */
    default void awaitDurable(long mark) throws InterruptedException {
    }

    /** No more lines: what is queued is written out, then the log is closed. Idempotent. */
    void close();
}
