package dev.stretto.proxy.host;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineReader;
import dev.stretto.proxy.io.Newlines;
import dev.stretto.proxy.logging.Logger;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The host's input, read on a daemon thread of its own, outside the session's scope, which
 * passes on what it reads itself: a blocking read of a pipe cannot be cancelled by
 * interrupting its thread, but a {@link #take()} from the queue this thread fills can, so a
 * session can end while the host still holds its input open.
 *
 * <p>Two ways to pass the host's input on, chosen by the first call, which starts the thread.
 * {@link #forwardTo} has the reader thread pass each line on as soon as it is read (passive
 * mode: recorded and sent to the server; active mode: posted to the actor), with no other
 * thread in between; {@link #copyTo} (passive mode, nothing recorded) has it pass on the bytes
 * of each read as they are, lines or parts of lines, into a buffer of {@value #COPY_BUFFER}
 * bytes. Only the end of the input (or a failure to pass something on) goes through the queue,
 * for the session's scope to act on ({@link #take()}).
 *
 * <p>Backpressure: the reader waits in whatever it passes a line to (a full log queue, the
 * server's pipe, the actor's mailbox), which in turn makes the host wait. The queue holds at
 * most {@value #CAPACITY} items (it gets one). After {@link #close()} the reader thread stops as soon
 * as its current read returns; a read that never returns keeps that one daemon thread.
 */
public final class HostInput implements AutoCloseable {
    static final int CAPACITY = 16;

    /** How many bytes {@link #copyTo} reads at most at a time. */
    static final int COPY_BUFFER = 128 * 1024;

    /** What the reader found next. */
    public sealed interface Read {
    }

    /**
     * The host's input ended.
     *
     * @param failure why reading failed, or null for a plain end of stream
     */
    public record End(IOException failure) implements Read {
    }

    /** Passing a line on failed ({@link #forwardTo}): the session fails with it. */
    public record Failed(Exception failure) implements Read {
    }

    /** Where the reader thread passes each line. */
    @FunctionalInterface
    public interface Forward {
        /**
         * Passes one line on (passive mode: records it, then sends it to the server).
         *
         * @param more whether another whole line is already read and follows at once: the
         *             line need not be flushed to the server yet
         * @return false when the session takes no more lines
         */
        boolean line(Line line, boolean more) throws Exception;
    }

    /** Where the reader thread passes the host's bytes in passive mode when nothing is recorded. */
    @FunctionalInterface
    public interface Copy {
        /**
         * Passes on {@code length} bytes of {@code bytes} from {@code offset}, exactly as read,
         * in which {@code lines} lines end (their newlines; at the end of the input, a last line
         * without one is passed as no bytes and one line).
         *
         * @return false when the session takes no more
         */
        boolean bytes(byte[] bytes, int offset, int length, int lines) throws Exception;
    }

    private final InputStream in;
    private final String threadName;
    private final BlockingQueue<Read> queue = new ArrayBlockingQueue<>(CAPACITY);
    private boolean started;
    private volatile boolean closed;
    // Set once the end of the host's input was taken: the session then knows the host closed it.
    private volatile boolean ended;

    private HostInput(InputStream in, String threadName) {
        this.in = in;
        this.threadName = threadName;
    }

    /**
     * The host input {@code in}, to be read on a daemon thread named {@code threadName}, which
     * starts with the first {@link #take()} or {@link #forwardTo}.
     */
    public static HostInput start(InputStream in, String threadName) {
        return new HostInput(in, threadName);
    }

    /**
     * The reader thread passes every line to {@code forward} as it reads it; {@link #take()}
     * gets the end of the input, or the failure that stopped it.
     */
    public void forwardTo(Forward forward) {
        startReading(() -> readAll(forward));
    }

    /**
     * Passive mode, nothing recorded: the reader thread passes the bytes of every read to
     * {@code copy} as they are; {@link #take()} then gets only the end of the input, or the
     * failure that stopped it.
     */
    public void copyTo(Copy copy) {
        startReading(() -> copyAll(copy));
    }

    private synchronized void startReading(Runnable reading) {
        if (!started) {
            started = true;
            Thread.ofPlatform().daemon().name(threadName).start(Logger.carry(reading));
        }
    }

    private void copyAll(Copy copy) {
        byte[] buf = new byte[COPY_BUFFER];
        // Whether the bytes passed on so far end inside a line.
        boolean inLine = false;
        try {
            int n;
            while (!closed && (n = in.read(buf)) >= 0) {
                if (n == 0) {
                    continue;
                }
                inLine = buf[n - 1] != '\n';
                if (!copied(copy, buf, n, Newlines.count(buf, 0, n))) {
                    return;
                }
            }
            if (!closed && inLine && !copied(copy, buf, 0, 1)) {
                return;
            }
            hand(new End(null));
        } catch (IOException e) {
            hand(new End(e));
        }
    }

    // As passOn, for bytes.
    private boolean copied(Copy copy, byte[] buf, int length, int lines) {
        try {
            return copy.bytes(buf, 0, length, lines);
        } catch (Exception e) {
            hand(new Failed(e));
            return false;
        }
    }

    private void readAll(Forward forward) {
        LineReader reader = new LineReader(in);
        try {
            Line line;
            while (!closed && (line = reader.next()) != null) {
                if (!passOn(forward, line, reader.hasBufferedLine())) {
                    return;
                }
            }
            hand(new End(null));
        } catch (IOException e) {
            hand(new End(e));
        }
    }

    // A failure to pass a line on (an upstream's IOException too) fails the session: it is not
    // the end of the host's input.
    private boolean passOn(Forward forward, Line line, boolean more) {
        try {
            return forward.line(line, more);
        } catch (Exception e) {
            hand(new Failed(e));
            return false;
        }
    }

    // Waits for room, giving up once the input is closed (nobody will take any more).
    private boolean hand(Read read) {
        try {
            while (!closed) {
                if (queue.offer(read, 100, TimeUnit.MILLISECONDS)) {
                    return true;
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return false;
    }

    /**
     * The end of the input, or the failure that stopped the reader ({@link #forwardTo} or
     * {@link #copyTo} started it); waits until there is one. Interruptible.
     */
    public Read take() throws InterruptedException {
        Read read = queue.take();
        if (read instanceof End) {
            ended = true;
        }
        return read;
    }

    /** Whether the end of the host's input has been taken: the host closed it (or reading it failed). */
    public boolean ended() {
        return ended;
    }

    /** Nobody takes any more: the reader thread stops once its current read returns. */
    @Override
    public void close() {
        closed = true;
        queue.clear();
    }
}
