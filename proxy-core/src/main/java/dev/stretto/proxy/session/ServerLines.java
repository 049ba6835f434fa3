package dev.stretto.proxy.session;

import dev.stretto.proxy.host.HostOutput;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineRun;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.trace.log.Source;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Server to host, in passive mode: the sink the upstream hands every line to, from whatever
 * thread reads them (the reader of a child's stdout, an HTTP exchange, the GET stream). That
 * thread passes the line on itself, as soon as it has it: through the {@link ForwardGate}
 * (recorded first; nothing once the session stops), then onto the host's output ({@link
 * HostOutput}), whose own thread writes it out. One lock around the two keeps the log's order
 * and the host's the same however many threads hand lines in; with one reader (a child's
 * stdout) it is never contended.
 *
 * <p>When nothing is recorded, a child's (or an in-process server's) reader hands on every whole
 * line of one read at once ({@link #lines}): one item on the host's output, one write there.
 *
 * <p>Policy: a producer waits while the host's output is full, holding the lock, so a host that
 * reads slowly slows the server down; nothing is dropped. Once {@link #finish()}ed (the
 * upstream has ended) or {@link #close()}d (the session is over) a line handed in is dropped at
 * once, and a producer still waiting for room is released (the host's output counts its line
 * as not delivered): no reader of the server's output can be kept waiting by a session that has
 * ended. A producer interrupted while it waits drops its line and keeps its interrupt status.
 */
final class ServerLines implements ServerLineSink {
    private final ReentrantLock lock = new ReentrantLock();
    private final ForwardGate gate;
    private final HostOutput out;
    // No more lines come in: the upstream has ended.
    private volatile boolean finished;
    // Nothing comes in any more: the session is over.
    private volatile boolean closed;

    ServerLines(ForwardGate gate, HostOutput out) {
        this.gate = gate;
        this.out = out;
    }

    @Override
    public void line(byte[] line, boolean newline) {
        pass(Source.SERVER, new Line(line, newline));
    }

    @Override
    public void line(Line line) {
        pass(Source.SERVER, line);
    }

    @Override
    public void proxyLine(byte[] line, boolean newline) {
        pass(Source.PROXY, new Line(line, newline));
    }

    /** Nothing is recorded: the reader of a child's output hands on each read's whole lines at once. */
    @Override
    public boolean takesRuns() {
        return !gate.records();
    }

    @Override
    public void lines(LineRun run) {
        if (finished || closed || !lock()) {
            return;
        }
        try {
            if (!finished && !closed && gate.admit(Source.SERVER, run.count())) {
                out.put(run);
            }
        } finally {
            lock.unlock();
        }
    }

    private void pass(Source from, Line line) {
        if (finished || closed || !lock()) {
            return;
        }
        try {
            if (!finished && !closed && gate.record(from, line)) {
                out.put(line);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    // False when interrupted while waiting for the lock (the interrupt status is kept).
    private boolean lock() {
        try {
            lock.lockInterruptibly();
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    /**
     * Waits up to {@code millis} until no line is being passed on; true when none is. Once
     * {@link #finish()}ed, true means every line handed in has reached the host's output.
     */
    boolean awaitIdle(long millis) throws InterruptedException {
        if (lock.tryLock(millis, TimeUnit.MILLISECONDS)) {
            lock.unlock();
            return true;
        }
        return false;
    }

    /** The upstream has ended: lines handed in from now on are dropped. */
    void finish() {
        finished = true;
    }

    /** The session is over: nothing more is passed on, and a producer waiting for room is released. */
    void close() {
        closed = true;
        out.releaseWaiting();
    }
}
