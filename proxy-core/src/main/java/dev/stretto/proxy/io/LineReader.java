package dev.stretto.proxy.io;

import java.io.IOException;
import java.io.InputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * Splits a byte stream into {@link Line}s on {@code '\n'}, with no limit on a line's length
 * (multi-megabyte lines are normal in MCP). Nothing is decoded or trimmed: concatenating the
 * lines, each followed by {@code '\n'} when it was terminated, gives back the stream's bytes.
 * Not thread-safe: one reader thread owns an instance.
 *
 * <p>Two ways to read, one per reader: {@link #next()} gives one line at a time (what is
 * recorded or acted on needs each line), {@link #nextRun()} every whole line that one read
 * brought, as one {@link LineRun} (what only forwards them writes them at once). Newlines are
 * looked for eight bytes at a time ({@link Newlines}).
 *
 * <p>Memory. Lines are read through one buffer of {@value #BUFFER} bytes and copied out of it
 * once. A line longer than the buffer is never gathered into one array: the full buffer
 * becomes its first chunk, and the rest is read straight into further chunks, each twice the
 * size of the one before up to {@value #MAX_CHUNK} bytes, so a line of n bytes costs about n
 * bytes (plus at most one chunk not filled), read once and never copied again.
 */
public final class LineReader {
    static final int BUFFER = 64 * 1024;

    /** The largest chunk a long line is read into. */
    static final int MAX_CHUNK = 1024 * 1024;

    private final InputStream in;
    private byte[] buf = new byte[BUFFER];
    private int pos;
    private int limit;
    // No newline in buf between pos and scanned: a search goes on from there.
    private int scanned;
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
        while (true) {
            int nl = findNewline();
            if (nl >= 0) {
                byte[] line = Arrays.copyOfRange(buf, pos, nl);
                pos = nl + 1;
                scanned = pos;
                return new Line(line, true);
            }
            if (eof) {
                if (pos == limit) {
                    return null;
                }
                byte[] line = Arrays.copyOfRange(buf, pos, limit);
                pos = limit;
                return new Line(line, false);
            }
            if (limit == buf.length) {
                if (pos == 0) {
                    return longLine();
                }
                // The start of a line at the end of the buffer moves to its front, once.
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                limit -= pos;
                scanned -= pos;
                pos = 0;
            }
            int n = read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        }
    }

    /**
     * The whole lines read so far and not yet returned, as one run, reading when there are none
     * (a line that does not fit in the buffer is a run of its own, read to its end; a last line
     * without a terminator is one at the end of the stream); null at the end of the stream.
     * Returns as soon as one read has brought at least one whole line: a run is what is there,
     * never waited for. Not to be mixed with {@link #next()} on one reader.
     */
    public LineRun nextRun() throws IOException {
        while (true) {
            int nl = Newlines.last(buf, scanned, limit);
            if (nl >= 0) {
                int count = Newlines.count(buf, pos, nl + 1);
                byte[] lines = Arrays.copyOfRange(buf, pos, nl + 1);
                pos = nl + 1;
                scanned = pos;
                // The terminators are the bytes' own: the run is written as they are.
                return new LineRun(new Line(lines, false), count);
            }
            scanned = limit;
            if (eof) {
                if (pos == limit) {
                    return null;
                }
                byte[] line = Arrays.copyOfRange(buf, pos, limit);
                pos = limit;
                scanned = limit;
                return LineRun.of(new Line(line, false));
            }
            if (limit == buf.length) {
                if (pos == 0) {
                    return LineRun.of(longLine());
                }
                System.arraycopy(buf, pos, buf, 0, limit - pos);
                limit -= pos;
                scanned -= pos;
                pos = 0;
            }
            int n = read(buf, limit, buf.length - limit);
            if (n < 0) {
                eof = true;
            } else {
                limit += n;
            }
        }
    }

    /**
     * Whether a whole line (or the end of the stream) is already buffered: the next call of
     * {@link #next()} returns without reading. Lets a caller write out what it has before it
     * waits for more.
     */
    public boolean hasBufferedLine() {
        return eof || findNewline() >= 0;
    }

    // The next newline in the buffer, or -1; each byte is looked at once.
    private int findNewline() {
        int nl = Newlines.first(buf, scanned, limit);
        scanned = nl >= 0 ? nl : limit;
        return nl;
    }

    // The buffer is full and holds the start of one line: the buffer becomes the line's first
    // chunk, and the line is read on into chunks of its own.
    private Line longLine() throws IOException {
        List<byte[]> chunks = new ArrayList<>();
        chunks.add(buf);
        buf = new byte[BUFFER];
        pos = 0;
        limit = 0;
        scanned = 0;
        int size = BUFFER;
        while (true) {
            size = Math.min(MAX_CHUNK, size * 2);
            byte[] chunk = new byte[size];
            chunks.add(chunk);
            int filled = 0;
            while (filled < size) {
                // At most a buffer's worth at a time, so what follows the line fits in the buffer.
                int n = read(chunk, filled, Math.min(BUFFER, size - filled));
                if (n < 0) {
                    eof = true;
                    return Line.ofChunks(chunks, filled, false);
                }
                int nl = Newlines.first(chunk, filled, filled + n);
                filled += n;
                if (nl >= 0) {
                    limit = filled - nl - 1;
                    System.arraycopy(chunk, nl + 1, buf, 0, limit);
                    return Line.ofChunks(chunks, nl, true);
                }
            }
        }
    }

    private int read(byte[] into, int off, int len) throws IOException {
        int n;
        do {
            n = in.read(into, off, len);
        } while (n == 0);
        return n;
    }
}
