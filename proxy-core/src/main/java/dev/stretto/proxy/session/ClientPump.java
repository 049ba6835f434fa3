package dev.stretto.proxy.session;

import dev.stretto.proxy.host.HostInput;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import dev.stretto.proxy.logging.Logger;

/**
 * Host to server, in passive mode. The thread that reads the host's input ({@link HostInput},
 * outside the scope) passes each line on as soon as it has read it: through the {@link
 * ForwardGate} (recorded first; nothing once the session stops), then to the upstream
 * unchanged, flushed when no other line follows at once. No other thread stands between the
 * host's pipe and the server's. This fork of the session's scope starts that, then waits for
 * the end of the host's input to tell the upstream so (which may run the server's shutdown
 * ladder, so it belongs in the scope), or for the failure that stopped the reader, which fails
 * the session. Interrupted when the session ends first.
 *
 * <p>When nothing is recorded (no log, no sink, no listener) and the server reads a pipe, no
 * line need be cut out: the reader passes on the bytes of each read as they are, a line's first
 * part perhaps before its end is read ({@link HostInput#copyTo}), and the gate counts the lines
 * that ended in them.
 *
 * <p>{@link Upstream#send} is thus called by the reader thread, and {@link Upstream#endOfInput}
 * by this fork once the reader has sent its last line: one at a time, in order.
 *
 * <p>With {@code --record-sync} a line may reach the server only once the log has it on disk.
 * The reader records the lines of a burst (up to {@link #BATCH}) as it reads them and holds
 * them; at the burst's end it waits until the log has forced them (together: one force) and
 * then sends them, so the host's reader waits for the disk once per burst, not once per line.
 */
final class ClientPump implements Callable<Void> {

    /**
     * How many lines that follow one another at once go to the server in one write, at most: a
     * burst costs a system call per batch rather than per line, and the server still gets
     * lines while the host goes on writing (so its answers, and their log entries, keep pace).
     */
    static final int BATCH = 32;

    private final HostInput from;
    private final ForwardGate gate;
    private final Upstream to;

    ClientPump(HostInput from, ForwardGate gate, Upstream to) {
        this.from = from;
        this.gate = gate;
        this.to = to;
    }

    @Override
    public Void call() throws Exception {
        if (!gate.records() && to.takesBytes()) {
            // Nothing is recorded: the host's bytes go to the server as they come.
            from.copyTo((bytes, offset, length, lines) -> {
                if (!gate.admit(Source.CLIENT, lines)) {
                    return false;
                }
                if (length > 0) {
                    to.sendBytes(bytes, offset, length);
                }
                return true;
            });
        } else {
            from.forwardTo(new Forwarding());
        }
        while (true) {
            // if/instanceof, not a pattern switch, whose bootstrap would delay the first line.
            HostInput.Read read = from.take();
            if (read instanceof HostInput.End(var failure)) {
                if (failure != null) {
                    Logger.warn("reading the host's input failed ({}); treating it as closed", failure.getMessage());
                }
                to.endOfInput();
                return null;
            }
            if (read instanceof HostInput.Failed(var failure)) {
                throw failure;
            }
        }
    }

    /** What the reader thread does with each line; its thread only. */
    private final class Forwarding implements HostInput.Forward {
        // Lines sent since the upstream was last flushed.
        private int unflushed;
        private final Runnable flush = this::flush;
        // Syncing: the lines recorded but not yet sent, and the log's mark after the last of them.
        private final List<Line> held = gate.syncs() ? new ArrayList<>(BATCH) : null;
        private long heldMark;

        @Override
        public boolean line(Line line, boolean more) throws Exception {
            boolean recorded;
            try {
                recorded = gate.record(Source.CLIENT, line, flush);
            } catch (UncheckedIOException e) {
                // Sending the held lines before the wait for room failed: the server's input is gone.
                throw e.getCause();
            }
            if (!recorded) {
                flush();
                return false;
            }
            if (held != null) {
                held.add(line);
                heldMark = gate.mark();
                if (!more || held.size() >= BATCH) {
                    sendHeld();
                }
                return true;
            }
            boolean hold = more && ++unflushed < BATCH;
            to.send(line, hold);
            if (!hold) {
                unflushed = 0;
            }
            return true;
        }

        // Syncing: once the log has the held lines on disk, they go to the server, flushed after the last.
        private void sendHeld() throws IOException, InterruptedException {
            if (held.isEmpty()) {
                return;
            }
            gate.awaitDurable(heldMark);
            for (int i = 0; i < held.size(); i++) {
                to.send(held.get(i), i < held.size() - 1);
            }
            held.clear();
            unflushed = 0;
        }

        // Before waiting for the log: nothing the server should have may wait in a buffer.
        private void flush() {
            if (held != null) {
                try {
                    sendHeld();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                } catch (InterruptedException e) {
                    // The session is stopping: what is held is not sent.
                    held.clear();
                    Thread.currentThread().interrupt();
                }
            }
            to.flush();
            unflushed = 0;
        }
    }
}
