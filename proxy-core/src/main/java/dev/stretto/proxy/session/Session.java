package dev.stretto.proxy.session;

import dev.stretto.proxy.EndReason;
import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.active.ActiveSession;
import dev.stretto.proxy.host.HostInput;
import dev.stretto.proxy.host.HostOutput;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.scope.TaskForks;
import dev.stretto.proxy.scope.VirtualThreads;
import dev.stretto.proxy.upstream.Upstream;
import java.io.IOException;
import java.io.OutputStream;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import dev.stretto.proxy.logging.Logger;

/**
 * One proxied session: the only place that opens a {@link StructuredTaskScope} and decides
 * how it ends.
 *
 * <p>Threads and ownership. The caller's thread runs {@link #run()}: it starts the upstream,
 * opens the scope, forks, joins and tears down. The forks, each on a virtual thread:
 * <ul>
 * <li>the client pump ({@link ClientPump}): starts the passing on of the host's lines and
 * waits for the end of the host's input, to tell the upstream;</li>
 * <li>the upstream's end ({@link Upstream#awaitEnd()}); once it returns and every line the
 * upstream delivered has been passed on ({@link ServerLines}), the session ends;</li>
 * <li>the upstream's companions (the HTTP GET stream), if any;</li>
 * <li>the upstream's work: a {@link TaskForks} whose nested scope runs what the upstream hands
 * off (each HTTP exchange);</li>
 * <li>the log writer, if the session is recorded or listened to.</li>
 * </ul>
 * Outside the scope, each for a pipe that cannot be interrupted: the host's input is read by
 * {@link HostInput}'s thread, the host's output written by {@link HostOutput}'s, and a child
 * server's stdout (or an in-process server's output) read by the upstream's, which hands each
 * line to {@link ServerLines}. Blocking reads of pipes hold a virtual thread's carrier, so none
 * of them runs on one: hundreds of sessions in one JVM would take every carrier there is. Every
 * line passes the {@link ForwardGate} before it is forwarded: recorded first, and nothing at all
 * once the session stops. In passive mode the thread that read a line passes it on itself (no
 * handoff to another thread, so no wake-up, on the way): the host's reader records it and sends
 * it to the upstream; the server's reader records it and queues it on the host's output, under
 * one lock ({@link ServerLines}), so the log and the host see the server's lines in the same
 * order however many threads deliver them. Lines the upstream writes in the server's place (an
 * HTTP upstream's error answers) take the same path and are recorded as {@code proxy} entries.
 *
 * <p>Ending. The session ends when the upstream's end returns (after the host's input ended
 * and the server finished, or as soon as the server ends first) and what the upstream
 * delivered before it has been passed on, or when any fork fails. A host that takes
 * nothing for {@code hostStall} cannot keep it waiting: the lines it has not taken are given up.
 * The gate is then closed, so the log writer writes out every line queued and returns, the
 * upstream is aborted (nothing of the server is left), and the scope closes, which interrupts
 * what still waits. The lines queued for the host are then delivered, unless the host takes
 * none for {@code hostStall}. The log is complete when {@code run} returns.
 *
 * <p>Stopping. When the thread running {@link #run()} is interrupted (the CLI does so on
 * SIGTERM, SIGINT or SIGHUP), the session stops reading: the gate closes, so no line read
 * from then on is recorded or forwarded and every line forwarded is in the log. It waits for
 * the log writer to write out what it holds, then ends the server ({@link Upstream#stop()}:
 * SIGTERM to the child's tree, SIGKILL a moment later, returning once it is gone), lets the
 * host's output finish the line it is writing, and throws {@link InterruptedException}.
 *
 * <p>Active mode (an {@link ActiveSession}; the lines marked "active mode" below are all it
 * changes here): the server's lines go to the actor's mailbox instead of {@link ServerLines},
 * and the client pump is replaced by the active session's loops (a pump to the
 * actor, the actor, the server's writer) and a {@link TaskForks} for the actor's slow work.
 * The actor records every line through the same gate before it queues the line for a side,
 * and queues the host's lines on the same {@link HostOutput}; so ending, stopping and a host
 * that stopped reading are handled as above. The session's end is the active session's: the
 * upstream's end, then the actor's last work for the host queued.
 */
public final class Session {

