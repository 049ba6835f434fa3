package dev.stretto.proxy.upstream;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineRun;

/**
 * Where the server's lines go. The session's implementation records each line, then
 * forwards it to the host, so it is safe to call from any thread; calls are serialised
 * in the order they are made (lines of both methods share one order).
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

    /**
     * One line from the server as its reader read it: a long line in the chunks it was read
     * in (see {@link Line}). By default passed to {@link #line(byte[], boolean)} in one array.
     */
    default void line(Line line) {
        line(line.bytes(), line.terminated());
    }

    /**
     * Whether the sink takes the server's lines as runs, every whole line of one read at once
     * ({@link #lines}): the session's does when nothing is recorded. A reader asks once, before
     * its first line. By default false.
     */
    default boolean takesRuns() {
        return false;
    }

    /**
     * The whole lines of one read of the server's output, as they were read. Called only when
     * {@link #takesRuns()}, in place of {@link #line(Line)}.
     *
     * @throws UnsupportedOperationException when the sink takes lines one at a time
     */
    default void lines(LineRun run) {
        throw new UnsupportedOperationException("this sink takes the server's lines one at a time");
    }

    /**
     * A line the proxy writes to the host in the server's place, such as the JSON-RPC error
     * that answers a request the server refused or could not be reached for. It reaches the
     * host like a server line, but the session log records it as the proxy's ({@code "from":
     * "proxy"}), since the server never sent it. By default it is passed to {@link #line}.
     *
     * @param line    the line's bytes without its {@code '\n'}
     * @param newline false only for a last line that had no terminator
     */
    default void proxyLine(byte[] line, boolean newline) {
        line(line, newline);
    }
}
