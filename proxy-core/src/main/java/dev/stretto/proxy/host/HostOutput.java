package dev.stretto.proxy.host;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineRun;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.record.Recorder;
import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import dev.stretto.proxy.logging.Logger;

/**
 * The host's output, written by a thread of its own: a write to a pipe the host no longer
 * reads blocks for good and cannot be interrupted, and no thread of the session may be caught
 * in one, or the session could never end.
 *
 * <p>Threads. In passive mode the session's {@code ServerLines} calls {@link #put} (one caller
 * at a time, under its lock, so lines keep the log's order), in active mode the actor does;
 * either queues the line and returns. When nothing is recorded, an item is a run of lines (all
 * the whole lines of one read of the server's output), written in one go. The writer, a daemon thread named by {@link #start} and
 * outside the session's scope, takes the lines in order, writes each with its terminator and
 * flushes whenever it has caught up, so the host sees each line as soon as it is complete. It
 * ends after {@link #close()}, once the line it is writing is written and flushed (the host
 * never gets half a line from a session that ended); if the host never reads again, it stays
 * blocked in that write, the only thing left of the session, until the host reads or closes
 * its end (or the process exits).
 *
 * <p>Queue policy: a {@link LineQueue} bounded as one side is ({@link LineQueue.Bound#SIDE}).
 * In passive mode it waits ({@link LineQueue.Policy#WAIT}): a caller of {@link #put} waits for
 * room, interruptibly, which in turn stops the reader of the server's output. In active mode it
 * gates ({@link LineQueue.Policy#GATE}): the actor never waits on a side, so {@code put} always
 * queues, and the actor's mailbox takes no more of the server's lines while {@link #hasRoom()}
 * is false. After {@link #close()} lines are dropped. When the host has closed its end (the
 * write fails), that is said once and later lines are dropped; the session still ends in the
 * usual way.
 *
 * <p>With {@code --record-sync} each line is queued with the log's {@link Recorder#mark()}
 * (taken after the line was recorded), and the writer writes it out only once the log has it on
 * disk ({@link Recorder#awaitDurable}), flushing what it wrote before it waits; lines queued
 * meanwhile wait in the queue, so the log forces them together.
 */
public final class HostOutput {

    /**
     * A line queued for the host (or a run of lines, held as one), with the log's mark once it
     * was recorded (0 unless the log syncs), and how many lines it is.
     */
    private record Queued(Line line, long mark, int lines) {
    }

    private final OutputStream out;
    private final Recorder log;
    private final boolean syncs;
    private final LineQueue<Queued> queue;
    private final CountDownLatch ended = new CountDownLatch(1);
    // When the host last took a line, or was last offered one after a quiet spell; tells a host
    // that reads slowly from one that stopped. Written by the writer thread.
    private volatile long lastProgressNanos = System.nanoTime();
    private volatile boolean closed;
    private volatile boolean broken;
    // The session is over: lines put from now on are not queued but counted here, as not delivered.
    private volatile boolean releasing;
    private final AtomicInteger released = new AtomicInteger();
    // Lines queued or being written, not yet written out: what does not reach a host that stopped reading.
    private final AtomicInteger pendingLines = new AtomicInteger();
    // Active mode: runs after the queue may have made room (the mailbox's wake-up). Set before
    // any line comes.
    private volatile Runnable onRoom = () -> {
    };

