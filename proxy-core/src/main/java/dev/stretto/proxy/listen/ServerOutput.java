package dev.stretto.proxy.listen;

import java.io.OutputStream;
import java.util.Arrays;
import java.util.function.Consumer;

/**
 * The session's output for the host, as the session writes it (its host writer thread, one
 * line and its {@code '\n'} after another, in pieces of any size): each complete line goes to
 * the consumer, without its terminator, on that thread.
 */
final class ServerOutput extends OutputStream {
    private final Consumer<byte[]> lines;
    private byte[] buf = new byte[8192];
    private int length;

    ServerOutput(Consumer<byte[]> lines) {
        this.lines = lines;
    }

    @Override
    public void write(int b) {
        write(new byte[] {(byte) b}, 0, 1);
    }

    @Override
    public void write(byte[] b, int off, int len) {
        int end = off + len;
        int start = off;
        for (int i = off; i < end; i++) {
            if (b[i] == '\n') {
                append(b, start, i - start);
                byte[] line = Arrays.copyOf(buf, length);
                length = 0;
                lines.accept(line);
                start = i + 1;
            }
        }
        append(b, start, end - start);
        // A long line's buffer is not kept for the lines after it.
        if (length == 0 && buf.length > 1 << 20) {
            buf = new byte[8192];
        }
    }

    private void append(byte[] b, int off, int len) {
        if (len == 0) {
            return;
        }
        if (length + len > buf.length) {
            buf = Arrays.copyOf(buf, Math.max(buf.length * 2, length + len));
        }
        System.arraycopy(b, off, buf, length, len);
        length += len;
    }
}
