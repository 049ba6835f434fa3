package dev.stretto.proxy.record;

import dev.stretto.proxy.RecordingSink;
import dev.stretto.proxy.SessionListener;
import dev.stretto.proxy.io.IoMessages;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.redact.LogScrubber;
import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import dev.stretto.proxy.logging.Logger;

/**
 * Writes a session's log entries to its {@link RecordingSink}s (the session log file, a
 * program's own) and hands each line to its {@link SessionListener}, on a thread of its own,
 * so that forwarding never waits for the disk or the listener.
 *
 * <p>Threads and ownership. Any pump calls {@link #record}: under {@code lock} it reads the
 * clock (in active mode the actor's stamp comes with the line) and enqueues the line, so the
 * order of the queue is the order of the stamps and {@code t_ms} never decreases down the log.
 * One thread runs {@link #call()}: it alone classifies lines (message or raw), makes entries,
 * and calls the sinks and the listener. It flushes the sinks whenever the queue is empty, so a
 * crash of the process (SIGKILL) loses at most what is still queued and what the sinks buffer
 * (the log file: up to {@link dev.stretto.trace.log.EntryWriter}'s 256 KiB).
 *
 * <p>Syncing ({@code --record-sync}): lines are forced to disk before they are forwarded. A
 * recorder still only queues its line; the forwarder takes a {@link #mark()} and waits in
 * {@link #awaitDurable} before the line leaves the process, so a thread that reads lines can go
 * on recording the next ones meanwhile. Group commit: the writer writes every line it finds
 * queued, then has each sink {@link RecordingSink#sync() sync} them in one go (the log file:
 * one {@code fsync}), and only then lets the forwarders of those lines go on. A group is at most
 * the queue's capacity. Once the writer has ended, or no sink and no listener is left, nobody
 * waits for the disk any more.
 *
 * <p>Queue policy: bounded twice, by lines and by bytes (lines of many megabytes are normal,
 * so a bound on lines alone could hold gigabytes while a disk stalls). When either is
 * reached the recording pump waits; nothing is dropped. A line larger than the whole byte
 * budget takes all of it. A wait of {@link #STALL_WARNING} or more (a disk that stalls, not
 * one that is merely a moment behind) is reported once per session. A sink whose write fails,
 * or an entry that cannot be made, is reported once, as what it is, and that sink gets nothing
 * more; once no sink and no listener is left, the writer keeps emptying the queue without
 * writing and no stall is reported, so the pumps never wait on a broken log and forwarding
 * goes on. A listener that throws (anything, an {@link Error} too) is reported once and gets no
 * more lines. Should the writer's thread end early all the same, recording stops at once: the
 * queue is emptied, and neither the pumps nor {@link #close()} ever wait for room again.
 *
 * <p>Ending: {@link #close()} stops accepting lines and queues an end mark; the writer
 * writes everything before it, flushes and closes the sinks, and returns. Interrupts do not
 * stop the writer early (the session's log must be complete when the session returns); only
 * the end mark does.
 */
public final class LogWriter implements Recorder, Callable<Void> {

    /** How many lines may wait for the disk before the pumps wait too. */
    public static final int DEFAULT_CAPACITY = 1024;

    /** How many bytes of lines may wait for the disk before the pumps wait too. */
    public static final int DEFAULT_BYTE_BUDGET = 64 * 1024 * 1024;

    /** How long a pump waits for room in the queue before the stall is reported. */
    static final Duration STALL_WARNING = Duration.ofSeconds(1);

    private static final Item END = new Item(-1, null, null, 0);
    private static final Consumer<String> WARN = message -> Logger.warn((Object) message);
    private static final Consumer<String> ERROR = message -> Logger.error((Object) message);
    private static final SessionListener NO_LISTENER = new SessionListener() {
    };

