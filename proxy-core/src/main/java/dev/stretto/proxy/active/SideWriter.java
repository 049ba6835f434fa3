package dev.stretto.proxy.active;

import java.util.concurrent.Callable;
import org.tinylog.Logger;

/**
 * Writes one side's outbound queue out: to the host's stdout, or to the server (a child's
 * stdin, or POSTs). The only thread that may block on that side, so the actor never does. A
 * fork of the session's scope; it runs until the session ends and interrupts it.
 */
final class SideWriter implements Callable<Void> {

    /** Where a writer's lines go. */
    interface Side {

        /** Writes one line; may block while the side does not read. */
        void write(byte[] line, boolean newline) throws Exception;

        /** No more lines follow (the server's input ends). */
        default void endOfInput() throws Exception {
        }
    }

    private final String name;
    private final Outbox queue;
    private final Side side;
    // Writer thread only.
    private boolean ended;

    SideWriter(String name, Outbox queue, Side side) {
        this.name = name;
        this.queue = queue;
        this.side = side;
    }

    @Override
    public Void call() throws Exception {
        while (true) {
            Outbox.Item item = queue.take();
            if (item instanceof Outbox.Write(byte[] bytes, boolean newline)) {
                if (ended) {
                    Logger.debug("dropped a line for {} after its input ended", name);
                } else {
                    side.write(bytes, newline);
                }
            } else if (item instanceof Outbox.EndOfInput) {
                if (!ended) {
                    ended = true;
                    side.endOfInput();
                }
            } else if (item instanceof Outbox.Mark(var done)) {
                done.complete(null);
            }
        }
    }
}
