package dev.stretto.proxy;

import dev.stretto.proxy.ProxyMessages.Level;
import dev.stretto.proxy.logging.StderrHandler;
import dev.stretto.proxy.logging.StderrQueue;
import java.time.Duration;
import java.util.Objects;

/**
 * The proxy's messages on {@code System.err} (the one in effect when each is written), one line
 * each starting {@code stretto-proxy: }: the default handler of every session, at {@link
 * Level#INFO}, and what the CLI prints. The lines go out through one bounded queue per JVM (of
 * 1,024 lines), written by a daemon thread of its own, so saying a
 * message never waits for stderr: when stderr is full (a host that does not read it, a server
 * that fills the stderr it shares), messages that find the queue full are dropped and counted,
 * and once stderr takes lines again, a line says how many were dropped there. Before the JVM
 * exits, the queue is written out, unless stderr has taken nothing for a second.
 */
public final class StderrMessages {

    private StderrMessages() {
    }

    /**
     * A handler for the messages at {@code threshold} and above, and for every {@linkplain
     * ProxyMessages#prompt prompt}.
     *
     * @param threshold the least severe level shown
     * @return the handler
     */
    public static ProxyMessages at(Level threshold) {
        return new StderrHandler(StderrQueue.shared(), Objects.requireNonNull(threshold, "threshold"));
    }

    /**
     * A handler for the {@linkplain ProxyMessages#prompt prompts} alone: no message at any level
     * ({@code --log-level off}), but the URL a person must open to sign in.
     *
     * @return the handler
     */
    public static ProxyMessages promptsOnly() {
        return new StderrHandler(StderrQueue.shared(), null);
    }

    /**
     * Waits until the messages given to these handlers so far are written out, or stderr has
     * taken nothing for {@code stall} (a host that does not read it). A program that ends the JVM
     * with {@code System.exit} or {@code Runtime.halt} right after a session calls this first
     * (the CLI does); the JVM's normal exit does it by itself.
     *
     * @param stall how long stderr may take nothing before the wait ends
     * @return true when every message was written
     */
    public static boolean flush(Duration stall) {
        return StderrQueue.shared().flush(Objects.requireNonNull(stall, "stall"));
    }
}
