package dev.stretto.proxy.upstream;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineReader;
import dev.stretto.proxy.io.LineRun;
import dev.stretto.proxy.logging.Logger;
import java.io.IOException;
import java.io.InputStream;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Reads a server's output line by line and hands each line to the session's {@link
 * ServerLineSink} (or, to a sink that takes runs, every whole line of a read at once), on a daemon platform thread of its own outside the session's scope: a read
 * of a pipe (a child's stdout, an in-process server's stream) can neither be interrupted nor
 * unmount a virtual thread, so on a virtual thread every blocked read would hold a carrier.
 * The sink is a bounded queue: when it is full the reader waits, which in turn makes the
 * server wait; once the session has ended the sink drops lines at once.
 *
 * <p>The thread ends at the end of the output, or when a read fails (the pipe broke: a child
 * that was destroyed; a stream that was closed), and {@link #ended()} completes then. A read
 * that never returns (a process the session cannot find keeps the pipe open; a stream that
 * ignores being closed) keeps this one thread until it does.
 */
final class OutputReader {
    private final CompletableFuture<Void> ended = new CompletableFuture<>();
    // Lines handed on, and whether one is being handed on right now (waiting for a host that
    // reads slowly, or not at all).
    private final AtomicLong handedOn = new AtomicLong();
    private volatile boolean handingOn;
    private volatile IOException failure;

    private OutputReader() {
    }

    /** Starts reading {@code in} into {@code sink} on a new daemon thread named {@code threadName}. */
    static OutputReader start(InputStream in, ServerLineSink sink, String threadName) {
        OutputReader reader = new OutputReader();
        Thread.ofPlatform().daemon().name(threadName).start(Logger.carry(() -> reader.readAll(in, sink)));
        return reader;
    }

    private void readAll(InputStream in, ServerLineSink sink) {
        LineReader reader = new LineReader(in);
        try {
            if (sink.takesRuns()) {
                // Nothing is recorded: the whole lines of each read go on at once.
                LineRun run;
                while ((run = reader.nextRun()) != null) {
                    handingOn = true;
                    sink.lines(run);
                    handingOn = false;
                    handedOn.addAndGet(run.count());
                }
                return;
            }
            Line line;
            while ((line = reader.next()) != null) {
                handingOn = true;
                sink.line(line);
                handingOn = false;
                handedOn.incrementAndGet();
            }
        } catch (IOException e) {
            failure = e;
        } finally {
            ended.complete(null);
        }
    }

    /** Completes once the output has ended (or its read failed); never exceptionally. */
    CompletableFuture<Void> ended() {
        return ended;
    }

    /** Why the output ended early: the read that failed, or null at a plain end of the stream. */
    IOException failure() {
        return failure;
    }

    /** How many lines were handed on so far. */
    long handedOn() {
        return handedOn.get();
    }

    /** Whether a line is being handed on right now (the sink is full). */
    boolean handingOn() {
        return handingOn;
    }
}
