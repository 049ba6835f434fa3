package dev.stretto.proxy.http;

import java.time.Duration;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/** Counts the exchanges under way, so the end of the session can wait for them. */
final class InFlight {

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    // Guarded by lock.
    private int count;

    void enter() {
        lock.lock();
        try {
            count++;
        } finally {
            lock.unlock();
        }
    }

    void exit() {
        lock.lock();
        try {
            if (--count == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    int count() {
        lock.lock();
        try {
            return count;
        } finally {
            lock.unlock();
        }
    }

    /** Waits until no exchange is under way; false when {@code timeout} passed first. */
    boolean awaitIdle(Duration timeout) throws InterruptedException {
        long nanos = timeout.toNanos();
        lock.lock();
        try {
            while (count > 0) {
                if (nanos <= 0) {
                    return false;
                }
                nanos = idle.awaitNanos(nanos);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }
}
