package dev.stretto.proxy.session;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.log.Source;
import java.util.concurrent.Callable;
import org.tinylog.Logger;

/**
 * Host to server: takes each line the host wrote, records it, then passes it to the
 * upstream unchanged; at the end of the host's input, tells the upstream so. Runs on one virtual thread of the session's scope; interrupted when the
 * session ends first. Once the session stops, lines are no longer passed on (see {@link
 * ForwardGate}).
 */
final class ClientPump implements Callable<Void> {
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
        while (true) {
            // if/instanceof, not a pattern switch, whose bootstrap would delay the first line.
            HostInput.Read read = from.take();
            if (read instanceof HostInput.Got(Line line)) {
                if (!gate.record(Source.CLIENT, line)) {
                    return null;
                }
                to.send(line);
            } else if (read instanceof HostInput.End(var failure)) {
                if (failure != null) {
                    Logger.warn("reading the host's input failed ({}); treating it as closed", failure.getMessage());
                }
                to.endOfInput();
                return null;
            }
        }
    }
}
