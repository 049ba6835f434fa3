package dev.stretto.trace.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A host's ends of the stdin and stdout of a proxy session run in-process: what the test
 * sends comes out of {@link #in()} chunk by chunk, and what the session writes to {@link #out()}
 * is kept byte for byte and split into lines. The host can stop reading for a while: the
 * session's writes then wait, as they would on a full pipe.
 */
public final class HostPipe {

    private static final byte[] EOF = new byte[0];
    private final BlockingQueue<byte[]> input = new LinkedBlockingQueue<>();
    private final BlockingQueue<String> lines = new LinkedBlockingQueue<>();
    private final ByteArrayOutputStream output = new ByteArrayOutputStream();
    // When set, the host stops reading: the session's writes wait until it is counted down.
    private volatile CountDownLatch stopped;

    /** Queues {@code bytes} for the session to read. */
    public void send(byte[] bytes) {
        input.add(bytes.clone());
    }

    /** Ends the session's input once what was sent is read. */
    public void closeInput() {
        input.add(EOF);
    }

    /** The next line the session wrote, if one comes within {@code timeout}; null otherwise. */
    public String poll(long timeout, TimeUnit unit) throws InterruptedException {
        return lines.poll(timeout, unit);
    }

    /** Moves the lines written and not yet polled to {@code to}. */
    public void drainTo(java.util.Collection<String> to) {
        lines.drainTo(to);
    }

    /** Whatever the session wrote, every byte. */
    public byte[] output() {
        synchronized (output) {
            return output.toByteArray();
        }
    }

    /** The host stops reading what the session writes, until {@link #readAgain()}. */
    public void stopReading() {
        stopped = new CountDownLatch(1);
    }

    /** The host reads again. */
    public void readAgain() {
        CountDownLatch s = stopped;
        stopped = null;
        if (s != null) {
            s.countDown();
        }
    }

    /** The session's stdin. */
    public InputStream in() {
        return new InputStream() {
            private byte[] chunk = new byte[0];
            private int pos;
            private boolean ended;

            @Override
            public int read() throws IOException {
                byte[] one = new byte[1];
                return read(one, 0, 1) < 0 ? -1 : one[0] & 0xff;
            }

            @Override
            public int read(byte[] b, int off, int len) throws IOException {
                if (ended) {
                    return -1;
                }
                while (pos == chunk.length) {
                    try {
                        chunk = input.take();
                    } catch (InterruptedException e) {
                        throw new IOException(e);
                    }
                    pos = 0;
                    if (chunk == EOF) {
                        ended = true;
                        return -1;
                    }
                }
                int n = Math.min(len, chunk.length - pos);
                System.arraycopy(chunk, pos, b, off, n);
                pos += n;
                return n;
            }
        };
    }

    /** The session's stdout. */
    public OutputStream out() {
        return new OutputStream() {
            private final ByteArrayOutputStream line = new ByteArrayOutputStream();

            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public synchronized void write(byte[] b, int off, int len) {
                CountDownLatch s = stopped;
                if (s != null) {
                    try {
                        s.await();
                    } catch (InterruptedException e) {
                        Thread.currentThread().interrupt();
                        return;
                    }
                }
                synchronized (output) {
                    output.write(b, off, len);
                }
                for (int i = off; i < off + len; i++) {
                    if (b[i] == '\n') {
                        lines.add(line.toString(StandardCharsets.UTF_8));
                        line.reset();
                    } else {
                        line.write(b[i]);
                    }
                }
            }
        };
    }
}