    private final LongSupplier nanoTime;
    private final long startNanos;
    private final BlockingQueue<Item> queue;
    // Permits are bytes of queued lines: taken by a recorder (under lock), given back by the
    // writer once a line is written.
    private final Semaphore queuedBytes;
    private final int byteBudget;
    private final Runnable afterFlush;
    private final Consumer<String> warn;
    private final Consumer<String> error;
    private final LogScrubber scrubber;
    private final String stallWarning;
    private final boolean sync;
    private final int groupLimit;
    private final ReentrantLock lock = new ReentrantLock();
    // Syncing: the lines queued so far (written under lock, with the enqueue); the lines the
    // sinks have synced (written by the writer thread; Long.MAX_VALUE once it has ended), and
    // the lock and condition forwarders wait on for it to grow.
    private volatile long recorded;
    private volatile long durable;
    private final ReentrantLock durableLock = new ReentrantLock();
    private final Condition durableChanged = durableLock.newCondition();
    // Writer thread only, when syncing: lines written to the sinks, and how many of them were synced.
    private long written;
    private long synced;
    // Writer thread only: the sinks still written to, and the listener (NO_LISTENER once it failed).
    private final List<RecordingSink> sinks;
    // The same sinks, to go through once per line without copying the list; renewed when one fails.
    private RecordingSink[] current;
    private SessionListener listener;
    // Guarded by lock.
    private boolean closed;
    // Guarded by lock.
    private boolean warnedFull;
    // Written by the writer thread only; read by recorders, which report no stall once it is
    // set: nothing is left to write to, so the queue drains at once.
    private volatile boolean failed;
    // Set by the writer thread when it returns: no room will ever be made in the queue again.
    private volatile boolean writerGone;

    /**
     * A writer of entries to {@code sinks}, all open already, and of lines to {@code
     * listener} (null for none), whose {@code t_ms} counts from {@code startNanos} on the
     * {@code nanoTime} clock. The sinks get {@code <redacted>} in place of each of {@code
     * secrets} in the lines (see {@link LogScrubber}): what the server echoes of the proxy's
     * own credentials.
     */
    public LogWriter(List<RecordingSink> sinks, SessionListener listener, LongSupplier nanoTime, long startNanos,
                     List<String> secrets) {
        this(sinks, listener, nanoTime, startNanos, secrets, false);
    }

    /**
     * As {@link #LogWriter(List, SessionListener, LongSupplier, long, List)}; with {@code sync}
     * ({@code --record-sync}), every line is synced by the sinks before {@link #awaitDurable}
     * lets its forwarder go on (see the class comment).
     */
    public LogWriter(List<RecordingSink> sinks, SessionListener listener, LongSupplier nanoTime, long startNanos,
                     List<String> secrets, boolean sync) {
        this(sinks, listener, nanoTime, startNanos, DEFAULT_CAPACITY, DEFAULT_BYTE_BUDGET, () -> {
        }, WARN, ERROR, new LogScrubber(secrets), sync);
    }

    /**
     * Keeps {@code secret} out of the entries of every line written from now on, as the secrets
     * given at construction: a token the proxy obtained during the session. Thread-safe.
     */
    public void addSecret(String secret) {
        scrubber.add(secret);
    }

