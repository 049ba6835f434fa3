package dev.stretto.proxy.active;

import dev.stretto.proxy.host.HostInput;
import dev.stretto.proxy.host.HostOutput;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.judge.Judge;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.proxy.upstream.Upstream;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.log.LogHeader;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * Active mode's part of one session: the {@link Actor}, its mailbox, the server's writer and
 * the pump that hands it the host's lines. The session ({@code dev.stretto.proxy.session.Session})
 * wires it in place of the passive path: the server's lines go to {@link #serverSink()},
 * {@link #loops} are forked into the session's scope, and {@link #awaitEnd} is the session's
 * end. The session lends it what it has for passive mode too: the host's output (one writer
 * per side: the host's is the session's {@link HostOutput}, with its own thread and its stall
 * limit) and the recorder every line passes before it is forwarded.
 *
 * <p>Threads: the reader of the host's input posts the host's lines to the mailbox itself; the
 * host pump (which starts that and posts the input's end), the actor and the server writer
 * each run on a fork of the session's scope; the actor's questions to the model run on an executor the session lends it,
 * which forks each into a scope nested in the session's. The server sink is called by whichever
 * threads read the server.
 */
public final class ActiveSession {

    private final ActiveMode mode;
    private final LogHeader header;
    private final LongSupplier ticker;
    private final long startNanos;
    private final Duration requestTimeout;
    private final List<CallCheck> checks;
    private final AnswerHook answerHook;
    private final Mailbox mailbox;
    private final LineQueue<ServerWriter.Item> toServer;
    private final CompletableFuture<Void> serverEndHandled = new CompletableFuture<>();
    // Set once by loops(), before the actor takes its first event.
    private volatile HostOutput toHost;
    private volatile Actor actor;

    /**
     * Active mode for one session.
     *
     * @param mode       what to do
     * @param header     the session log's header (names the session's episode)
     * @param ticker     the clock, in nanoseconds ({@code System::nanoTime})
     * @param startNanos the clock's reading when the session started: {@code t_ms} counts from it
     */
    public ActiveSession(ActiveMode mode, LogHeader header, LongSupplier ticker, long startNanos) {
        this(mode, header, ticker, startNanos, Actor.REQUEST_TIMEOUT, checksOf(mode, ticker),
                hookOf(mode, header, ticker));
    }

    /**
     * @param checks     what every call of the agent passes before it is sent (the guards, then the judge)
     * @param answerHook where answers to the agent's calls may be held (a flow's runs)
     */
    ActiveSession(ActiveMode mode, LogHeader header, LongSupplier ticker, long startNanos,
                  Duration requestTimeout, List<CallCheck> checks, AnswerHook answerHook) {
        this.mode = Objects.requireNonNull(mode, "mode");
        this.header = Objects.requireNonNull(header, "header");
        this.ticker = Objects.requireNonNull(ticker, "ticker");
        this.startNanos = startNanos;
        this.requestTimeout = requestTimeout;
        this.checks = List.copyOf(checks);
        this.answerHook = answerHook;
        // The gate: host events wait while the server's queue is full, server events while the host's is.
        this.toServer = ServerWriter.queue(this::wake);
        this.mailbox = new Mailbox(toServer::hasRoom, () -> toHost.hasRoom());
    }

    /**
     * The checks {@code mode} asks for, in order: the policy guards, then the confirmation
     * judge, which judges only what the guards let through.
     */
    static List<CallCheck> checksOf(ActiveMode mode, LongSupplier ticker) {
        List<CallCheck> checks = new ArrayList<>();
        if (mode.policy() != null) {
            checks.add(new GuardCheck(mode.policy()));
        }
        ConfirmJudge j = mode.judge();
        if (j != null) {
            checks.add(new JudgeCheck(mode.policy(), new Judge(j.settings(), j.model()), mode.oracle(),
                    j.log() == null ? null : new SideLogWriter(j.log(), "confirm log"), ticker));
        }
        return checks;
    }

    /**
     * Where {@code mode} holds the agent's answers: the flow it serves, if any, which starts
     * here (and says so on stderr), with its flow log at the path the mode names.
     */
    static AnswerHook hookOf(ActiveMode mode, LogHeader header, LongSupplier ticker) {
        if (mode.flow() == null) {
            return AnswerHook.NONE;
        }
        return FlowHook.start(mode.flow(), mode.oracle(), header.session(), () -> ticker.getAsLong() / 1_000_000);
    }

    private void wake() {
        mailbox.wake();
    }

    /** Where the upstream hands the server's lines: to the actor's mailbox, waiting while it is full. */
    public ServerLineSink serverSink() {
        return new ServerLineSink() {
            @Override
            public void line(byte[] line, boolean newline) {
                post(new Event.ServerLine(new Line(line, newline), false, JsonRpcPeek.of(line)));
            }

            @Override
            public void proxyLine(byte[] line, boolean newline) {
                post(new Event.ServerLine(new Line(line, newline), true, JsonRpcPeek.of(line)));
            }
        };
    }

    private void post(Event.Posted event) {
        try {
            mailbox.put(event);
        } catch (InterruptedException e) {
            // The session is ending and nobody takes lines any more.
            Thread.currentThread().interrupt();
        }
    }

    /**
     * The loops to fork into the session's scope: the pump that hands the host's lines to the
     * actor, the actor, and the writer to the server. Call once.
     *
     * @param hostIn   the host's input
     * @param upstream the server, already started; its writer calls {@link Upstream#send} and
     *                 {@link Upstream#endOfInput}
     * @param hostOut  the host's output
     * @param recorder where the actor records every line, stamped, before it queues it for a
     *                 side; a line it does not take (false: the session is stopping) is not
     *                 forwarded, and the actor ends
     * @param forker   where the actor's slow work runs
     */
    public List<Callable<Void>> loops(HostInput hostIn, Upstream upstream, HostOutput hostOut, Recorder recorder,
                                      Executor forker) {
        if (actor != null) {
            throw new IllegalStateException("loops() was called already");
        }
        toHost = hostOut;
        hostOut.onRoom(this::wake);
        actor = new Actor(mailbox, hostOut, toServer, recorder, ticker, startNanos, requestTimeout, mode, header,
                checks, answerHook, forker, serverEndHandled);
        forker.execute(() -> warmUp(header));
        if (mode.judge() != null) {
            forker.execute(JudgeCheck::warmUp);
        }
        Callable<Void> hostPump = () -> {
            // The reader of the host's input posts each line itself, with its one look at it:
            // no thread between it and the actor. Only the input's end comes through here,
            // behind every line, or the failure that stopped the reader.
            hostIn.forwardTo((line, more) -> {
                mailbox.put(new Event.ClientLine(line, JsonRpcPeek.of(line.bytes())));
                return true;
            });
            while (true) {
                HostInput.Read read = hostIn.take();
                if (read instanceof HostInput.End(var failure)) {
                    mailbox.put(new Event.HostEnded(failure));
                    return null;
                }
                if (read instanceof HostInput.Failed(var failure)) {
                    throw failure;
                }
            }
        };
        ServerWriter serverWriter = new ServerWriter(toServer, upstream, recorder);
        return List.of(hostPump, actor, serverWriter);
    }

    /**
     * The session's end in active mode: waits for the upstream's end, tells the actor the
     * server is finished (behind every line it sent), and returns the upstream's status once
     * the actor has handled that: everything it has for the host is queued on the host's
     * output then, which the session delivers as in passive mode.
     */
    public int awaitEnd(Upstream upstream) throws Exception {
        int status = upstream.awaitEnd();
        mailbox.put(new Event.ServerEnded());
        serverEndHandled.get();
        return status;
    }

    /**
     * Loads and links what the actor parses with (Jackson's tree model, the log's classifier,
     * the episode's builder, the guards, the pattern switch over events) on a thread of its own
     * while the server starts, so the session's first answers do not wait for it. Touches no
     * state of a session.
     */
    static void warmUp(LogHeader header) {
        byte[] line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{}}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        Ledger.warmUp(header, ProxyLines.logged(line));
        ProxyLines.bytes(CommitTool.DEFINITION);
        Event.warmUp();
    }

    /**
     * The session's episode so far, as the actor keeps it (without reading the conversation
     * first): asked of the actor, so it is what the actor has seen when it takes the question.
     * For tests.
     */
    CompletableFuture<Episode> episode() {
        CompletableFuture<Episode> answer = new CompletableFuture<>();
        post(new Event.EpisodeAsked(answer));
        return answer;
    }

    /** Wakes the actor so it looks at its clock. For tests that move a fake clock. */
    void tick() {
        post(new Event.Tick());
    }
}
