package dev.stretto.proxy;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;

/** Host output that keeps every byte and hands each complete line to a queue, for tests that wait on the server. */
final class LineCollector extends ByteArrayOutputStream {
    private final BlockingQueue<String> lines;
    private final ByteArrayOutputStream current = new ByteArrayOutputStream();

    LineCollector(BlockingQueue<String> lines) {
        this.lines = lines;
    }

    @Override
    public synchronized void write(byte[] b, int off, int len) {
        super.write(b, off, len);
        for (int i = off; i < off + len; i++) {
            if (b[i] == '\n') {
                lines.add(current.toString(StandardCharsets.UTF_8));
                current.reset();
            } else {
                current.write(b[i]);
            }
        }
    }
}
