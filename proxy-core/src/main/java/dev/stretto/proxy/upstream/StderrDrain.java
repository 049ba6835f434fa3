package dev.stretto.proxy.upstream;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import dev.stretto.proxy.logging.Logger;

/**
 * Copies a child server's stderr into a stream of the caller's ({@code ServerStderr.to}), as it
 * comes, on a daemon platform thread of its own, {@code stretto-server-stderr-<pid>}, outside
 * the session's scope: a read of a pipe can neither be interrupted nor unmount a virtual thread.
 * It ends at the end of the pipe, once the server and every process holding its stderr have
 * ended (the session ends them all). A write that fails is reported once; the rest is read and
 * thrown away, so the server never blocks on a full stderr.
 */
final class StderrDrain {
    private final CountDownLatch ended = new CountDownLatch(1);

    private StderrDrain() {
    }

    static StderrDrain start(InputStream stderr, OutputStream out, String threadName) {
        StderrDrain drain = new StderrDrain();
        Thread.ofPlatform().daemon().name(threadName).start(Logger.carry(() -> drain.copy(stderr, out)));
        return drain;
    }

    private void copy(InputStream stderr, OutputStream out) {
        byte[] buf = new byte[8192];
        boolean writing = true;
        try (stderr) {
            int n;
            while ((n = stderr.read(buf)) >= 0) {
                if (writing) {
                    try {
                        out.write(buf, 0, n);
                        out.flush();
                    } catch (IOException | RuntimeException e) {
                        writing = false;
                        Logger.warn("cannot write the server's stderr to the stream given for it ({}); the rest of it is"
                                + " thrown away", e.getMessage());
                    }
                }
            }
        } catch (IOException e) {
            // The pipe broke under the read (the child was destroyed): its stderr is over.
            Logger.debug("server stderr ended: {}", e.getMessage());
        } finally {
            ended.countDown();
        }
    }

    /** Waits up to {@code timeout} for the end of the server's stderr; true when it has ended. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        return ended.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
}
