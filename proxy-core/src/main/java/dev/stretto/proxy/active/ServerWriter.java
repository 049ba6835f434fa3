package dev.stretto.proxy.active;

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
 */
final class ServerWriter implements Callable<Void> {
    private final Outbox queue;
    private final Upstream upstream;
    private final Recorder log;
    // Writer thread only.
    private boolean ended;

    ServerWriter(Outbox queue, Upstream upstream, Recorder log) {
        this.queue = queue;
        this.upstream = upstream;
        this.log = log;
    }

    @Override
    public Void call() throws Exception {
        while (true) {
            Outbox.Item item = queue.take();
            if (item instanceof Outbox.Write(byte[] bytes, boolean newline, long mark)) {
                if (ended) {
                    Logger.debug("dropped a line for the server after its input ended");
                } else {
                    log.awaitDurable(mark);
                    upstream.send(bytes, newline);
                }
            } else if (item instanceof Outbox.EndOfInput && !ended) {
                ended = true;
                upstream.endOfInput();
            }
        }
    }
}
