package dev.stretto.cli;

import java.io.FilterOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.util.concurrent.CountDownLatch;

/**
 * The host's output, which counts {@code written} down once its first bytes have been
 * written: the proxy's start-up work that can wait (the subreaper's) waits for the server's
 * first answer to reach the host. Every write goes straight through, as it is.
 */
final class FirstWriteSignal extends FilterOutputStream {
    private final CountDownLatch written;

    FirstWriteSignal(OutputStream out, CountDownLatch written) {
        super(out);
        this.written = written;
    }

    @Override
    public void write(int b) throws IOException {
        out.write(b);
        written.countDown();
    }

    @Override
    public void write(byte[] b, int off, int len) throws IOException {
        out.write(b, off, len);
        written.countDown();
    }
}
