package dev.stretto.proxy.session;

import dev.stretto.proxy.active.ActiveSession;
import dev.stretto.proxy.io.Line;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import dev.stretto.proxy.logging.Logger;

/**
 * The host's output, written by a thread of its own: a write to a pipe the host no longer
 * reads blocks for good and cannot be interrupted, and no thread of the session may be caught
 * in one, or the session could never end.
 *
 * <p>Threads. {@link ServerLines} calls {@link #write} (one caller at a time, under its lock,
 * so lines keep the log's order), or in active mode the actor calls {@link #offer}; either queues the line and
 * returns. The writer, a daemon thread named by {@link #start} and outside the session's
 * scope, takes the lines in order, writes
 * each with its terminator and flushes whenever it has caught up, so the host sees each line
 * as soon as it is complete. It ends after {@link #close()}, once the line it is writing is
 * written and flushed (the host never gets half a line from a session that ended); if the host
 * never reads again, it stays blocked in that write, the only thing left of the session, until
 * the host reads or closes its end (or the process exits).
 *
 * <p>Queue policy: bounded by {@value #CAPACITY} lines and {@value #BYTE_BUDGET} bytes (a line
 * larger than that takes the whole budget); a caller of {@link #write} waits for room,
 * interruptibly, which in turn stops the reader of the server's output. The actor never waits on a
 * side: {@link #offer} always queues, and the actor's mailbox takes no more of the server's
 * lines while {@link #hasRoom()} is false, so the bound is exceeded by at most what the actor
 * queues for one event (see {@code Mailbox}). After {@link #close()} lines are dropped. When
 * the host has closed its end (the write fails), that is said once and later lines are
 * dropped; the session still ends in the usual way.
 *
 * <p>With {@code --record-sync} each line is queued with the log's {@link ForwardGate#mark()}
 * (taken after the line was recorded), and the writer writes it out only once the log has it on
 * disk ({@link ForwardGate#awaitDurable}), flushing what it wrote before it waits; lines queued
 * meanwhile wait in the queue, so the log forces them together.
 */
final class HostOutput implements ActiveSession.HostWriter {
    static final int CAPACITY = 64;
    static final int BYTE_BUDGET = 16 * 1024 * 1024;


    private final OutputStream out;
    private final ForwardGate log;
    private final ReentrantLock lock = new ReentrantLock();
    // Signalled on every change below, for writers, the writer thread and awaitDelivered alike.
    private final Condition changed = lock.newCondition();
    private final CountDownLatch ended = new CountDownLatch(1);
    // Guarded by lock.
    private final ArrayDeque<Line> queue = new ArrayDeque<>();
    // Guarded by lock: the log's mark of each queued line, in the queue's order; null unless
    // the log syncs.
    private final ArrayDeque<Long> marks;
    // Writer thread only: the mark of the line take() returned last.
    private long takenMark;
    // Guarded by lock: bytes of the lines in the queue.
    private long queuedBytes;
    // Guarded by lock: the writer holds a line it has not yet written and flushed.
    private boolean busy;
    // Guarded by lock: when the host last took a line, or was last offered one after a quiet
    // spell; tells a host that reads slowly from one that stopped.
    private long lastProgressNanos = System.nanoTime();
    // Guarded by lock.
    private boolean closed;
    // Guarded by lock.
    private boolean broken;
    // Guarded by lock: writers no longer wait for room (the session is over), and the lines of
    // those that would have are counted here, as not delivered.
    private boolean releasing;
    private int released;
    // Written under lock, read without it by the actor's mailbox: the queue is under its bound,
    // or lines are dropped anyway.
    private volatile boolean room = true;
    // Active mode: runs after the queue may have made room (the mailbox's wake-up). Set
    // before any line comes.
    private volatile Runnable onRoom = () -> {
    };