    /** How long a stopping session lets the host's output finish the line it is writing. */
    private static final Duration STOP_OUTPUT_WAIT = Duration.ofSeconds(1);

    /** How often the end looks at the host while the server's lines are still being passed on. */
    private static final long STALL_CHECK_MILLIS = 50;

    private final String name;
    private final Upstream upstream;
    private final ForwardGate gate;
    private final Callable<Void> recorderLoop;
    private final HostInput hostIn;
    private final OutputStream hostOutStream;
    private final Duration hostStall;
    // Passive mode: set by run(), with the host's output.
    private ServerLines serverLines;
    private final TaskForks upstreamWork;
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
     * @param hostStall    how long the host may take nothing, at the end, before the lines it
     *                     has not taken are given up
     */
    public Session(String name, Upstream upstream, Recorder recorder, Callable<Void> recorderLoop,
                   HostInput hostIn, OutputStream hostOut, Duration hostStall) {
        this(name, upstream, recorder, recorderLoop, hostIn, hostOut, hostStall, null);
    }

    /**
     * A session that is not yet started, in active mode when {@code active} is not null (the
     * other parameters are those of the passive constructor).
     */
    public Session(String name, Upstream upstream, Recorder recorder, Callable<Void> recorderLoop,
                   HostInput hostIn, OutputStream hostOut, Duration hostStall, ActiveSession active) {
        this.name = name;
        this.upstream = upstream;
        this.upstreamWork = new TaskForks(name + "-upstream");
        this.gate = new ForwardGate(recorder);
        this.recorderLoop = recorderLoop;
        this.hostIn = hostIn;
        this.hostOutStream = hostOut;
        this.hostStall = hostStall;
        this.active = active;
    }

    /**
     * How a session that ran ended.
     *
     * @param status    the exit status: the upstream's ({@link Upstream#awaitEnd()}), or 125 when
     *                  the session failed in the proxy itself
     * @param reason    why it ended: {@link EndReason#HOST_CLOSED}, {@link EndReason#SERVER_EXITED}
     *                  or {@link EndReason#FAILED}
     * @param serverEnd how the server ended ({@link Upstream#serverEnd()})
     * @param failure   what failed, for {@link EndReason#FAILED}; otherwise null
     */
    public record Outcome(int status, EndReason reason, ServerEnd serverEnd, Throwable failure) {
    }

    /** The upstream's status, as its end returned it. */
    private record Ended(int status) {
    }

    /**
     * Starts the upstream and runs the session to its end.
     *
     * @throws IOException          when the upstream cannot be started (nothing was forked then)
     * @throws InterruptedException when the thread was interrupted: the session stopped (see
     *                              the class comment), with the log complete and the server ended
     */
    public Outcome run() throws IOException, InterruptedException {
        return run(() -> {
        });
    }

    /**
     * As {@link #run()}, running {@code started} on this thread once the upstream has started,
     * before anything is forwarded: from then on the session runs to its end, and what it
     * records stays.
     */
    public Outcome run(Runnable started) throws IOException, InterruptedException {
        // The host's output waits for room in passive mode; the actor never waits on a side.
        HostOutput out = HostOutput.start(hostOutStream, name + "-stdout", gate,
                active == null ? LineQueue.Policy.WAIT : LineQueue.Policy.GATE);
        serverLines = new ServerLines(gate, out);
        boolean stopped = false;
        try {
            startUpstream();
            started.run();
            Outcome outcome = runScope(out);
            int undelivered = out.awaitDelivered(hostStall);
            if (undelivered > 0) {
                Logger.warn("the host has not read the proxy's output for {} s; the session ends without its last {}"
                        + " line(s) reaching the host", hostStall.toSeconds(), undelivered);
            }
            return outcome;
        } catch (InterruptedException e) {
            stopped = true;
            throw e;
        } finally {
            out.close();
            if (stopped) {
                // The host gets the rest of the line it may have got only part of.
                out.awaitEnd(STOP_OUTPUT_WAIT);
            }
        }
    }

    /** The lines forwarded so far, by who wrote them; final once {@link #run()} has returned or thrown. */
    public SessionResult.LineCounts lineCounts() {
        return gate.counts();
    }

    /** How the server ended ({@link Upstream#serverEnd()}); final once {@link #run()} has returned or thrown. */
    public ServerEnd serverEnd() {
        return upstream.serverEnd();
    }

