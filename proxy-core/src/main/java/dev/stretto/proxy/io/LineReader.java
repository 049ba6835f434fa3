package dev.stretto.proxy.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.Arrays;

/**
 * Splits a byte stream into {@link Line}s on {@code '\n'}, with no limit on a line's length
 * (multi-megabyte lines are normal in MCP). Nothing is decoded or trimmed: concatenating the
 * lines, each followed by {@code '\n'} when it was terminated, gives back the stream's bytes.
 * Not thread-safe: one reader thread owns an instance.
 */
public final class LineReader {
    private static final int CHUNK = 64 * 1024;

    private final InputStream in;
    private final byte[] buf = new byte[CHUNK];
    private int pos;
    private int limit;
    private boolean eof;

    /** Reads lines from {@code in}, which this reader does not close. */
    public LineReader(InputStream in) {
        this.in = in;
    }

    /**
     * The next line, or null at end of stream. Blocks until a whole line, or the end of the
     * stream, has been read.
     */
    public Line next() throws IOException {
        byte[] acc = null;
        int accLen = 0;
        while (true) {
            if (pos < limit) {
                int nl = indexOfNewline(pos, limit);
                int end = nl < 0 ? limit : nl;
                int n = end - pos;
                if (nl >= 0 && acc == null) {
                    byte[] line = Arrays.copyOfRange(buf, pos, end);
                    pos = end + 1;
                    return new Line(line, true);
                }
                if (acc == null) {
                    acc = new byte[Math.max(2 * CHUNK, n)];
                } else if (accLen + n > acc.length) {
                    acc = Arrays.copyOf(acc, Math.max(acc.length * 2, accLen + n));
                }
                System.arraycopy(buf, pos, acc, accLen, n);
                accLen += n;
                if (nl >= 0) {
                    pos = end + 1;
                    return new Line(Arrays.copyOf(acc, accLen), true);
                }
                pos = limit;
            }
            if (eof || !fill()) {
                eof = true;
                return acc == null ? null : new Line(Arrays.copyOf(acc, accLen), false);
            }
        }
    }

    private boolean fill() throws IOException {
        int n;
        do {
            n = in.read(buf, 0, buf.length);
        } while (n == 0);
        if (n < 0) {
            return false;
        }
        pos = 0;
        limit = n;
        return true;
    }

    private int indexOfNewline(int from, int to) {
        for (int i = from; i < to; i++) {
            if (buf[i] == '\n') {
                return i;
            }
        }
        return -1;
    }
}
