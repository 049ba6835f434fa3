package dev.stretto.proxy.logging;

import java.io.PrintStream;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The proxy's lines on stderr, each {@code stretto-proxy: } and a message, written by a daemon
 * platform thread of its own ({@code stretto-stderr}, started with the first line) from a
 * bounded queue, so that the thread saying a message never waits for stderr. A host that does
 * not read the proxy's stderr fills the pipe (a server writing to the same, inherited stderr
 * fills it sooner), and a write to it then blocks for good: it must not hold up the shutdown
 * ladder or the forwarding. So a message that finds the queue full is dropped and counted, and
 * once stderr takes lines again the count is written where they were dropped. A write blocks on
 * a platform thread, which a virtual one could not do without pinning its carrier.
 *
 * <p>One per JVM ({@link #shared()}), as stderr is; it writes to {@code System.err} as it is
 * when each line goes out. Before the JVM exits, a shutdown hook writes out what is queued,
 * unless stderr takes nothing for {@link #EXIT_STALL}. Thread-safe.
 */
public final class StderrQueue {

    /** How many lines wait at most; a message that finds this many waiting is dropped and counted. */
    public static final int CAPACITY = 1024;

    /** What every line starts with. */
    public static final String PREFIX = "stretto-proxy: ";

    /** How long the JVM's exit waits for the queue while stderr takes nothing. */
    static final Duration EXIT_STALL = Duration.ofSeconds(1);

    /** A line to write; {@code droppedBefore} messages were dropped just before it (text null: only that). */
    private record Entry(String text, long droppedBefore) {
    }

    private final Supplier<PrintStream> target;
    private final int capacity;
    private final Object lock = new Object();
    // Guarded by lock.
    private final ArrayDeque<Entry> waiting = new ArrayDeque<>();
    // Guarded by lock: messages dropped since the last line queued.
    private long dropped;
    // Guarded by lock: the writer holds a line it is writing.
    private boolean writing;
    // Guarded by lock: System.nanoTime() when the writer last finished a line, or got work while idle.
    private long lastProgress = System.nanoTime();
    // Guarded by lock: started with the first line.
    private Thread writer;

    private static final class Shared {
        static final StderrQueue QUEUE = new StderrQueue(() -> System.err, CAPACITY);

        static {
            try {
                Runtime.getRuntime().addShutdownHook(Thread.ofPlatform().name("stretto-stderr-exit")
                        .unstarted(() -> QUEUE.flush(EXIT_STALL)));
            } catch (IllegalStateException exiting) {
                // First used while the JVM exits: whatever is said now may be cut off by the exit.
            }
        }
    }

    /**
     * A queue writing to whatever {@code target} gives at each line.
     *
     * @param capacity how many lines may wait
     */
    StderrQueue(Supplier<PrintStream> target, int capacity) {
        this.target = Objects.requireNonNull(target, "target");
        if (capacity < 1) {
            throw new IllegalArgumentException("capacity must be positive");
        }
        this.capacity = capacity;
    }

    /** The JVM's queue, to {@code System.err}. */
    public static StderrQueue shared() {
        return Shared.QUEUE;
    }

    /** Queues one message (written as {@code stretto-proxy: text}), or drops and counts it when the queue is full. */
    public void offer(String text) {
        Objects.requireNonNull(text, "text");
        synchronized (lock) {
            if (waiting.size() >= capacity) {
                dropped++;
                return;
            }
            if (!writing && waiting.isEmpty()) {
                // An idle writer is not a stalled one: the stall clock starts with this line.
                lastProgress = System.nanoTime();
            }
            waiting.add(new Entry(text, dropped));
            dropped = 0;
            if (writer == null) {
                writer = Thread.ofPlatform().daemon().name("stretto-stderr").start(this::writeAll);
            }
            lock.notifyAll();
        }
    }

    /**
     * Waits until every message queued so far is written (and the count of those dropped), or
     * until stderr has taken nothing for {@code stall}; returns at once when it already has not.
     *
     * @return true when everything was written
     */
    public boolean flush(Duration stall) {
        long stallNanos = stall.toNanos();
        synchronized (lock) {
            while (writing || !waiting.isEmpty() || dropped > 0) {
                long idle = System.nanoTime() - lastProgress;
                if (idle >= stallNanos) {
                    return false;
                }
                try {
                    lock.wait(Math.max(1, (stallNanos - idle + 999_999) / 1_000_000));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                    return false;
                }
            }
            return true;
        }
    }

    private void writeAll() {
        while (true) {
            Entry next;
            synchronized (lock) {
                while (waiting.isEmpty() && dropped == 0) {
                    try {
                        lock.wait();
                    } catch (InterruptedException e) {
                        // Nobody interrupts this thread; the JVM's exit ends it.
                    }
                }
                if (waiting.isEmpty()) {
                    next = new Entry(null, dropped);
                    dropped = 0;
                } else {
                    next = waiting.poll();
                }
                writing = true;
            }
            try {
                write(next);
            } catch (RuntimeException e) {
                // A stream of the program's that throws: the line is lost, the next ones still go.
            } finally {
                synchronized (lock) {
                    writing = false;
                    lastProgress = System.nanoTime();
                    lock.notifyAll();
                }
            }
        }
    }

    private void write(Entry entry) {
        StringBuilder s = new StringBuilder();
        if (entry.droppedBefore() > 0) {
            s.append(PREFIX).append(dropNote(entry.droppedBefore())).append('\n');
        }
        if (entry.text() != null) {
            s.append(PREFIX).append(entry.text()).append('\n');
        }
        PrintStream out = target.get();
        // One write for the whole line: lines of other writers to the same pipe cannot cut into it.
        byte[] bytes = s.toString().getBytes(out.charset());
        out.write(bytes, 0, bytes.length);
        out.flush();
    }

    /** The line that stands where {@code n} messages were dropped. */
    static String dropNote(long n) {
        return n == 1 ? "1 of the proxy's messages was dropped here: stderr was full"
                : n + " of the proxy's messages were dropped here: stderr was full";
    }
}
