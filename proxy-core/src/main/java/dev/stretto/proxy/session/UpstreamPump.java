package dev.stretto.proxy.session;

import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;

/**
 * Server to host: takes each line the upstream delivered ({@link ServerLines}), records it,
 * then queues it for the host ({@link HostOutput}) unchanged. Runs on one virtual thread of
 * the session's scope; interrupted when the session ends. It returns once the upstream has
 * ended and every line it delivered was taken (counting {@code drained} down then), or once
 * the session stops (see {@link ForwardGate}).
 */
final class UpstreamPump implements Callable<Void> {
    private final ServerLines from;
    private final ForwardGate gate;
    private final HostOutput to;
    private final CountDownLatch drained;

    UpstreamPump(ServerLines from, ForwardGate gate, HostOutput to, CountDownLatch drained) {
        this.from = from;
        this.gate = gate;
        this.to = to;
        this.drained = drained;
    }

    @Override
    public Void call() throws InterruptedException {
        ServerLines.Item item;
        while ((item = from.take()) != null) {
            if (!gate.record(item.from(), item.line())) {
                return null;
            }
            to.write(item.line());
        }
        drained.countDown();
        return null;
    }
}