    private HostOutput(OutputStream out, Recorder log, LineQueue.Policy policy) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
        this.log = log;
        this.syncs = log.syncs();
        this.queue = new LineQueue<>(LineQueue.Bound.SIDE, policy, q -> q.line().length(), () -> onRoom.run());
    }

    /**
     * Starts the writer thread, named {@code threadName}, for {@code out}; the lines it gets have
     * passed {@code log}, which says whether they must wait for the disk.
     *
     * @param policy what {@link #put} does when the queue is full: waits (passive mode), or
     *               queues over the bound and lets {@link #hasRoom()} say so (active mode)
     */
    public static HostOutput start(OutputStream out, String threadName, Recorder log, LineQueue.Policy policy) {
        HostOutput output = new HostOutput(out, log, policy);
        Thread.ofPlatform().daemon().name(threadName).start(Logger.carry(output::writeAll));
        return output;
    }

    /**
     * Queues one line for the host, as the policy says (waiting while the queue is full, or
     * not); dropped once closed or broken. A caller interrupted while it waits drops the line
     * and keeps its interrupt status.
     */
    public void put(Line line) {
        queue(line, 1);
    }

    /** Queues a run of lines (those of one read, nothing being recorded), as {@link #put(Line)} does one. */
    public void put(LineRun run) {
        queue(run.line(), run.count());
    }

    private void queue(Line line, int lines) {
        if (closed || broken) {
            return;
        }
        pendingLines.addAndGet(lines);
        if (!queue.put(new Queued(line, syncs ? log.mark() : 0, lines))) {
            pendingLines.addAndGet(-lines);
            if (releasing && !closed && !broken && !Thread.currentThread().isInterrupted()) {
                released.addAndGet(lines);
            }
        }
    }

    /** Whether the queue is under its bound: the actor takes the server's lines only while it is. */
    public boolean hasRoom() {
        return queue.hasRoom();
    }

    /**
     * Active mode: runs {@code wake}, outside any lock, whenever the queue may have made room
     * (the actor's mailbox looks at its gate again). Set before any line is offered.
     */
    public void onRoom(Runnable wake) {
        onRoom = wake;
    }

    /**
     * The session is over: a writer waiting for room returns at once, and so does any later
     * one; their lines are not queued but counted as not delivered ({@link #awaitDelivered}).
     * Lines queued already are still delivered.
     */
    public void releaseWaiting() {
        releasing = true;
        queue.release();
    }

    /**
     * Waits until every line queued so far has been written and flushed to the host, giving up
     * once the host has taken nothing for {@code stall} (counted from the last line it took).
     *
     * @return the number of lines that did not reach the host: 0 when all did (or the host has
     *         closed its end, when there is nobody to deliver to); those of writers released by
     *         {@link #releaseWaiting()} count
     */
    public int awaitDelivered(Duration stall) throws InterruptedException {
        while (!broken) {
            long left = lastProgressNanos + stall.toNanos() - System.nanoTime();
            if (left <= 0) {
                return broken ? 0 : pendingLines.get() + released.get();
            }
            if (queue.awaitCaughtUp(left)) {
                return broken ? 0 : released.get();
            }
        }
        return 0;
    }

    /**
     * How long the host has taken nothing while lines wait for it (counted as for {@link
     * #awaitDelivered}); 0 when nothing waits.
     */
    public long stalledNanos() {
        return queue.pending() > 0 ? System.nanoTime() - lastProgressNanos : 0;
    }

    /** No more lines: those still queued are dropped; the writer ends after the line it is writing. */
    public void close() {
        closed = true;
        queue.close();
    }

    /** Waits up to {@code timeout} for the writer to end after {@link #close()}; true when it has. */
    public boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }

    // The writer thread.
    private void writeAll() {
        try {
            while (true) {
                // Nothing waits: the host is caught up, and its time starts again with the next line.
                boolean quiet = queue.isEmpty();
                Queued next = queue.takeUninterruptibly();
                if (next == null) {
                    break;
                }
                if (quiet) {
                    lastProgressNanos = System.nanoTime();
                }
                if (syncs && !log.isDurable(next.mark())) {
                    // What the host may have already goes out before the wait for the disk.
                    flush();
                    awaitDurableUninterruptibly(next.mark());
                }
                writeOut(next.line());
                pendingLines.addAndGet(-next.lines());
                lastProgressNanos = System.nanoTime();
            }
            // Closed: the host gets the rest of the line it may have got only part of.
            flush();
        } finally {
            ended.countDown();
        }
    }

    /** Writes one line, and flushes when no other line waited for the writer. */
    private void writeOut(Line line) {
        if (broken) {
            return;
        }
        boolean last = queue.isEmpty();
        try {
            line.writeTo(out);
            if (line.terminated()) {
                out.write('\n');
            }
        } catch (IOException e) {
            fail();
            return;
        }
        if (last) {
            flush();
        }
    }

    private void flush() {
        try {
            out.flush();
        } catch (IOException e) {
            fail();
        }
    }

    // Writer thread: an interrupt does not end the wait for the disk (it is kept for later).
    private void awaitDurableUninterruptibly(long mark) {
        boolean interrupted = false;
        while (true) {
            try {
                log.awaitDurable(mark);
                break;
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void fail() {
        if (broken) {
            return;
        }
        broken = true;
        queue.close();
        onRoom.run();
        Logger.warn("the host no longer reads the proxy's output; the server's messages are dropped");
    }
}
