package dev.stretto.proxy.upstream;

import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.ShutdownTimings;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.ClosedByInterruptException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import dev.stretto.proxy.logging.Logger;

/**
 * A server in the same JVM, reached through a pair of streams: the proxy writes the host's
 * lines to {@code toServer} and reads the server's from {@code fromServer}, exactly as it does
 * a child's stdin and stdout, byte for byte.
 *
 * <p>Threads and ownership: {@link #send} runs on the host's reader and {@link #endOfInput} on
 * the client pump, a virtual thread: a write that blocks for good keeps the session from
 * ending, so give a stream whose writes fail or return once the server is gone. {@link #awaitEnd} runs as a fork of
 * the session's scope. {@code fromServer} is read by an {@link OutputReader}, a daemon thread
 * {@code stretto-server-output-<name>} outside the scope, which ends when the stream ends,
 * fails or is closed (a {@link java.nio.channels.Channels} stream of a pipe is unblocked by
 * closing it; a stream whose read ignores {@code close} keeps that thread until it returns).
 * {@link #abort} and {@link #stop} may come from any thread.
 *
 * <p>Ending, by the rules of a child, for what a stream can tell: the server has "exited" when
 * its output has ended (the end of {@code fromServer}, or a read that failed, which is
 * reported). That ends the session at once, even while the host's input is open. When the host
 * closes its input, {@code toServer} is closed, and the server's output may take {@link
 * ShutdownTimings#grace()} to end; after that the proxy stops waiting, closes {@code
 * fromServer} and ends the session without the rest (there is no signal to send). A stream has
 * no exit status: it is 0. The session owns both streams: they are closed when it ends.
 */
public final class StreamUpstream implements PipedUpstream {
    private final String name;
    private final InputStream fromServer;
    private final OutputStream toServer;
    private final ShutdownTimings timings;
    private final ServerInput input;
    private final CompletableFuture<Void> inputEnded = new CompletableFuture<>();
    // Set once the proxy closes fromServer itself: a read that fails then is no news.
    private volatile boolean closing;
    // Set when the proxy closed the streams while the server's output was still open.
    private volatile boolean cutOff;
    // Set once by start(), before any other method runs.
    private OutputReader output;

    /**
     * An upstream for the server behind these streams.
     *
     * @param name       names the server in messages and in the reader thread's name
     * @param fromServer the server's output, which the proxy reads
     * @param toServer   the server's input, which the proxy writes
     * @param timings    {@link ShutdownTimings#grace()}: how long the output may take to end
     *                   after the host closed its input
     */
    public StreamUpstream(String name, InputStream fromServer, OutputStream toServer, ShutdownTimings timings) {
        this.name = Objects.requireNonNull(name, "name");
        this.fromServer = Objects.requireNonNull(fromServer, "fromServer");
        this.toServer = Objects.requireNonNull(toServer, "toServer");
        this.input = new ServerInput(toServer, this::inputBroken);
        this.timings = Objects.requireNonNull(timings, "timings");
    }

    @Override
    public void start(ServerLineSink toHost, Executor work) {
        if (output != null) {
            throw new IllegalStateException("the in-process server " + name + " was started already");
        }
        output = OutputReader.start(fromServer, toHost, "stretto-server-output-" + name);
    }

    @Override
    public ServerInput input() {
        return input;
    }

    // The first write that failed. (A channel's stream is closed by the interrupt of a thread
    // writing to it: the session is ending then, which is no news.)
    private void inputBroken(IOException e) {
        boolean ending = closing || e instanceof ClosedByInterruptException || Thread.currentThread().isInterrupted();
        if (!ending) {
            Logger.warn("the in-process server {} no longer reads its input ({}); the host's messages are not"
                    + " delivered", name, e.getMessage());
        }
    }

    @Override
    public void endOfInput() {
        closeQuietly(toServer);
        inputEnded.complete(null);
    }

    /**
     * Waits until the server's output has ended; once the host has closed its input, for
     * {@link ShutdownTimings#grace()} at most (class comment). Returns 0.
     */
    @Override
    public int awaitEnd() throws InterruptedException {
        CompletableFuture<Void> ended = output.ended();
        try {
            CompletableFuture.anyOf(ended, inputEnded).get();
        } catch (ExecutionException cannotHappen) {
            // Neither completes exceptionally.
        }
        if (!ended.isDone()) {
            try {
                ended.get(timings.grace().toNanos(), TimeUnit.NANOSECONDS);
            } catch (TimeoutException e) {
                Logger.warn("the in-process server {} did not end its output within {} ms after its input closed;"
                        + " the session ends without the rest of it", name, timings.grace().toMillis());
                closing = true;
                cutOff = true;
                closeQuietly(fromServer);
                return 0;
            } catch (ExecutionException cannotHappen) {
                // Never exceptionally.
            }
        }
        IOException failure = output.failure();
        if (failure != null && !closing) {
            Logger.warn("reading the in-process server {}'s output failed ({}); the session ends as if it had ended",
                    name, failure.getMessage());
        }
        return 0;
    }

    /** Closes both streams: the server sees the end of its input, the proxy reads nothing more. */
    @Override
    public void abort() {
        if (output != null && !output.ended().isDone()) {
            cutOff = true;
        }
        closing = true;
        closeQuietly(toServer);
        closeQuietly(fromServer);
    }

    /** {@link ServerEnd#CUT_OFF} once the proxy closed the streams while the output was still open. */
    @Override
    public ServerEnd serverEnd() {
        return cutOff ? ServerEnd.CUT_OFF : ServerEnd.FINISHED;
    }

    private static void closeQuietly(Closeable c) {
        try {
            c.close();
        } catch (IOException | RuntimeException e) {
            Logger.debug("closing an in-process server's stream failed: {}", e.getMessage());
        }
    }
}