    private HostOutput(OutputStream out, ForwardGate log) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
        this.log = log;
        this.marks = log.syncs() ? new ArrayDeque<>() : null;
    }

    /**
     * Starts the writer thread, named {@code threadName}, for {@code out}; the lines it gets have
     * passed {@code log}, which says whether they must wait for the disk.
     */
    static HostOutput start(OutputStream out, String threadName, ForwardGate log) {
        HostOutput output = new HostOutput(out, log);
        Thread.ofPlatform().daemon().name(threadName).start(Logger.carry(output::writeAll));
        return output;
    }

    /** Queues one line for the host, waiting while the queue is full; dropped once closed or broken. */
    void write(Line line) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (!closed && !broken && !releasing && !queue.isEmpty()
                    && (queue.size() >= CAPACITY || queuedBytes + line.length() > BYTE_BUDGET)) {
                changed.await();
            }
            if (closed || broken) {
                return;
            }
            if (releasing) {
                released++;
                return;
            }
            add(line);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Active mode: queues one line for the host without waiting, over the bound if need be;
     * dropped once closed or broken.
     */
    @Override
    public void offer(byte[] line, boolean newline) {
        lock.lock();
        try {
            if (!closed && !broken) {
                add(new Line(line, newline));
            }
        } finally {
            lock.unlock();
        }
    }

    // Holding lock.
    private void add(Line line) {
        queue.add(line);
        if (marks != null) {
            marks.add(log.mark());
        }
        queuedBytes += line.length();
        updateRoom();
        changed.signalAll();
    }

    // Holding lock, after every change of the queue or of the flags.
    private void updateRoom() {
        room = closed || broken || queue.size() < CAPACITY && queuedBytes < BYTE_BUDGET;
    }

    @Override
    public boolean hasRoom() {
        return room;
    }

    @Override
    public void onRoom(Runnable wake) {
        onRoom = wake;
    }

    /**
     * The session is over: a writer waiting for room returns at once, and so does any later
     * one; their lines are not queued but counted as not delivered ({@link #awaitDelivered}).
     * Lines queued already are still delivered.
     */
    void releaseWaiting() {
        lock.lock();
        try {
            releasing = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every line queued so far has been written and flushed to the host, giving up
     * once the host has taken nothing for {@code stall} (counted from the last line it took).
     *
     * @return the number of lines that did not reach the host: 0 when all did (or the host has
     *         closed its end, when there is nobody to deliver to); those of writers released by
     *         {@link #releaseWaiting()} count
     */
    int awaitDelivered(Duration stall) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (!broken && (busy || !queue.isEmpty())) {
                long left = lastProgressNanos + stall.toNanos() - System.nanoTime();
                if (left <= 0) {
                    return queue.size() + (busy ? 1 : 0) + released;
                }
                changed.awaitNanos(left);
            }
            return broken ? 0 : released;
        } finally {
            lock.unlock();
        }
    }

    /**
     * How long the host has taken nothing while lines wait for it (counted as for {@link
     * #awaitDelivered}); 0 when nothing waits.
     */
    long stalledNanos() {
        lock.lock();
        try {
            return busy || !queue.isEmpty() ? System.nanoTime() - lastProgressNanos : 0;
        } finally {
            lock.unlock();
        }
    }

    /** No more lines: those still queued are dropped; the writer ends after the line it is writing. */
    void close() {
        lock.lock();
        try {
            closed = true;
            clearQueue();
            updateRoom();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // Holding lock.
    private void clearQueue() {
        queue.clear();
        if (marks != null) {
            marks.clear();
        }
        queuedBytes = 0;
    }

    /** Waits up to {@code timeout} for the writer to end after {@link #close()}; true when it has. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    // The writer thread.
    private void writeAll() {
        try {
            Line next;
            while ((next = take()) != null) {
                if (marks != null && !log.isDurable(takenMark)) {
                    // What the host may have already goes out before the wait for the disk.
                    flush();
                    log.awaitDurableUninterruptibly(takenMark);
                }
                boolean flushed = writeOut(next);
                lock.lock();
                try {
                    lastProgressNanos = System.nanoTime();
                    busy = !flushed;
                    changed.signalAll();
                } finally {
                    lock.unlock();
                }
            }
            // Closed: the host gets the rest of the line it may have got only part of.
            flush();
        } finally {
            ended.countDown();
        }
    }

    // The next line, or null once closed with nothing left.
    private Line take() {
        Line next;
        lock.lock();
        try {
            while (queue.isEmpty() && !closed) {
                changed.awaitUninterruptibly();
            }
            next = queue.poll();
            if (next != null) {
                if (marks != null) {
                    takenMark = marks.poll();
                }
                queuedBytes -= next.length();
                if (!busy) {
                    // After a quiet spell the host's time starts now, not at its last line.
                    lastProgressNanos = System.nanoTime();
                }
                busy = true;
                updateRoom();
                changed.signalAll();
            }
        } finally {
            lock.unlock();
        }
        if (next != null) {
            onRoom.run();
        }
        return next;
    }

    /** Writes one line, and flushes when no other line waits; true when nothing is left unflushed. */
    private boolean writeOut(Line line) {
        boolean last;
        lock.lock();
        try {
            if (broken) {
                return true;
            }
            last = queue.isEmpty();
        } finally {
            lock.unlock();
        }
        try {
            line.writeTo(out);
            if (line.terminated()) {
                out.write('\n');
            }
        } catch (IOException e) {
            fail();
            return true;
        }
        return last && flush();
    }

    private boolean flush() {
        try {
            out.flush();
            return true;
        } catch (IOException e) {
            fail();
            return true;
        }
    }

    private void fail() {
        lock.lock();
        try {
            if (broken) {
                return;
            }
            broken = true;
            clearQueue();
            updateRoom();
            changed.signalAll();
        } finally {
            lock.unlock();
        }
        onRoom.run();
        Logger.warn("the host no longer reads the proxy's output; the server's messages are dropped");
    }
}
