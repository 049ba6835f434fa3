package dev.stretto.proxy.active;

import dev.stretto.proxy.io.LineQueue;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.BooleanSupplier;

/**
 * The actor's mailbox: three lanes (the host's lines, the server's lines, the actor's own
 * events) and a gate, so that backpressure goes to the pump of the side that is too fast and
 * never to the actor.
 *
 * <p>The gate: the actor takes a host event only while the server's outbound queue has room,
 * and a server event only while the host's has room; its own events always. So a server that
 * stops reading its stdin stops the host's lines here (and, as the host lane fills, the pump
 * that reads the host) while the server's lines, the proxy's own requests and the timeouts go
 * on; a host that stops reading stops the server's lines the same way. Among the events it may
 * take, the actor takes the one that arrived first, so the log keeps the order lines were read
 * in across both sides. Once the server has ended, its last lines are taken whatever the
 * host's queue holds: no more can come, so that queue goes over its bound by one lane at
 * most, and the session's end does not wait on a host that stopped reading (the session
 * gives up on such a host after its stall limit, as in passive mode).
 *
 * <p>Bounds and policy: each lane is a {@link LineQueue}, all three sharing the mailbox's lock
 * so that the actor can wait for any of them. The host and server lanes are bounded as one
 * side is ({@link LineQueue.Bound#SIDE}: a single larger line is let in when its lane is
 * empty), and a pump that finds its lane full waits, interruptibly ({@link
 * LineQueue.Policy#WAIT}); nothing is dropped. The end of a side never waits: there is one per
 * side. The control lane has no bound of its own: each of its events answers work the actor
 * started, and the actor bounds that work.
 *
 * <p>Threads: any thread may {@link #put}; only the actor {@link #take}s, and {@link #close}s
 * the mailbox when it ends; the outbound queues' writers call {@link #wake} after they made
 * room.
 */
final class Mailbox {

    /** An event in its lane, numbered as it came in: the actor takes the oldest it may. */
    private static final class Entry {
        final Event.Posted event;
        // Set under the lock as the entry joins its lane.
        long seq;

        Entry(Event.Posted event) {
            this.event = event;
        }
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final LineQueue<Entry> host = lane(LineQueue.Bound.SIDE);
    private final LineQueue<Entry> server = lane(LineQueue.Bound.SIDE);
    private final LineQueue<Entry> control = lane(LineQueue.Bound.NONE);
    // Guarded by lock.
    private long seq;
    private boolean serverEnded;
    private boolean hostHeld;

    private final BooleanSupplier hostGate;
    private final BooleanSupplier serverGate;

    /**
     * @param hostGate   whether host events may be taken now (the server's outbound queue has room)
     * @param serverGate whether server events may be taken now (the host's outbound queue has room)
     */
    Mailbox(BooleanSupplier hostGate, BooleanSupplier serverGate) {
        this.hostGate = hostGate;
        this.serverGate = serverGate;
    }

    private LineQueue<Entry> lane(LineQueue.Bound bound) {
        return new LineQueue<>(bound, LineQueue.Policy.WAIT, e -> e.event.size(), lock, arrived);
    }

    /**
     * Adds an event to its lane, waiting while a host or server lane is full; after {@link
     * #close()} drops it at once.
     */
    void put(Event.Posted event) throws InterruptedException {
        LineQueue<Entry> lane = switchLane(event.lane());
        boolean end = event instanceof Event.HostEnded || event instanceof Event.ServerEnded;
        Entry entry = new Entry(event);
        lock.lockInterruptibly();
        try {
            if (end ? lane.add(entry) : lane.put(entry)) {
                // Still holding the lock the lane shares: nobody has seen the entry yet.
                entry.seq = seq++;
                serverEnded |= event instanceof Event.ServerEnded;
            } else if (Thread.interrupted()) {
                throw new InterruptedException();
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The oldest event the gate lets through, waiting up to {@code timeoutNanos} for one
     * ({@code Long.MAX_VALUE}: as long as it takes).
     *
     * @return the event, or null when none came in time
     */
    Event.Posted take(long timeoutNanos) throws InterruptedException {
        long left = timeoutNanos;
        lock.lockInterruptibly();
        try {
            while (true) {
                LineQueue<Entry> from = older(control, !hostHeld && hostGate.getAsBoolean() ? host : null);
                from = older(from, serverEnded || serverGate.getAsBoolean() ? server : null);
                Entry taken = from == null ? null : from.poll();
                if (taken != null) {
                    return taken.event;
                }
                if (timeoutNanos == Long.MAX_VALUE) {
                    arrived.await();
                } else if (left <= 0) {
                    return null;
                } else {
                    left = arrived.awaitNanos(left);
                }
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * The actor is gone: nothing more is taken, so nothing waits to put any more. A reader of
     * the server's pipe, a thread outside the session's scope, may still be handing on lines
     * after the session ended; they are dropped rather than keep that thread waiting for good.
     */
    void close() {
        lock.lock();
        try {
            control.close();
            host.close();
            server.close();
        } finally {
            lock.unlock();
        }
    }

    /**
     * Holds the host's lane ({@code true}): no host event is taken until it is let go again
     * ({@code false}). The actor holds it while a line of the host's waits for the proxy's own
     * request with the same id to end, so the host's later lines stay behind that one.
     */
    void holdHost(boolean hold) {
        lock.lock();
        try {
            hostHeld = hold;
            arrived.signal();
        } finally {
            lock.unlock();
        }
    }

    /** An outbound queue made room: the gate may let a waiting event through now. */
    void wake() {
        lock.lock();
        try {
            arrived.signal();
        } finally {
            lock.unlock();
        }
    }

    // Holding lock: of two lanes (either may be null), the one whose first event came first.
    private static LineQueue<Entry> older(LineQueue<Entry> a, LineQueue<Entry> b) {
        Entry first = a == null ? null : a.peek();
        Entry second = b == null ? null : b.peek();
        if (first == null) {
            return second == null ? null : b;
        }
        return second == null || first.seq < second.seq ? a : b;
    }

    private LineQueue<Entry> switchLane(Event.Lane lane) {
        return switch (lane) {
            case HOST -> host;
            case SERVER -> server;
            case CONTROL -> control;
        };
    }
}
