package dev.stretto.proxy.io;

import java.util.ArrayDeque;
import java.util.Objects;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;
import java.util.function.ToLongFunction;

/**
 * The bounded queue of lines between two threads of a session, with its bound and its policy
 * as parameters: what waits for the host's output, for the server's writer in active mode, and
 * in each lane of the actor's mailbox. Items are lines, or records that carry one; {@code size}
 * says how many bytes an item weighs.
 *
 * <p>The bound: at most {@link Bound#lines()} items and {@link Bound#bytes()} bytes. An item
 * larger than the byte budget is let into an empty queue (and takes the whole budget), so no
 * line is too long to pass. The policy says what a producer meets when the queue is full:
 * <ul>
 * <li>{@link Policy#WAIT}: {@link #put} waits for room, interruptibly. Backpressure goes to the
 * producer: the reader of the side that is too fast stops reading.</li>
 * <li>{@link Policy#GATE}: {@link #put} never waits; the item goes in over the bound, and
 * {@link #hasRoom()} is false until the taker has made room. For a producer that must never
 * wait (the actor): whoever feeds it looks at {@code hasRoom()} and holds back instead (the
 * mailbox's gate), so the bound is exceeded by at most what the producer adds for one event.</li>
 * </ul>
 * Nothing is dropped, except after {@link #close()} (the session is over) or, for a waiting
 * queue, after {@link #release()}.
 *
 * <p>Threads: any thread puts; one thread takes. The taker holds what it took until it comes
 * back for the next item, so {@link #awaitCaughtUp} can tell a taker that has handled
 * everything from one still busy with its last item. A queue has its own lock, or shares one
 * with other queues (the mailbox's lanes share the mailbox's, so one taker can wait for all of
 * them at once).
 *
 * @param <E> the items
 */
public final class LineQueue<E> {

    /**
     * How much may wait.
     *
     * @param lines how many items, at most; at least 1
     * @param bytes how many bytes of items, at most; at least 1
     */
    public record Bound(int lines, long bytes) {

        /** What may wait for one side of a session: 64 lines, 16 MiB. */
        public static final Bound SIDE = new Bound(64, 16L * 1024 * 1024);

        /** No bound, for items each of which answers work the taker started and so bounds itself. */
        public static final Bound NONE = new Bound(Integer.MAX_VALUE, Long.MAX_VALUE);

        /** @throws IllegalArgumentException when either bound is below 1 */
        public Bound {
            if (lines < 1 || bytes < 1) {
                throw new IllegalArgumentException("a queue's bound is at least one line of one byte");
            }
        }
    }

    /** What {@link #put} does when the queue is full. */
    public enum Policy {
        /** It waits until the taker has made room. */
        WAIT,
        /** It adds the item over the bound at once; {@link #hasRoom()} says the queue is full. */
        GATE
    }

    private final Bound bound;
    private final Policy policy;
    private final ToLongFunction<? super E> size;
    private final Runnable onTaken;
    private final ReentrantLock lock;
    private final Condition arrived;
    private final Condition room;
    private final Condition caughtUp;
    // Guarded by lock.
    private final ArrayDeque<E> items = new ArrayDeque<>();
    private long bytes;
    private boolean holding;
    private boolean closed;
    private boolean released;
    // Written under lock, read without it by whoever gates the producer.
    private volatile boolean hasRoom = true;

    /**
     * A queue with a lock of its own.
     *
     * @param onTaken runs after each {@link #take}, outside the lock (a gate looks again)
     */
    public LineQueue(Bound bound, Policy policy, ToLongFunction<? super E> size, Runnable onTaken) {
        this(bound, policy, size, onTaken, new ReentrantLock(), null);
    }

    /**
     * A queue that shares {@code lock} with others and signals {@code arrived} whenever an item
     * comes in: its taker holds the lock and waits on {@code arrived} for any of them, then
     * {@link #poll}s the one it wants.
     */
    public LineQueue(Bound bound, Policy policy, ToLongFunction<? super E> size, ReentrantLock lock,
                     Condition arrived) {
        this(bound, policy, size, () -> {
        }, lock, Objects.requireNonNull(arrived, "arrived"));
    }

    private LineQueue(Bound bound, Policy policy, ToLongFunction<? super E> size, Runnable onTaken,
                      ReentrantLock lock, Condition arrived) {
        this.bound = Objects.requireNonNull(bound, "bound");
        this.policy = Objects.requireNonNull(policy, "policy");
        this.size = Objects.requireNonNull(size, "size");
        this.onTaken = Objects.requireNonNull(onTaken, "onTaken");
        this.lock = lock;
        this.arrived = arrived != null ? arrived : lock.newCondition();
        this.room = lock.newCondition();
        this.caughtUp = lock.newCondition();
    }

