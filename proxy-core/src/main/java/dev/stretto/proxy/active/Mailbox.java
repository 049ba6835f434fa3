package dev.stretto.proxy.active;

import java.util.ArrayDeque;
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
 * <p>Bounds and policy: the host and server lanes hold at most {@value #LANE_LINES} events and
 * {@value #LANE_BYTES} bytes of lines each (a single larger line is let in when its lane is
 * empty). A pump that finds its lane full waits, interruptibly; nothing is dropped. The end
 * of a side never waits: there is one per side. The control lane has no bound of its own:
 * each of its events answers work the actor started, and the actor bounds that work.
 *
 * <p>Threads: any thread may {@link #put}; only the actor {@link #take}s, and {@link #close}s
 * the mailbox when it ends; the outbound queues' writers call {@link #wake} after they made
 * room.
 */
final class Mailbox {

    /** How many events wait in the host lane, or in the server lane, at most. */
    static final int LANE_LINES = 64;

    /** How many bytes of lines wait in the host lane, or in the server lane, at most. */
    static final int LANE_BYTES = 16 * 1024 * 1024;

    private record Entry(long seq, Inbound event) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition arrived = lock.newCondition();
    private final Condition room = lock.newCondition();
    // Guarded by lock.
    private final ArrayDeque<Entry> host = new ArrayDeque<>();
    private final ArrayDeque<Entry> server = new ArrayDeque<>();
    private final ArrayDeque<Entry> control = new ArrayDeque<>();
    private int hostBytes;
    private int serverBytes;
    private long seq;
    private boolean serverEnded;
    private boolean closed;
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

    /**
     * Adds an event to its lane, waiting while a host or server lane is full; after {@link
     * #close()} drops it at once.
     */
    void put(Inbound event) throws InterruptedException {
        lock.lockInterruptibly();
        try {
            ArrayDeque<Entry> lane = lane(event.lane());
            boolean end = event instanceof Inbound.HostEnded || event instanceof Inbound.ServerEnded;
            if (lane != control && !end) {
                while (!closed && (lane.size() >= LANE_LINES
                        || !lane.isEmpty() && bytes(event.lane()) + event.size() > LANE_BYTES)) {
                    room.await();
                }
            }
            if (closed) {
                return;
            }
            serverEnded |= event instanceof Inbound.ServerEnded;
            lane.addLast(new Entry(seq++, event));
            addBytes(event.lane(), event.size());
            arrived.signal();
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
    Inbound take(long timeoutNanos) throws InterruptedException {
        long left = timeoutNanos;
        lock.lockInterruptibly();
        try {
            while (true) {
                Entry best = control.peekFirst();
                best = older(best, !hostHeld && hostGate.getAsBoolean() ? host.peekFirst() : null);
                best = older(best, serverEnded || serverGate.getAsBoolean() ? server.peekFirst() : null);
                if (best != null) {
                    ArrayDeque<Entry> lane = lane(best.event().lane());
                    lane.removeFirst();
                    addBytes(best.event().lane(), -best.event().size());
                    if (lane != control) {
                        room.signalAll();
                    }
                    return best.event();
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
            closed = true;
            control.clear();
            host.clear();
            server.clear();
            room.signalAll();
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

    private static Entry older(Entry a, Entry b) {
        if (a == null) {
            return b;
        }
        return b == null || a.seq() < b.seq() ? a : b;
    }

    private ArrayDeque<Entry> lane(Inbound.Lane lane) {
        return switch (lane) {
            case HOST -> host;
            case SERVER -> server;
            case CONTROL -> control;
        };
    }

    private int bytes(Inbound.Lane lane) {
        return lane == Inbound.Lane.HOST ? hostBytes : serverBytes;
    }

    private void addBytes(Inbound.Lane lane, int n) {
        if (lane == Inbound.Lane.HOST) {
            hostBytes += n;
        } else if (lane == Inbound.Lane.SERVER) {
            serverBytes += n;
        }
    }
}
