package dev.stretto.proxy.active;

import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.upstream.Upstream;
import java.util.concurrent.Callable;
import dev.stretto.proxy.logging.Logger;

/**
 * Writes the server's outbound queue out: to a child's stdin, or as POSTs. The only thread
 * that may block on the server's side, so the actor never does. A fork of the session's
 * scope (a write to a child that stopped reading ends when the session ends the child); it
 * runs until the session ends and interrupts it. The host's side has the session's own
 * writer, the host output. With {@code --record-sync} it sends a line only once the log has it
 * on disk: lines the actor queues meanwhile are forced together.
 *
 * <p>The queue ({@link #queue}) is bounded as one side is and gates: the actor never waits on
 * it, and while it is full the mailbox's gate keeps the actor from taking the host's events
 * that would add to it (so it goes over its bound by at most what the actor writes for one
 * event: a refusal, a commit's next call). When the writer takes an item it wakes the mailbox.
 */
final class ServerWriter implements Callable<Void> {

    /** What the writer is asked to do. */
    sealed interface Item {
    }

    /**
     * Write a line.
     *
     * @param bytes   the line without its terminator
     * @param newline whether to write {@code '\n'} after it
     * @param mark    the log's mark once the line was recorded ({@code Recorder.mark()}): with
     *                {@code --record-sync} the writer waits until the log has it on disk
     */
    record Write(byte[] bytes, boolean newline, long mark) implements Item {
    }

    /** The server's input ends here: the host closed its input and the proxy's own work is done. */
    record EndOfInput() implements Item {
    }

    /** The server's outbound queue; {@code onTaken} runs after each take (the mailbox's wake-up). */
    static LineQueue<Item> queue(Runnable onTaken) {
        return new LineQueue<>(LineQueue.Bound.SIDE, LineQueue.Policy.GATE,
                item -> item instanceof Write w ? w.bytes().length : 0, onTaken);
    }

    private final LineQueue<Item> queue;
    private final Upstream upstream;
    private final Recorder log;
    // Writer thread only.
    private boolean ended;

    ServerWriter(LineQueue<Item> queue, Upstream upstream, Recorder log) {
        this.queue = queue;
        this.upstream = upstream;
        this.log = log;
    }

    @Override
    public Void call() throws Exception {
        while (true) {
            Item item = queue.take();
            if (item instanceof Write(byte[] bytes, boolean newline, long mark)) {
                if (ended) {
                    Logger.debug("dropped a line for the server after its input ended");
                } else {
                    log.awaitDurable(mark);
                    upstream.send(bytes, newline);
                }
            } else if (item instanceof EndOfInput && !ended) {
                ended = true;
                upstream.endOfInput();
            } else if (item == null) {
                // Closed: the session is over.
                return null;
            }
        }
    }
}
