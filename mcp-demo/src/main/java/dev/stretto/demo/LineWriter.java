package dev.stretto.demo;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Writes whole lines to one stream from many threads: each line goes out in one piece,
 * followed by a flush, so answers of parallel calls never interleave and a client waiting
 * for one sees it at once. A lock rather than {@code synchronized}, so that a virtual
 * thread blocked in the write does not pin its carrier.
 */
final class LineWriter {
    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private IOException failure;

    LineWriter(OutputStream out) {
        this.out = out;
    }

    /**
     * Writes {@code text} and a newline, then flushes.
     *
     * @return false if the stream has failed (now or before); the line is then lost
     */
    boolean writeLine(String text) {
        byte[] bytes = (text + "\n").getBytes(StandardCharsets.UTF_8);
        lock.lock();
        try {
            if (failure != null) {
                return false;
            }
            out.write(bytes);
            out.flush();
            return true;
        } catch (IOException e) {
            failure = e;
            return false;
        } finally {
            lock.unlock();
        }
    }

    /** The first write failure, or null. */
    IOException failure() {
        lock.lock();
        try {
            return failure;
        } finally {
            lock.unlock();
        }
    }
}
