package dev.stretto.trace.log;

import java.io.Closeable;
import java.io.Flushable;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;

/**
 * Writes session log entries as lines of UTF-8 to a stream, straight from each line's bytes:
 * the bytes {@link LineClassifier}'s rule makes a {@code message} are spliced in as they are,
 * other lines are written as {@code raw} text, made well-formed and escaped on the way, in one
 * pass. No entry is built as a string and no line copied whole, so a line of any length costs
 * its own bytes and this writer's buffer. The bytes are those of {@link LogEntry#toJson()}
 * (each line followed by {@code '\n'}), which a log file holds.
 *
 * <p>Buffered: entries reach the stream when the buffer is full and at {@link #flush()}. Not
 * thread-safe: one writer thread owns an instance.
 */
public final class EntryWriter implements Flushable, Closeable {

    /** The buffer's size: large writes, so that a busy log costs few system calls. */
    static final int BUFFER = 256 * 1024;

    private static final byte[] T_MS = ascii("{\"t_ms\":");
    private static final byte[] FROM = ascii(",\"from\":\"");
    private static final byte[] MESSAGE = ascii("\",\"message\":");
    private static final byte[] RAW = ascii("\",\"raw\":\"");
    private static final byte[][] SOURCES = sources();

    private final OutputStream stream;
    private final ByteOut out;
    private final MessageCheck check = new MessageCheck();
    private final LossyUtf8 raw;

    /**
     * A writer of entries to {@code out}, which it closes at {@link #close()}.
     *
     * @param out where the log's lines go
     */
    public EntryWriter(OutputStream out) {
        this.stream = out;
        this.out = new ByteOut(out, BUFFER);
        this.raw = new LossyUtf8(this.out, true);
    }

    /**
     * Writes the entry of one line: read at {@code tMs}, from {@code from}; its bytes (without
     * the line's {@code '\n'}) as a message or as raw text, by {@link LineClassifier}'s rule.
     *
     * @param tMs  when the line was read, in ms since the session started
     * @param from who wrote it
     * @param line its bytes
     * @throws IOException when the stream cannot take it
     */
    public void write(long tMs, Source from, LineBytes line) throws IOException {
        int pieces = line.pieceCount();
        // Trailing CRs (and LFs) are the terminator's, not the line's text.
        int lastPiece = pieces - 1;
        int lastLength = line.pieceLength(lastPiece);
        while (true) {
            byte[] p = line.piece(lastPiece);
            while (lastLength > 0 && (p[lastLength - 1] == '\r' || p[lastLength - 1] == '\n')) {
                lastLength--;
            }
            if (lastLength > 0 || lastPiece == 0) {
                break;
            }
            lastPiece--;
            lastLength = line.pieceLength(lastPiece);
        }
        check.reset();
        for (int i = 0; i <= lastPiece; i++) {
            check.update(line.piece(i), 0, i == lastPiece ? lastLength : line.pieceLength(i));
        }
        try {
            head(tMs, from);
            if (check.isMessage()) {
                out.put(MESSAGE, 0, MESSAGE.length);
                long start = check.messageStart();
                long end = check.messageEnd();
                long at = 0;
                for (int i = 0; i <= lastPiece && at < end; i++) {
                    int n = i == lastPiece ? lastLength : line.pieceLength(i);
                    long from0 = Math.max(start, at);
                    long to = Math.min(end, at + n);
                    if (to > from0) {
                        out.put(line.piece(i), (int) (from0 - at), (int) (to - from0));
                    }
                    at += n;
                }
                out.put('}');
            } else {
                out.put(RAW, 0, RAW.length);
                for (int i = 0; i <= lastPiece; i++) {
                    raw.update(line.piece(i), 0, i == lastPiece ? lastLength : line.pieceLength(i));
                }
                raw.finish();
                out.put('"');
                out.put('}');
            }
            out.put('\n');
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Writes an entry that was made already (a scrubbed one, say): the line {@link
     * LogEntry#toJson()} gives.
     *
     * @param entry the entry
     * @throws IOException when the stream cannot take it
     */
    public void write(LogEntry entry) throws IOException {
        byte[] json = entry.toJson().getBytes(StandardCharsets.UTF_8);
        try {
            out.put(json, 0, json.length);
            out.put('\n');
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private void head(long tMs, Source from) {
        out.put(T_MS, 0, T_MS.length);
        out.putDecimal(tMs);
        out.put(FROM, 0, FROM.length);
        byte[] name = SOURCES[from.ordinal()];
        out.put(name, 0, name.length);
    }

    /** Writes what is buffered to the stream, and flushes it. */
    @Override
    public void flush() throws IOException {
        try {
            out.drain();
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
        stream.flush();
    }

    /** Flushes, then closes the stream. */
    @Override
    public void close() throws IOException {
        try {
            flush();
        } finally {
            stream.close();
        }
    }

    private static byte[] ascii(String s) {
        return s.getBytes(StandardCharsets.US_ASCII);
    }

    private static byte[][] sources() {
        Source[] all = Source.values();
        byte[][] names = new byte[all.length][];
        for (Source s : all) {
            names[s.ordinal()] = ascii(s.wireName());
        }
        return names;
    }
}