    // Tests write one log to a stream, with a small capacity and a hook that runs on the writer
    // thread after each flush.
    LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos, int capacity, Runnable afterFlush) {
        this(List.of(new LogFileSink(path, out)), null, nanoTime, startNanos, capacity, DEFAULT_BYTE_BUDGET, afterFlush,
                WARN, ERROR, LogScrubber.NONE, false);
    }

    // Tests also pass a small byte budget, and see the warnings and errors the writer reports.
    LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos, int capacity, int byteBudget,
              Runnable afterFlush, Consumer<String> warn, Consumer<String> error) {
        this(List.of(new LogFileSink(path, out)), null, nanoTime, startNanos, capacity, byteBudget, afterFlush, warn,
                error, LogScrubber.NONE, false);
    }

    // Tests of syncing: sinks of their own, a small capacity, and the errors the writer reports.
    LogWriter(List<RecordingSink> sinks, int capacity, boolean sync, Consumer<String> error) {
        this(sinks, null, System::nanoTime, System.nanoTime(), capacity, DEFAULT_BYTE_BUDGET, () -> {
        }, WARN, error, LogScrubber.NONE, sync);
    }

    private LogWriter(List<RecordingSink> sinks, SessionListener listener, LongSupplier nanoTime, long startNanos,
                      int capacity, int byteBudget, Runnable afterFlush, Consumer<String> warn, Consumer<String> error,
                      LogScrubber scrubber, boolean sync) {
        this.sinks = new ArrayList<>(sinks);
        this.current = sinks.toArray(new RecordingSink[0]);
        this.listener = listener == null ? NO_LISTENER : listener;
        this.nanoTime = nanoTime;
        this.startNanos = startNanos;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.byteBudget = byteBudget;
        this.queuedBytes = new Semaphore(byteBudget);
        this.afterFlush = afterFlush;
        this.warn = warn;
        this.error = error;
        this.scrubber = scrubber;
        this.sync = sync;
        this.groupLimit = capacity;
        this.stallWarning = sinks.size() == 1 && listener == null && sinks.getFirst() instanceof LogFileSink file
                ? file + " is falling behind (slow disk?); forwarding waits for it, nothing is dropped"
                : "the session's recording is falling behind (a slow disk, sink or listener?); forwarding waits for"
                        + " it, nothing is dropped";
    }

    @Override
    public boolean record(Source from, Line line) throws InterruptedException {
        return stampAndEnqueue(from, line, -1, null);
    }

    /** Active mode: the line with the actor's stamp. */
    @Override
    public boolean record(Source from, Line line, long tMs) throws InterruptedException {
        return stampAndEnqueue(from, line, tMs, null);
    }

    @Override
    public boolean record(Source from, Line line, Runnable beforeWaiting) throws InterruptedException {
        return stampAndEnqueue(from, line, -1, beforeWaiting);
    }

    // The clock is read under the lock, with the enqueue, unless the caller stamped the line
    // (tMs >= 0). When the line would wait and beforeWaiting is given, it runs first, without
    // the lock (it may block: a flush to a server that waits for its answers to be taken).
    private boolean stampAndEnqueue(Source from, Line line, long tMs, Runnable beforeWaiting)
            throws InterruptedException {
        int cost = (int) Math.min(line.length(), byteBudget);
        lock.lockInterruptibly();
        try {
            if (closed) {
                return false;
            }
            // Only holders of the lock take room, so room seen here is still there below.
            if (beforeWaiting == null || queue.remainingCapacity() > 0 && queuedBytes.availablePermits() >= cost) {
                long stamp = tMs >= 0 ? tMs : Math.max(0, (nanoTime.getAsLong() - startNanos) / 1_000_000);
                enqueue(new Item(stamp, from, line, cost));
                if (sync) {
                    // Only holders of the lock write it: the count is the queue's order.
                    recorded = recorded + 1;
                }
                return true;
            }
        } finally {
            lock.unlock();
        }
        beforeWaiting.run();
        return stampAndEnqueue(from, line, tMs, null);
    }

    @Override
    public boolean syncs() {
        return sync;
    }

    @Override
    public long mark() {
        return sync ? recorded : 0;
    }

    @Override
    public boolean isDurable(long mark) {
        return !sync || durable >= mark;
    }

    @Override
    public void awaitDurable(long mark) throws InterruptedException {
        if (!sync || durable >= mark) {
            return;
        }
        durableLock.lockInterruptibly();
        try {
            while (durable < mark) {
                durableChanged.await();
            }
        } finally {
            durableLock.unlock();
        }
    }

    // Writer thread: the first n lines are synced (or, with Long.MAX_VALUE, nobody waits any more).
    private void publishDurable(long n) {
        durableLock.lock();
        try {
            durable = n;
            durableChanged.signalAll();
        } finally {
            durableLock.unlock();
        }
    }

    @Override
    public void close() {
        lock.lock();
        boolean interrupted = false;
        try {
            if (closed) {
                return;
            }
            closed = true;
            // The end mark must get in even when the closing thread is being interrupted,
            // or the writer would wait for it forever.
            while (true) {
                try {
                    enqueue(END);
                    break;
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            lock.unlock();
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    // Holding lock: waiting here keeps every other recorder waiting too, which is what keeps
    // the log in stamp order.
    private void enqueue(Item item) throws InterruptedException {
        if (writerGone) {
            return;
        }
        long stall = STALL_WARNING.toNanos();
        if (!queuedBytes.tryAcquire(item.cost, stall, TimeUnit.NANOSECONDS)) {
            warnStalled();
            queuedBytes.acquire(item.cost);
        }
        if (!queue.offer(item, stall, TimeUnit.NANOSECONDS)) {
            warnStalled();
            queue.put(item);
        }
    }

    // A full disk fails the write at once and the writer then empties the queue: its error is
    // the one message, since forwarding never waited long enough to report a stall.
    private void warnStalled() {
        if (!warnedFull && !failed) {
            warnedFull = true;
            warn.accept(stallWarning);
        }
    }

    /** The writer loop; returns once {@link #close()} was called and everything before it is written. */
    @Override
    public Void call() {
        try {
            while (true) {
                Item item = queue.poll();
                if (item == null) {
                    flush();
                    item = takeUninterruptibly();
                }
                if (item == END) {
                    flush();
                    return null;
                }
                write(item);
                queuedBytes.release(item.cost);
                if (sync && ++written - synced >= groupLimit) {
                    // A group ends when the queue is empty, or at the latest here: forwarders
                    // that wait are never kept waiting by lines queued after theirs.
                    flush();
                }
            }
        } finally {
            if (sync) {
                publishDurable(Long.MAX_VALUE);
            }
            // Normally after the end mark, with nothing behind it; after a failure, whoever
            // waits for room (a pump, or close() with its end mark) is let in, and no one waits again.
            writerGone = true;
            failed = true;
            queue.clear();
            queuedBytes.release(byteBudget);
            for (RecordingSink sink : List.copyOf(sinks)) {
                try {
                    sink.close();
                } catch (IOException | RuntimeException e) {
                    report(sink, e);
                }
            }
            sinks.clear();
            current = new RecordingSink[0];
        }
    }

    private Item takeUninterruptibly() {
        boolean interrupted = false;
        try {
            while (true) {
                try {
                    return queue.take();
                } catch (InterruptedException e) {
                    interrupted = true;
                }
            }
        } finally {
            if (interrupted) {
                Thread.currentThread().interrupt();
            }
        }
    }

    private void write(Item item) {
        if (listener != NO_LISTENER) {
            try {
                // The listener's line is one array: a line read in pieces is joined for it.
                listener.line(item.tMs, item.from, item.line.bytes());
            } catch (Throwable e) {
                // A listener's bug, whatever it throws, must not end this thread: the pumps
                // would wait for room in the queue forever.
                listener = NO_LISTENER;
                warn.accept("the session listener failed (" + describe(e) + "); it gets no more lines, the session"
                        + " goes on");
                Logger.debug(e, "listener failure");
                updateFailed();
            }
        }
        // The log file writes the entry from the line's bytes, unless a secret may have to be
        // scrubbed from it; other sinks take an entry, made once for all of them.
        boolean scrub = scrubber.mightChange(item.line);
        LogEntry entry = null;
        for (RecordingSink sink : current) {
            try {
                if (sink instanceof LogFileSink file && !scrub) {
                    file.line(item.tMs, item.from, item.line);
                    continue;
                }
                if (entry == null) {
                    entry = entry(item);
                    if (entry == null) {
                        return;
                    }
                }
                sink.entry(entry);
            } catch (Throwable e) {
                fail(sink, e);
            }
        }
    }

    // The entry of a line as sinks take it; null when it cannot be made, and then every sink has failed.
    private LogEntry entry(Item item) {
        try {
            return new LogEntry(item.tMs, item.from, scrubber.scrub(LineClassifier.classify(item.line)));
        } catch (RuntimeException | OutOfMemoryError e) {
            // A line too big for the heap: the log stops here, but this thread must go on
            // emptying the queue or the pumps would wait on it.
            for (RecordingSink sink : current) {
                fail(sink, e);
            }
            return null;
        }
    }

    private void flush() {
        if (sync) {
            syncGroup();
        } else {
            for (RecordingSink sink : current) {
                try {
                    sink.flush();
                } catch (Throwable e) {
                    fail(sink, e);
                }
            }
        }
        if (!failed) {
            afterFlush.run();
        }
    }

    // Syncing: the lines written since the last group are synced by every sink, then their
    // forwarders may go on. A sink that fails here is reported and dropped as in write(); the
    // others' lines still count as synced.
    private void syncGroup() {
        if (written == synced) {
            return;
        }
        for (RecordingSink sink : current) {
            try {
                sink.sync();
            } catch (Throwable e) {
                fail(sink, e);
            }
        }
        synced = written;
        publishDurable(written);
    }

    // Reported once per sink: it gets nothing more, and is closed quietly.
    private void fail(RecordingSink sink, Throwable e) {
        if (!sinks.remove(sink)) {
            return;
        }
        current = sinks.toArray(new RecordingSink[0]);
        report(sink, e);
        try {
            sink.close();
        } catch (IOException | RuntimeException ignored) {
            // It has failed already, and said so.
        }
        updateFailed();
    }

    /**
     * How messages name a sink: its {@code toString()}, or {@code the recording sink <class>}
     * when it has none of its own.
     */
    public static String name(RecordingSink sink) {
        try {
            if (sink.getClass().getMethod("toString").getDeclaringClass() != Object.class) {
                return sink.toString();
            }
        } catch (NoSuchMethodException | RuntimeException e) {
            // Every object has a toString; a security manager of old cannot refuse it any more.
        }
        return "the recording sink " + sink.getClass().getName();
    }

    private void report(RecordingSink sink, Throwable e) {
        error.accept("cannot write " + name(sink) + " (" + describe(e) + "); forwarding goes on, the rest of the session"
                + " is not recorded" + (sink instanceof LogFileSink ? "" : " there"));
    }

    private void updateFailed() {
        failed = sinks.isEmpty() && listener == NO_LISTENER;
    }

    private static String describe(Throwable e) {
        if (e instanceof IOException io) {
            return IoMessages.describe(io);
        }
        return e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName();
    }

    private record Item(long tMs, Source from, Line line, int cost) {
    }
}
