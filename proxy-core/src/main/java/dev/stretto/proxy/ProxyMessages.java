package dev.stretto.proxy;

import dev.stretto.proxy.io.IoMessages;
import java.io.IOException;

/**
 * Where the proxy's own messages go: what it says about a session as it runs ({@code recording
 * to ...}, a refused call, a server that did not exit and was sent SIGTERM, an upstream that
 * cannot be reached), never the protocol. A session's messages go to the handler of its {@link
 * ProxyConfig.Builder#messages configuration}; by default to {@linkplain StderrMessages stderr}
 * at {@link Level#INFO}, each line starting {@code stretto-proxy: }, whatever logging library
 * is on the class path: the proxy writes nothing to {@code System.out}, and uses no logging
 * framework.
 *
 * <p>{@link #message} is called on the thread that says the message, often several threads at
 * once, so a handler must be thread-safe; and it must not block, since that thread may be
 * forwarding lines or ending the server (hand the text to a queue of your own, or to your
 * logger if it does so). A handler that throws loses that message, nothing more.
 *
 * <p>What the program calls itself outside a session ({@link Subreaper#enable()}, {@link
 * Subreaper#reapOrphans()}) says what it has to say to the default handler, unless it runs
 * inside {@link Proxy#runWith}.
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
     * Takes a message a person must read to go on, shown whatever the level: the URL to open to
     * sign in to an OAuth server ({@code to sign in to ..., open this URL in a browser: ...}).
     * The proxy does not ask {@link #enabled} first. By default it is given to {@link #message}
     * at {@link Level#WARN}; a handler that leaves out messages at that level overrides this to
     * show it anyway, as the proxy's own stderr handlers do at every level.
     *
     * @param text the message, one line, without a prefix
     */
    default void prompt(String text) {
        message(Level.WARN, text);
    }

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
     * How the proxy's messages word an I/O failure: short, without the file's name or a stack
     * trace ({@code no such file or directory}, {@code permission denied}, the system's reason).
     *
     * @param e the failure
     * @return the wording
     */
    static String describe(IOException e) {
        return IoMessages.describe(e);
    }

    /**
     * A handler that takes nothing, prompts included.
     *
     * @return the handler
     */
    static ProxyMessages discard() {
        return new ProxyMessages() {
            @Override
            public void message(Level level, String text) {
            }

            @Override
            public void prompt(String text) {
            }

            @Override
            public boolean enabled(Level level) {
                return false;
            }
        };
    }
}
