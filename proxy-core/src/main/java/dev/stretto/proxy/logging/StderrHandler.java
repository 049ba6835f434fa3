package dev.stretto.proxy.logging;

import dev.stretto.proxy.ProxyMessages;
import java.util.Objects;

/** The messages at a threshold and above, handed to a {@link StderrQueue} (see {@code StderrMessages}). */
public final class StderrHandler implements ProxyMessages {
    private final StderrQueue queue;
    private final Level threshold;

    public StderrHandler(StderrQueue queue, Level threshold) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.threshold = Objects.requireNonNull(threshold, "threshold");
    }

    @Override
    public void message(Level level, String text) {
        if (level.passes(threshold)) {
            queue.offer(text);
        }
    }

    @Override
    public boolean enabled(Level level) {
        return level.passes(threshold);
    }

    @Override
    public String toString() {
        return "stderr at " + threshold;
    }
}
