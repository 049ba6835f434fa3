package dev.stretto.proxy.logging;

import dev.stretto.proxy.ProxyMessages;
import java.util.Objects;

/**
 * The messages at a threshold and above, and every prompt, handed to a {@link StderrQueue} (see
 * {@code StderrMessages}).
 */
public final class StderrHandler implements ProxyMessages {
    private final StderrQueue queue;
    private final Level threshold;

    /**
     * @param queue     where the lines go
     * @param threshold the least severe level shown, or null for none: prompts only
     */
    public StderrHandler(StderrQueue queue, Level threshold) {
        this.queue = Objects.requireNonNull(queue, "queue");
        this.threshold = threshold;
    }

    @Override
    public void message(Level level, String text) {
        if (enabled(level)) {
            queue.offer(text);
        }
    }

    @Override
    public void prompt(String text) {
        queue.offer(text);
    }

    @Override
    public boolean enabled(Level level) {
        return threshold != null && level.passes(threshold);
    }

    @Override
    public String toString() {
        return threshold == null ? "stderr, prompts only" : "stderr at " + threshold;
    }
}
