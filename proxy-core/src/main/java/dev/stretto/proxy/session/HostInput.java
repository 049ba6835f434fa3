package dev.stretto.proxy.session;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineReader;
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

    private final BlockingQueue<Read> queue = new ArrayBlockingQueue<>(CAPACITY);
    private volatile boolean closed;
    // Set once the end of the host's input was taken: the session then knows the host closed it.
    private volatile boolean ended;

    private HostInput() {
    }

    /** Starts reading {@code in} on a new daemon thread named {@code threadName}. */
    public static HostInput start(InputStream in, String threadName) {
        HostInput input = new HostInput();
        Thread.ofPlatform().daemon().name(threadName).start(() -> input.readAll(in));
        return input;
    }

    private void readAll(InputStream in) {
        LineReader reader = new LineReader(in);
        try {
            Line line;
            while (!closed && (line = reader.next()) != null) {
                if (!hand(new Got(line))) {
                    return;
                }
            }
            hand(new End(null));
        } catch (IOException e) {
            hand(new End(e));
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
