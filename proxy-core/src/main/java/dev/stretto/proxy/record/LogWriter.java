package dev.stretto.proxy.record;

import dev.stretto.proxy.io.Line;
import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Source;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.Callable;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import org.tinylog.Logger;

/**
 * Writes a session log's entries on a thread of its own, so that forwarding never waits for
 * the disk.
 *
 * <p>Threads and ownership. Any pump calls {@link #record}: under {@code lock} it reads the
 * clock (in active mode the actor's stamp comes with the line) and enqueues the line, so the
 * order of the queue is the order of the stamps and {@code t_ms} never decreases down the log. One thread runs {@link #call()}: it alone
 * classifies lines (message or raw), formats entries and touches {@code out}. It flushes
 * whenever the queue is empty, so a crash loses at most what is still queued.
 *
 * <p>Queue policy: bounded twice, by lines and by bytes (lines of many megabytes are normal,
 * so a bound on lines alone could hold gigabytes while a disk stalls). When either is
 * reached the recording pump waits; nothing is dropped. A line larger than the whole byte
 * budget takes all of it. A wait of {@link #STALL_WARNING} or more (a disk that stalls, not
 * one that is merely a moment behind) is reported once per session. A write that fails, or
 * an entry that cannot be made, is reported once, as what it is, and no stall is reported
 * after it: the writer then keeps emptying the queue without writing, so the pumps never
 * wait on a broken log and forwarding goes on.
 *
 * <p>Ending: {@link #close()} stops accepting lines and queues an end mark; the writer
 * writes everything before it, flushes, closes the file and returns. Interrupts do not stop
 * the writer early (the session's log must be complete when the session returns); only the
 * end mark does.
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

    private final Path path;
    private final OutputStream out;
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
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private boolean closed;
    // Guarded by lock.
    private boolean warnedFull;
    // Written by the writer thread only; read by recorders, which report no stall once it is set.
    private volatile boolean failed;

    /**
     * A writer of entries to {@code out} (the log at {@code path}, named in messages), whose
     * {@code t_ms} counts from {@code startNanos} on the {@code nanoTime} clock.
     */
    public LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos) {
        this(path, out, nanoTime, startNanos, List.of());
    }

    /**
     * A writer like {@link #LogWriter(Path, OutputStream, LongSupplier, long)} that writes
     * {@code <redacted>} in place of each of {@code secrets} in the lines it logs (see
     * {@link LogScrubber}): what the server echoes of the proxy's own credentials.
     */
    public LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos, List<String> secrets) {
        this(path, out, nanoTime, startNanos, DEFAULT_CAPACITY, DEFAULT_BYTE_BUDGET, () -> {
        }, WARN, ERROR, new LogScrubber(secrets));
    }

    // Tests pass a small capacity and a hook that runs on the writer thread after each flush.
    LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos, int capacity, Runnable afterFlush) {
        this(path, out, nanoTime, startNanos, capacity, DEFAULT_BYTE_BUDGET, afterFlush, WARN, ERROR,
                LogScrubber.NONE);
    }

    // Tests also pass a small byte budget, and see the warnings and errors the writer reports.
    LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos, int capacity, int byteBudget,
              Runnable afterFlush, Consumer<String> warn, Consumer<String> error) {
        this(path, out, nanoTime, startNanos, capacity, byteBudget, afterFlush, warn, error, LogScrubber.NONE);
    }

    private LogWriter(Path path, OutputStream out, LongSupplier nanoTime, long startNanos, int capacity,
                      int byteBudget, Runnable afterFlush, Consumer<String> warn, Consumer<String> error,
                      LogScrubber scrubber) {
        this.path = path;
        this.out = new BufferedOutputStream(out, 64 * 1024);
        this.nanoTime = nanoTime;
        this.startNanos = startNanos;
        this.queue = new ArrayBlockingQueue<>(capacity);
        this.byteBudget = byteBudget;
        this.queuedBytes = new Semaphore(byteBudget);
        this.afterFlush = afterFlush;
        this.warn = warn;
        this.error = error;
        this.scrubber = scrubber;
    }

    @Override
    public boolean record(Source from, Line line) throws InterruptedException {
        return stampAndEnqueue(from, line, -1);
    }

    /** Active mode: the line with the actor's stamp. */
    @Override
    public boolean record(Source from, Line line, long tMs) throws InterruptedException {
        return stampAndEnqueue(from, line, tMs);
    }

    // The clock is read under the lock, with the enqueue, unless the caller stamped the line (tMs >= 0).
    private boolean stampAndEnqueue(Source from, Line line, long tMs) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            if (closed) {
                return false;
            }
            long stamp = tMs >= 0 ? tMs : Math.max(0, (nanoTime.getAsLong() - startNanos) / 1_000_000);
            enqueue(new Item(stamp, from, line.bytes(), Math.min(line.bytes().length, byteBudget)));
            return true;
        } finally {
            lock.unlock();
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
            warn.accept("the session log " + path + " is falling behind (slow disk?); forwarding waits for it,"
                    + " nothing is dropped");
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
            }
        } finally {
            try {
                out.close();
            } catch (IOException e) {
                fail(e);
            }
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
        if (failed) {
            return;
        }
        byte[] entry;
        try {
            String json = new LogEntry(item.tMs, item.from, scrubber.scrub(LineClassifier.classify(item.bytes))).toJson();
            entry = json.getBytes(StandardCharsets.UTF_8);
        } catch (RuntimeException | OutOfMemoryError e) {
            // A line too big for the heap: the log stops here, but this thread must go on
            // emptying the queue or the pumps would wait on it.
            fail(e.getMessage() != null ? e.getMessage() : e.getClass().getSimpleName());
            return;
        }
        try {
            out.write(entry);
            out.write('\n');
        } catch (IOException e) {
            fail(e);
        }
    }

    private void flush() {
        if (failed) {
            return;
        }
        try {
            out.flush();
        } catch (IOException e) {
            fail(e);
            return;
        }
        afterFlush.run();
    }

    private void fail(IOException e) {
        fail(Retention.describe(e));
    }

    private void fail(String why) {
        if (!failed) {
            failed = true;
            error.accept("cannot write the session log " + path + " (" + why + "); forwarding goes on, the rest"
                    + " of the session is not recorded");
        }
    }

    private record Item(long tMs, Source from, byte[] bytes, int cost) {
    }
}
