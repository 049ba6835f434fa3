package dev.stretto.proxy.listen;

import java.io.InputStream;
import java.util.ArrayDeque;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The host's side of one HTTP session as the session reads it: the lines the HTTP exchanges
 * put, each with its {@code '\n'}, in the order they were put. Bounded: a put waits while
 * {@value #MAX_LINES} lines or {@value #MAX_BYTES} bytes are queued (the server reads slower
 * than the host sends), as a pipe would make it wait. {@link #close()} is the host closing its
 * end: the session reads what is queued, then the end of its input. {@link #release()} is the
 * session's own end: reads end at once, puts are refused.
 */
final class HostFeed extends InputStream {
    static final int MAX_LINES = 256;
    static final long MAX_BYTES = 16L << 20;

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition changed = lock.newCondition();
    private final ArrayDeque<byte[]> lines = new ArrayDeque<>();
    private long queuedBytes;
    // How far the first queued line has been read.
    private int offset;
    private boolean closed;
    private boolean released;

    /**
     * Queues one line (without its terminator, which is added), waiting for room.
     *
     * @return false when the host's side is closed or the session over: the line is not queued
     */
    boolean put(byte[] line) throws InterruptedException {
        byte[] withEnd = new byte[line.length + 1];
        System.arraycopy(line, 0, withEnd, 0, line.length);
        withEnd[line.length] = '\n';
        lock.lockInterruptibly();
        try {
            while (!closed && !released && !lines.isEmpty()
                    && (lines.size() >= MAX_LINES || queuedBytes + withEnd.length > MAX_BYTES)) {
                changed.await(100, TimeUnit.MILLISECONDS);
            }
            if (closed || released) {
                return false;
            }
            lines.add(withEnd);
            queuedBytes += withEnd.length;
            changed.signalAll();
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** The host closed its side: the session reads what is queued, then the end. */
    @Override
    public void close() {
        lock.lock();
        try {
            closed = true;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    /** The session is over: reads end now, puts are refused. */
    void release() {
        lock.lock();
        try {
            released = true;
            lines.clear();
            queuedBytes = 0;
            changed.signalAll();
        } finally {
            lock.unlock();
        }
    }

    @Override
    public int read() {
        byte[] one = new byte[1];
        int n = read(one, 0, 1);
        return n < 0 ? -1 : one[0] & 0xff;
    }

    // Read by the session's host reader, a platform thread: waiting here holds no carrier.
    @Override
    public int read(byte[] b, int off, int len) {
        if (len == 0) {
            return 0;
        }
        lock.lock();
        try {
            while (lines.isEmpty() && !closed && !released) {
                changed.awaitUninterruptibly();
            }
            if (released || lines.isEmpty()) {
                return -1;
            }
            int n = 0;
            while (n < len && !lines.isEmpty()) {
                byte[] first = lines.peekFirst();
                int take = Math.min(len - n, first.length - offset);
                System.arraycopy(first, offset, b, off + n, take);
                n += take;
                offset += take;
                if (offset == first.length) {
                    lines.pollFirst();
                    queuedBytes -= first.length;
                    offset = 0;
                }
            }
            changed.signalAll();
            return n;
        } finally {
            lock.unlock();
        }
    }
}
