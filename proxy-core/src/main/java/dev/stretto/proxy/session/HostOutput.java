package dev.stretto.proxy.session;

import java.io.BufferedOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.locks.ReentrantLock;
import org.tinylog.Logger;

/**
 * The host's output. Each line is written with its terminator and flushed as a whole under
 * one lock, so lines that several threads write never interleave and the host sees each
 * line as soon as it is complete. When the host stops reading (its end of the pipe closed),
 * that is reported once and later lines are dropped: nobody is left to read them, and the
 * session still ends in the usual way once the host's input ends.
 */
final class HostOutput {
    private final OutputStream out;
    private final ReentrantLock lock = new ReentrantLock();
    // Guarded by lock.
    private boolean broken;

    HostOutput(OutputStream out) {
        this.out = new BufferedOutputStream(out, 64 * 1024);
    }

    void write(byte[] line, boolean newline) {
        lock.lock();
        try {
            if (broken) {
                return;
            }
            out.write(line);
            if (newline) {
                out.write('\n');
            }
            out.flush();
        } catch (IOException e) {
            broken = true;
            Logger.warn("the host no longer reads the proxy's output; the server's messages are dropped");
        } finally {
            lock.unlock();
        }
    }
}
