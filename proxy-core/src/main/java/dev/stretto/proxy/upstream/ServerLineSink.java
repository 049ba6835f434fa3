package dev.stretto.proxy.upstream;

/**
 * Where the server's lines go. The session's implementation records each line, then
 * forwards it to the host, so it is safe to call from any thread; calls are serialised
 * in the order they are made.
 */
@FunctionalInterface
public interface ServerLineSink {

    /**
     * One line from the server.
     *
     * @param line    the line's bytes without its {@code '\n'}
     * @param newline false only for a last line that had no terminator
     */
    void line(byte[] line, boolean newline);
}