    /**
     * Adds {@code item} as the policy says: under {@link Policy#WAIT} once there is room,
     * under {@link Policy#GATE} at once.
     *
     * @return false when the item was not added: the queue is closed, or released and waiting,
     *         or the thread was interrupted while it waited (its interrupt status is kept)
     */
    public boolean put(E item) {
        long n = size.applyAsLong(item);
        try {
            lock.lockInterruptibly();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
        try {
            if (policy == Policy.WAIT) {
                while (!closed && !released && !fits(n)) {
                    room.await();
                }
                if (released) {
                    return false;
                }
            }
            if (closed) {
                return false;
            }
            append(item, n);
            return true;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Adds {@code item} at once, over the bound if need be, whatever the policy: for an item
     * that must never wait (a side's end: there is one per side).
     *
     * @return false when the queue is closed
     */
    public boolean add(E item) {
        lock.lock();
        try {
            if (closed) {
                return false;
            }
            append(item, size.applyAsLong(item));
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * The next item, waiting for one; null once the queue is closed. The item taken before it
     * is done with now.
     *
     * @throws InterruptedException when the thread is interrupted while it waits
     */
    public E take() throws InterruptedException {
        return take(true);
    }

    /** As {@link #take()}, but an interrupt does not end the wait (it is kept for the caller). */
    public E takeUninterruptibly() {
        try {
            return take(false);
        } catch (InterruptedException e) {
            throw new IllegalStateException("an uninterruptible wait was interrupted", e);
        }
    }

    private E take(boolean interruptibly) throws InterruptedException {
        E item;
        if (interruptibly) {
            lock.lockInterruptibly();
        } else {
            lock.lock();
        }
        try {
            holding = false;
            while (items.isEmpty() && !closed) {
                caughtUp.signalAll();
                if (interruptibly) {
                    arrived.await();
                } else {
                    arrived.awaitUninterruptibly();
                }
            }
            item = removeFirst(true);
        } finally {
            lock.unlock();
        }
        if (item != null) {
            onTaken.run();
        }
        return item;
    }

    /** The next item without waiting, or null when there is none; for a taker of several queues. */
    public E poll() {
        lock.lock();
        try {
            return removeFirst(false);
        } finally {
            lock.unlock();
        }
    }

    /** The next item, left in the queue, or null when there is none. */
    public E peek() {
        lock.lock();
        try {
            return items.peekFirst();
        } finally {
            lock.unlock();
        }
    }

    /** Whether nothing is queued. */
    public boolean isEmpty() {
        lock.lock();
        try {
            return items.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /** The items not yet handled: those queued, and the one the taker still holds. */
    public int pending() {
        lock.lock();
        try {
            return items.size() + (holding ? 1 : 0);
        } finally {
            lock.unlock();
        }
    }

    /** Whether the queue is under its bound (or closed, when nothing is kept any more). */
    public boolean hasRoom() {
        return hasRoom;
    }

    /**
     * Waits up to {@code nanos} until the taker has caught up: nothing is queued and it came
     * back for more after the last item it took.
     *
     * @return true when it has (or the queue is closed); false when the time ran out first
     */
    public boolean awaitCaughtUp(long nanos) throws InterruptedException {
        long left = nanos;
        lock.lockInterruptibly();
        try {
            while (!closed && (holding || !items.isEmpty())) {
                if (left <= 0) {
                    return false;
                }
                left = caughtUp.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /**
     * For a queue that waits: from now on {@link #put} adds nothing and returns false at once,
     * and so do the puts still waiting for room (the session is over; what is queued stays).
     */
    public void release() {
        lock.lock();
        try {
            released = true;
            room.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** Drops what is queued and takes nothing more; a taker waiting gets null, a producer false. */
    public void close() {
        lock.lock();
        try {
            closed = true;
            items.clear();
            bytes = 0;
            updateRoom();
            arrived.signalAll();
            room.signalAll();
            caughtUp.signalAll();
        } finally {
            lock.unlock();
        }
    }

    // Holding lock: whether an item of n bytes may be added without going over the bound.
    private boolean fits(long n) {
        return items.isEmpty() || items.size() < bound.lines() && bytes + n <= bound.bytes();
    }

    // Holding lock.
    private void append(E item, long n) {
        items.addLast(item);
        bytes += n;
        updateRoom();
        arrived.signal();
    }

    // Holding lock.
    private E removeFirst(boolean hold) {
        E item = items.pollFirst();
        if (item != null) {
            bytes -= size.applyAsLong(item);
            holding = hold;
            updateRoom();
            room.signalAll();
        }
        return item;
    }

    // Holding lock, after every change of the items or of closed.
    private void updateRoom() {
        hasRoom = closed || items.size() < bound.lines() && bytes < bound.bytes();
    }
}
