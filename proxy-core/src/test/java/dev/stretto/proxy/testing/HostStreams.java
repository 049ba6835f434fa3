package dev.stretto.proxy.testing;

import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CountDownLatch;

/** The host's side of a session as tests play it: what it writes and how it reads. */
public final class HostStreams {

    private HostStreams() {
    }

    /** A host that never stops writing: {@code line} over and over. */
    public static InputStream endless(byte[] line) {
        return new InputStream() {
            private int pos;

            @Override
            public int read() {
                int b = line[pos];
                pos = (pos + 1) % line.length;
                return b;
            }
        };
    }

    /**
     * A host that keeps what it gets and puts one token in {@code newlines} for each line end,
     * so that a test can wait for lines to arrive.
     */
    public static ByteArrayOutputStream countingLines(BlockingQueue<Integer> newlines) {
        return new ByteArrayOutputStream() {
            @Override
            public synchronized void write(byte[] b, int off, int len) {
                super.write(b, off, len);
                for (int i = off; i < off + len; i++) {
                    if (b[i] == '\n') {
                        newlines.add(1);
                    }
                }
            }
        };
    }

    /** A pipe the host no longer reads: a write never returns, interrupts or not. */
    public static OutputStream neverRead() {
        CountDownLatch never = new CountDownLatch(1);
        return new OutputStream() {
            @Override
            public void write(int b) {
                write(new byte[] {(byte) b}, 0, 1);
            }

            @Override
            public void write(byte[] b, int off, int len) {
                while (true) {
                    try {
                        never.await();
                    } catch (InterruptedException ignored) {
                        // still blocked
                    }
                }
            }
        };
    }
}
