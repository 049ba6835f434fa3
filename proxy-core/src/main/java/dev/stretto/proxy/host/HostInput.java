package dev.stretto.proxy.host;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineReader;
import dev.stretto.proxy.logging.Logger;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * The host's input, read line by line on a daemon thread of its own, outside the session's
 * scope: a blocking read of a pipe cannot be cancelled by interrupting its thread, but a
 * {@link #take()} from the queue this thread fills can, so a session can end while the host
 * still holds its input open.
 *
 * <p>Two ways to use it, chosen by the first call. {@link #take()} (active mode: the actor's
 * pump) gets every line through the queue. {@link #forwardTo} (passive mode) has the reader
 * thread pass each line on itself, as soon as it is read, with no other thread in between; only
 * the end of the input (or a failure to pass a line on) goes through the queue, for the
 * session's scope to act on. The thread starts with that first call.
 *
 * <p>Queue policy: bounded ({@value #CAPACITY} lines); when full, the reader stops reading,
 * which in turn makes the host wait. After {@link #close()} the reader thread stops as soon
 * as its current read returns; a read that never returns keeps that one daemon thread.
 */
public final class HostInput implements AutoCloseable {
    static final int CAPACITY = 16;

    /** What the reader found next. */
    public sealed interface Read {
    }

    /** A line from the host. */
    public record Got(Line line) implements Read {
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

    /** Where the reader thread passes each line in passive mode. */
    @FunctionalInterface
    public interface Forward {
        /**
         * Passes one line on (records it, then sends it to the server).
         *
         * @param more whether another whole line is already read and follows at once: the
         *             line need not be flushed to the server yet
         * @return false when the session takes no more lines
         */
        boolean line(Line line, boolean more) throws Exception;
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
     * Passive mode: the reader thread passes every line to {@code forward} as it reads it;
     * {@link #take()} then gets only the end of the input, or the failure that stopped it.
     */
    public void forwardTo(Forward forward) {
        startThread(forward);
    }

    private synchronized void startThread(Forward forward) {
        if (!started) {
            started = true;
            Thread.ofPlatform().daemon().name(threadName).start(Logger.carry(() -> readAll(forward)));
        }
    }

    private void readAll(Forward forward) {
        LineReader reader = new LineReader(in);
        try {
            Line line;
            while (!closed && (line = reader.next()) != null) {
                if (forward == null) {
                    if (!hand(new Got(line))) {
                        return;
                    }
                } else if (!passOn(forward, line, reader.hasBufferedLine())) {
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

    /** The next line or the end; waits until there is one. Interruptible. */
    public Read take() throws InterruptedException {
        startThread(null);
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
