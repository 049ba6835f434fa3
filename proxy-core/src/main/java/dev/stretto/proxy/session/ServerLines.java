package dev.stretto.proxy.session;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.trace.log.Source;
import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The server's lines on their way to the {@link UpstreamPump}: the sink the upstream hands
 * every line to, from whatever thread reads them (the reader of a child's stdout, an HTTP
 * exchange, the GET stream), and the one queue the pump takes them from, so that the log and
 * the host see them in the order they were handed in.
 *
 * <p>Queue policy: bounded by {@value #CAPACITY} lines and {@value #BYTE_BUDGET} bytes (a line
 * larger than that takes the whole budget); a producer waits for room, which in turn stops
 * the read of the server's output (a host that reads slowly slows the server down; nothing is
 * dropped). Once {@link #finish()}ed (the upstream has ended) or {@link #close()}d (the
 * session is over) a line handed in is dropped at once and a waiting producer is released:
 * no reader of the server's output can be kept waiting by a session that has ended. A
 * producer interrupted while it waits drops its line and keeps its interrupt status.
 */
final class ServerLines implements ServerLineSink {
    static final int CAPACITY = 16;
    static final int BYTE_BUDGET = 16 * 1024 * 1024;

    /** One line and who wrote it: the server, or the proxy in the server's place. */
    record Item(Source from, Line line) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    private final Condition notFull = lock.newCondition();
    // Guarded by lock.
    private final ArrayDeque<Item> queue = new ArrayDeque<>();
    // Guarded by lock: bytes of the lines in the queue.
    private long queuedBytes;
    // Guarded by lock: no more lines come in; those queued still go out.
    private boolean finished;
    // Guarded by lock: nothing comes in or goes out any more.
    private boolean closed;

    @Override
    public void line(byte[] line, boolean newline) {
        line(new Line(line, newline));
    }

    @Override
    public void line(Line line) {
        put(new Item(Source.SERVER, line));
    }

    @Override
    public void proxyLine(byte[] line, boolean newline) {
        put(new Item(Source.PROXY, new Line(line, newline)));
    }

    private void put(Item item) {
        long cost = item.line().length();
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        try {
            while (!finished && !closed && !queue.isEmpty()
                    && (queue.size() >= CAPACITY || queuedBytes + cost > BYTE_BUDGET)) {
                notFull.await();
            }
            if (finished || closed) {
                return;
            }
            queue.add(item);
            queuedBytes += cost;
            notEmpty.signal();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next line, waiting until there is one; null once the queue is finished and empty, or
     * closed. Interruptible. One taker only (the pump).
     */
    Item take() throws InterruptedException {
        lock.lockInterruptibly();
        try {
            while (queue.isEmpty() && !finished && !closed) {
                notEmpty.await();
            }
            Item next = closed ? null : queue.poll();
            if (next != null) {
                queuedBytes -= next.line().length();
                notFull.signal();
            }
            return next;
        } finally {
            lock.unlock();
        }
    }

    /** The upstream has ended: no more lines are accepted, those queued are still taken. */
    void finish() {
        lock.lock();
        try {
            finished = true;
            notEmpty.signalAll();
            notFull.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The session is over: the lines still queued are dropped, and every producer is released.
     *
     * @return how many lines were dropped
     */
    int close() {
        lock.lock();
        try {
            closed = true;
            int dropped = queue.size();
            queue.clear();
            queuedBytes = 0;
            notEmpty.signalAll();
            notFull.signalAll();
            return dropped;
        } finally {
            lock.unlock();
        }
    }
}
