package dev.stretto.proxy.active;

import java.util.ArrayDeque;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The server's outbound queue: what the actor has decided to write to the server, waiting
 * for the {@link ServerWriter}. The actor never waits here. (The host's queue is the
 * session's host output, with the same bounds: see {@link ActiveSession.HostWriter}.)
 *
 * <p>Bounds and policy: the bound is soft. {@link #offer} always accepts (the actor must never
 * block on a write), but while the queue holds {@value #LINES} lines or {@value #BYTES}
 * bytes, {@link #hasRoom()} is false and the {@link Mailbox}'s gate stops the actor taking
 * the events that would add to it. So the queue exceeds its bound by at most what the actor
 * writes for one event (a refusal, a commit's next call). When the writer takes an item it
 * wakes the mailbox, which may then let a waiting event through.
 *
 * <p>Threads: the actor offers; the server's writer takes.
 */
final class Outbox {

    /** How many lines may wait before the gate closes. */
    static final int LINES = 64;

    /** How many bytes of lines may wait before the gate closes. */
    static final int BYTES = 16 * 1024 * 1024;

    /** What a writer is asked to do. */
    sealed interface Item {
    }

    /**
     * Write a line.
     *
     * @param bytes   the line without its terminator
     * @param newline whether to write {@code '\n'} after it
     * @param mark    the log's mark once the line was recorded ({@code Recorder.mark()}): with
     *                {@code --record-sync} the writer waits until the log has it on disk
     */
    record Write(byte[] bytes, boolean newline, long mark) implements Item {
    }

    /** The server's input ends here: the host closed its input and the proxy's own work is done. */
    record EndOfInput() implements Item {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition notEmpty = lock.newCondition();
    // Guarded by lock.
    private final ArrayDeque<Item> items = new ArrayDeque<>();
    private long bytes;
    // Written under lock, read by the mailbox's gate without it.
    private volatile boolean room = true;
    private final Runnable onTaken;

    /** @param onTaken runs after each take (the mailbox's wake-up), outside the lock */
    Outbox(Runnable onTaken) {
        this.onTaken = onTaken;
    }

    /** Queues an item; never waits. */
    void offer(Item item) {
        lock.lock();
        try {
            items.addLast(item);
            bytes += size(item);
            room = items.size() < LINES && bytes < BYTES;
            notEmpty.signal();
        } finally {
            lock.unlock();
        }
    }

    /** The next item, waiting for one. Interruptible. */
    Item take() throws InterruptedException {
        Item item;
        lock.lockInterruptibly();
        try {
            while (items.isEmpty()) {
                notEmpty.await();
            }
            item = items.removeFirst();
            bytes -= size(item);
            room = items.size() < LINES && bytes < BYTES;
        } finally {
            lock.unlock();
        }
        onTaken.run();
        return item;
    }

    /** Whether the queue is under its bound. */
    boolean hasRoom() {
        return room;
    }

    private static long size(Item item) {
        return item instanceof Write w ? w.bytes().length : 0;
    }
}
