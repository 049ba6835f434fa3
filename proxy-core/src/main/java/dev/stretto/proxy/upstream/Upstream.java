package dev.stretto.proxy.upstream;

import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.io.Line;
import java.io.IOException;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;

/**
 * The server end of one session: a child process on stdio, a Streamable HTTP endpoint, or a
 * server in the same JVM behind a pair of streams. Lines the server sends go to the session's
 * {@link ServerLineSink}, from whatever thread reads them: in passive mode that thread records
 * and forwards each line in the call (and may wait there for room), in active mode the line
 * goes to the actor's mailbox.
 *
 * <p>Threads and ownership: the Session calls {@link #start} once, before it forks anything.
 * {@link #send} and {@link #endOfInput} are then called by one thread only, in the order the
 * lines are to reach the server: the thread that reads the host's input, then the client pump
 * for {@link #endOfInput} (in active mode, the actor's server writer). {@link #awaitEnd} and each of {@link #companions()} run
 * as forks of the session's scope. {@link #stop} and {@link #abort} may be called from any
 * thread, at any time, more than once.
 */
public interface Upstream {

    /**
     * Connects the server to the session: starts the child, or prepares the HTTP client.
     * Lines the server sends from now on go to {@code toHost}.
     *
     * @param toHost where the server's lines go
     * @param work   where the upstream runs work of its own that must not hold up its caller
     *               (each HTTP exchange): the session runs each task in a fork of a scope
     *               nested in its own, so that the session's end ends it; {@code execute}
     *               never blocks
     * @throws UpstreamStartException when the server cannot be started or reached at all
     */
    void start(ServerLineSink toHost, Executor work) throws IOException;

    /**
     * Passes one line from the host to the server.
     *
     * @param line    the line's bytes without its {@code '\n'}, exactly as the host wrote them
     * @param newline false only for a last line that had no terminator
     */
    void send(byte[] line, boolean newline) throws IOException, InterruptedException;

    /**
     * Passes one line from the host to the server, as {@link #send(byte[], boolean)} does; a
     * long line is written from the chunks it was read in where the upstream can (see {@link
     * Line}). By default it is passed on in one array.
     */
    default void send(Line line) throws IOException, InterruptedException {
        send(line.bytes(), line.terminated());
    }

    /**
     * As {@link #send(Line)}; {@code more} says that another line follows at once, so an
     * upstream that buffers need not flush this one yet (the last line before a pause is sent
     * with {@code more} false). By default the same as {@link #send(Line)}.
     */
    default void send(Line line, boolean more) throws IOException, InterruptedException {
        send(line);
    }

    /**
     * Whether the upstream takes the host's bytes as they come ({@link #sendBytes}), without
     * being told where lines end: a server that reads a pipe does. By default false: each line
     * is sent on its own.
     */
    default boolean takesBytes() {
        return false;
    }

    /**
     * Passes bytes of the host's on to the server as they are, at once (a line may begin in
     * one call and end in a later one): for a session that records nothing. Only when {@link
     * #takesBytes()}; called by the one thread that sends.
     *
     * @throws UnsupportedOperationException when the upstream does not take bytes
     */
    default void sendBytes(byte[] bytes, int offset, int length) throws IOException {
        throw new UnsupportedOperationException("this upstream takes the host's lines one at a time");
    }

    /**
     * Writes out what {@link #send(Line, boolean)} left buffered. Called by the sender before
     * it waits for anything else, so that no line sits in a buffer while it waits. By default
     * nothing.
     */
    default void flush() {
    }

    /** The host closed its input: no more {@link #send} calls follow. */
    void endOfInput() throws IOException, InterruptedException;

    /**
     * Blocks until the server side is finished and returns the exit status the proxy should
     * report: the child's status (128 + n when signal n killed it), or 0 for an HTTP session
     * that ended normally.
     */
    int awaitEnd() throws Exception;

    /**
     * Loops the session forks beside {@link #awaitEnd} (the HTTP GET event stream). Each
     * returns once the upstream is finished, and stops when interrupted.
     */
    default List<Callable<Void>> companions() {
        return List.of();
    }

    /**
     * The session was told to stop (its thread was interrupted, as the CLI does on SIGTERM):
     * ends the server side in good order but promptly, and returns once it has ended. A child
     * and its tree get SIGTERM, then SIGKILL a moment later; an HTTP session is ended with a
     * DELETE, waited for briefly. Nothing more reaches the host. Idempotent; by default the same
     * as {@link #abort()}.
     */
    default void stop() {
        abort();
    }

    /** Ends the server side at once: destroys the child, cancels HTTP exchanges. Idempotent. */
    void abort();

    /**
     * How the server side ended, once {@link #awaitEnd()} has returned or the upstream was
     * stopped or aborted: by itself, or ended by the proxy (the ladder's SIGTERM or SIGKILL,
     * streams closed or exchanges given up on while the server had not finished).
     */
    ServerEnd serverEnd();
}
