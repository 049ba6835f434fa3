package dev.stretto.proxy;

import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.logging.StderrHandler;
import dev.stretto.proxy.logging.StderrQueue;
import java.time.Duration;
import java.util.Objects;

/**
 * Where the proxy's own messages go: what it says about a session as it runs ({@code recording
 * to ...}, a refused call, a server that did not exit and was sent SIGTERM, an upstream that
 * cannot be reached), never the protocol. A session's messages go to the handler of its {@link
 * ProxyConfig.Builder#messages configuration}; by default to {@link #stderr(Level) stderr} at
 * {@link Level#INFO}, each line starting {@code stretto-proxy: }, whatever logging library is
 * on the class path: the proxy writes nothing to {@code System.out}, and uses no logging
 * framework.
 *
 * <p>{@link #message} is called on the thread that says the message, often several threads at
 * once, so a handler must be thread-safe; and it must not block, since that thread may be
 * forwarding lines or ending the server (hand the text to a queue of your own, or to your
 * logger if it does so). A handler that throws loses that message, nothing more.
 *
 * <p>What the program calls itself outside a session ({@link Subreaper#enable()}, {@link
 * Subreaper#reapOrphans()}) says what it has to say to the default handler, unless it runs
 * inside {@link #runWith}.
 */
@FunctionalInterface
public interface ProxyMessages {

    /** How much a message matters, the most severe first. */
    enum Level {
        /** Something failed: a session could not start, or goes on without part of itself. */
        ERROR,
        /** Something the user should know and may have to act on. */
        WARN,
        /** What the proxy does, once per session or per event that matters ({@code recording to ...}). */
        INFO,
        /** Details for finding out why something happened. */
        DEBUG,
        /** More details still. */
        TRACE;

        /**
         * Whether a message at this level passes a handler that shows {@code threshold} and above.
         *
         * @param threshold the least severe level shown
         * @return true when this level is {@code threshold} or more severe
         */
        public boolean passes(Level threshold) {
            return compareTo(threshold) <= 0;
        }
    }

    /**
     * Takes one message.
     *
     * @param level how much it matters
     * @param text  the message, without a prefix; one line, or several for a stack trace at
     *              {@link Level#DEBUG}
     */
    void message(Level level, String text);

    /**
     * Whether this handler wants messages at {@code level}: the proxy skips making the text of
     * those it does not. All of them, unless overridden.
     *
     * @param level the level of a message about to be made
     * @return true to be given messages at that level
     */
    default boolean enabled(Level level) {
        return true;
    }

    /**
     * Messages at {@code threshold} and above, on {@code System.err} (the one in effect when
     * each is written), one line each starting {@code stretto-proxy: }. The lines go out through
     * one bounded queue per JVM, written by a daemon thread of its own, so saying a message never
     * waits for stderr: when stderr is full (a host that does not read it), messages that find the
     * queue full are dropped and counted, and once stderr takes lines again, a line says how many
     * were dropped there. Before the JVM exits, the queue is written out, unless stderr has taken
     * nothing for a second ({@link #flushStderr}).
     *
     * @param threshold the least severe level shown
     * @return the handler
     */
    static ProxyMessages stderr(Level threshold) {
        return new StderrHandler(StderrQueue.shared(), Objects.requireNonNull(threshold, "threshold"));
    }

    /**
     * A handler that takes nothing ({@code --log-level off}).
     *
     * @return the handler
     */
    static ProxyMessages discard() {
        return new ProxyMessages() {
            @Override
            public void message(Level level, String text) {
            }

            @Override
            public boolean enabled(Level level) {
                return false;
            }
        };
    }

    /**
     * Waits until the messages given to {@link #stderr} handlers so far are written out, or
     * stderr has taken nothing for {@code stall} (a host that does not read it). A program that
     * ends the JVM with {@code System.exit} or {@code Runtime.halt} right after a session calls
     * this first (the CLI does); the JVM's normal exit does it by itself.
     *
     * @param stall how long stderr may take nothing before the wait ends
     * @return true when every message was written
     */
    static boolean flushStderr(Duration stall) {
        return StderrQueue.shared().flush(stall);
    }

    /**
     * Runs {@code task} with {@code handler} taking the messages the proxy says on this thread
     * meanwhile (and on the threads the proxy starts from it): for what a program calls outside
     * a session, such as {@link Subreaper#enable()} and {@link Subreaper#reapOrphans()}. A
     * session inside {@code task} still uses the handler of its own configuration.
     *
     * @param handler where the messages go
     * @param task    what to run
     */
    static void runWith(ProxyMessages handler, Runnable task) {
        Logger.runWith(Objects.requireNonNull(handler, "handler"), Objects.requireNonNull(task, "task"));
    }
}
