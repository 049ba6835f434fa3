package dev.stretto.proxy;

import java.io.InputStream;
import java.util.concurrent.CountDownLatch;

/** Host input that gives its bytes, then stays open (blocks) until {@link #close()}. */
final class OpenInput extends InputStream {
    private final byte[] data;
    private final CountDownLatch closed = new CountDownLatch(1);
    private int pos;

    OpenInput(byte[] data) {
        this.data = data;
    }

    @Override
    public synchronized int read() {
        byte[] one = new byte[1];
        return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
    }

    @Override
    public int read(byte[] b, int off, int len) {
        synchronized (this) {
            if (pos < data.length) {
                int n = Math.min(len, data.length - pos);
                System.arraycopy(data, pos, b, off, n);
                pos += n;
                return n;
            }
        }
        try {
            closed.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return -1;
    }

    @Override
    public void close() {
        closed.countDown();
    }
}