    /** {@link System#nanoTime()} when the server's first line was forwarded, or {@link Long#MIN_VALUE} for none yet. */
    public long firstServerLineNanos() {
        return gate.firstServerLineNanos();
    }

    private void startUpstream() throws IOException {
        try {
            // Active mode: the server's lines go to the actor.
            upstream.start(active != null ? active.serverSink() : serverLines, upstreamWork);
        } catch (IOException | RuntimeException e) {
            upstream.abort();
            throw e;
        }
    }

    private Outcome runScope(HostOutput out) throws InterruptedException {
        Subtask<Object> end = null;
        List<Subtask<Object>> others = new ArrayList<>();
        CountDownLatch logWritten = new CountDownLatch(recorderLoop == null ? 0 : 1);
        try (var scope = StructuredTaskScope.open(
                Joiner.<Object>allUntil(s -> s.state() == Subtask.State.FAILED
                        || s.state() == Subtask.State.SUCCESS && s.get() instanceof Ended),
                cf -> cf.withName(name).withThreadFactory(VirtualThreads.named(name + "-")))) {
            try {
                if (recorderLoop != null) {
                    others.add(scope.fork(() -> {
                        try {
                            return recorderLoop.call();
                        } finally {
                            logWritten.countDown();
                        }
                    }));
                }
                if (active == null) {
                    end = scope.fork(() -> {
                        int status = upstream.awaitEnd();
                        serverLines.finish();
                        awaitPassedOn(out);
                        return new Ended(status);
                    });
                    others.add(scope.fork(() -> new ClientPump(hostIn, gate, upstream).call()));
                } else {
                    // Active mode: the actor and its loops in place of the pumps.
                    TaskForks forks = new TaskForks(name + "-work");
                    others.add(scope.fork(() -> forks.call()));
                    end = scope.fork(() -> new Ended(active.awaitEnd(upstream)));
                    for (Callable<Void> loop : active.loops(hostIn, upstream, out, gate, forks)) {
                        others.add(scope.fork(() -> loop.call()));
                    }
                }
                others.add(scope.fork(() -> upstreamWork.call()));
                for (Callable<Void> companion : upstream.companions()) {
                    others.add(scope.fork(() -> companion.call()));
                }
                scope.join();
            } catch (InterruptedException e) {
                stop(logWritten);
                throw e;
            } finally {
                // Before the scope closes: no reader of the server's output may stay waiting for
                // room, the log writer returns once the gate (and so the recorder) is closed, and
                // nothing of the server may outlive the session.
                serverLines.close();
                gate.close();
                upstream.abort();
            }
        }
        if (end.state() == Subtask.State.SUCCESS) {
            int status = ((Ended) end.get()).status();
            return new Outcome(status, hostIn.ended() ? EndReason.HOST_CLOSED : EndReason.SERVER_EXITED,
                    upstream.serverEnd(), null);
        }
        Throwable failure = end.state() == Subtask.State.FAILED ? end.exception() : null;
        for (Subtask<Object> s : others) {
            if (failure == null && s.state() == Subtask.State.FAILED) {
                failure = s.exception();
            }
        }
        Logger.error("the session failed: {}", failure == null ? "unknown cause" : describe(failure));
        Logger.debug(failure, "session failure");
        return new Outcome(125, EndReason.FAILED, upstream.serverEnd(), failure);
    }

    // The upstream has ended: waits until every line it delivered has reached the host's
    // output, unless the host has taken nothing for hostStall meanwhile.
    private void awaitPassedOn(HostOutput out) throws InterruptedException {
        while (!serverLines.awaitIdle(STALL_CHECK_MILLIS)) {
            if (out.stalledNanos() >= hostStall.toNanos()) {
                return;
            }
        }
    }

    // Told to stop: read nothing more, write out the log, then end the server (class comment).
    private void stop(CountDownLatch logWritten) {
        gate.close();
        serverLines.close();
        try {
            logWritten.await();
        } catch (InterruptedException again) {
            // Asked again: end the server without waiting for the disk.
            Thread.currentThread().interrupt();
        }
        upstream.stop();
    }

    private static String describe(Throwable t) {
        String m = t.getMessage();
        return m == null ? t.getClass().getSimpleName() : m;
    }
}
