package dev.stretto.proxy.session;

import dev.stretto.proxy.active.ActiveSession;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.io.OutputStream;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.locks.ReentrantLock;
import org.tinylog.Logger;

/**
 * One proxied session: the only place that opens a {@link StructuredTaskScope} and decides
 * how it ends.
 *
 * <p>Threads and ownership. The caller's thread runs {@link #run()}: it starts the upstream,
 * opens the scope, forks, joins and tears down. The forks, each on a virtual thread:
 * <ul>
 * <li>the client pump: host input queue, then recorder, then upstream;</li>
 * <li>the upstream's end ({@link Upstream#awaitEnd()}): for a child, the pump that reads the
 *     server's stdout and hands each line to the server sink; its return ends the session;</li>
 * <li>the upstream's companions (the HTTP GET stream), if any;</li>
 * <li>the log writer, if the session is recorded.</li>
 * </ul>
 * The host's input is read outside the scope (see {@link HostInput}). Server lines pass
 * through {@code sinkLock}: each is recorded, then written to the host, in one step, so the
 * log and the host see server lines in the same order however many threads deliver them.
 * Lines the upstream writes in the server's place (an HTTP upstream's error answers) take the
 * same path and are recorded as {@code proxy} entries.
 *
 * <p>Ending. The session ends when the upstream's end returns (after the host's input ended
 * and the server finished, or as soon as the server ends first), or when any fork fails.
 * The scope is then cancelled, which interrupts the client pump's wait for host input. The
 * upstream is aborted before the scope closes, since a read of a child's pipe does not
 * answer to interrupts, and the recorder is closed so the log writer drains every queued
 * line and returns: the log is complete when {@code run} returns.
 *
 * <p>Active mode (an {@link ActiveSession}; the lines marked "active mode" below are all it
 * changes here): the server's lines go to the actor's mailbox instead of the sink above, and
 * the client pump is replaced by the active session's loops (a pump to the actor, the actor,
 * a writer per side) and a {@link TaskForks} for the actor's slow work. The session's end is
 * the active session's: the upstream's end, then everything the actor queued for the host
 * written out.
 */
public final class Session {
    private final String name;
    private final Upstream upstream;
    private final Recorder recorder;
    private final Callable<Void> recorderLoop;
    private final HostInput hostIn;
    private final HostOutput hostOut;
    private final ReentrantLock sinkLock = new ReentrantLock();
    // Active mode: null in passive mode.
    private final ActiveSession active;

    /**
     * A session that is not yet started.
     *
     * @param name         names the scope and its threads (for thread dumps)
     * @param upstream     the server end, not yet started
     * @param recorder     where every line goes before it is forwarded ({@link Recorder#NONE}
     *                     when not recording)
     * @param recorderLoop the log writer's loop, forked into the scope, or null
     * @param hostIn       the host's input
     * @param hostOut      the host's output; the protocol only
     */
    public Session(String name, Upstream upstream, Recorder recorder, Callable<Void> recorderLoop,
                   HostInput hostIn, OutputStream hostOut) {
        this(name, upstream, recorder, recorderLoop, hostIn, hostOut, null);
    }

    /**
     * A session that is not yet started, in active mode when {@code active} is not null (the
     * other parameters are those of the passive constructor; {@code recorder} must be the one
     * {@code active} records to).
     */
    public Session(String name, Upstream upstream, Recorder recorder, Callable<Void> recorderLoop,
                   HostInput hostIn, OutputStream hostOut, ActiveSession active) {
        this.name = name;
        this.upstream = upstream;
        this.recorder = recorder;
        this.recorderLoop = recorderLoop;
        this.hostIn = hostIn;
        this.hostOut = new HostOutput(hostOut);
        this.active = active;
    }

    /** The upstream's status, as its end returned it. */
    private record Ended(int status) {
    }

    /**
     * Starts the upstream and runs the session to its end.
     *
     * @return the exit status: the upstream's ({@link Upstream#awaitEnd()}), or 125 when the
     *         session failed in the proxy itself (reported on stderr)
     * @throws IOException when the upstream cannot be started (nothing was forked then)
     */
    public int run() throws IOException, InterruptedException {
        try {
            // Active mode: the server's lines go to the actor.
            upstream.start(active != null ? active.serverSink() : new ServerLineSink() {
                @Override
                public void line(byte[] line, boolean newline) {
                    toHost(Source.SERVER, line, newline);
                }

                @Override
                public void proxyLine(byte[] line, boolean newline) {
                    toHost(Source.PROXY, line, newline);
                }
            });
        } catch (IOException | RuntimeException e) {
            upstream.abort();
            throw e;
        }
        Subtask<Object> end = null;
        List<Subtask<Object>> others = new ArrayList<>();
        try (var scope = StructuredTaskScope.open(
                Joiner.<Object>allUntil(s -> s.state() == Subtask.State.FAILED
                        || s.state() == Subtask.State.SUCCESS && s.get() instanceof Ended),
                cf -> cf.withName(name).withThreadFactory(Thread.ofVirtual().name(name + "-", 0).factory()))) {
            try {
                if (recorderLoop != null) {
                    others.add(scope.fork(() -> recorderLoop.call()));
                }
                if (active == null) {
                    end = scope.fork(() -> new Ended(upstream.awaitEnd()));
                    others.add(scope.fork(() -> new ClientPump(hostIn, recorder, upstream).call()));
                } else {
                    // Active mode: the actor and its loops in place of the client pump.
                    TaskForks forks = new TaskForks(name + "-work");
                    others.add(scope.fork(() -> forks.call()));
                    end = scope.fork(() -> new Ended(active.awaitEnd(upstream)));
                    for (Callable<Void> loop : active.loops(hostIn, upstream, hostOut::write, forks)) {
                        others.add(scope.fork(() -> loop.call()));
                    }
                }
                for (Callable<Void> companion : upstream.companions()) {
                    others.add(scope.fork(() -> companion.call()));
                }
                scope.join();
            } finally {
                // Before the scope closes: a child's pipe read only ends when the child does,
                // and the log writer only returns once the recorder is closed.
                upstream.abort();
                recorder.close();
            }
        }
        if (end.state() == Subtask.State.SUCCESS) {
            return ((Ended) end.get()).status();
        }
        Throwable failure = end.state() == Subtask.State.FAILED ? end.exception() : null;
        for (Subtask<Object> s : others) {
            if (failure == null && s.state() == Subtask.State.FAILED) {
                failure = s.exception();
            }
        }
        Logger.error("the session failed: {}", failure == null ? "unknown cause" : describe(failure));
        Logger.debug(failure, "session failure");
        return 125;
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m;
    }

    // The server sink: record, then forward, as one step (see the class comment). The proxy's
    // own answers in the server's place are recorded as such.
    private void toHost(Source from, byte[] bytes, boolean newline) {
        sinkLock.lock();
        try {
            try {
                recorder.record(from, new Line(bytes, newline));
            } catch (InterruptedException e) {
                // The session is ending; the line still reaches the host.
                Thread.currentThread().interrupt();
            }
            hostOut.write(bytes, newline);
        } finally {
            sinkLock.unlock();
        }
    }
}
