package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.host.HostOutput;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executor;
import java.util.function.LongSupplier;

/**
 * The active-mode actor: the session's sequencer. It takes one {@link Event} at a time, decides
 * what the event is to the session, and hands it to the part whose job it is: the {@link Ledger}
 * (every line stamped and recorded; the episode), the {@link CallTable} (what waits for an
 * answer, by id), the {@link CheckChain} (guards, then judge), {@link HostCalls} and {@link
 * BatchCalls} (the agent's calls on their way), {@link OwnRequests} (the proxy's own requests and
 * their timeouts), {@link HeldAnswers} (answers a flow's run holds), the {@link CommitRun}s, and
 * {@link Sides} (the queues to the host and to the server).
 *
 * <p>Threads and ownership. {@link #call()} runs on one virtual thread, a fork of the
 * session's scope. It alone reads and writes its parts and what they hold: the episode and the
 * facts drawn from it, the calls awaiting their answers, the proxy's own requests, the runs in
 * progress (commits, a flow's runs), the conversation file's position, the flags of the
 * session's end. Nothing else touches them; there are no locks around them. Other threads reach
 * the actor only through its {@link Mailbox}: the pumps post the lines they read there as raw
 * bytes, the forks that ask the model post their answers there ({@link Questions}), and the actor
 * takes one event at a time. The conversation's lines it reads from the file itself, whenever
 * it must know what was said, and handles each as an event too.
 *
 * <p>Order and the log. The actor stamps and records each line when it takes it, so the log's
 * order is the actor's order and {@code t_ms} never decreases; the conversation read before a
 * call is logged before the call, and the proxy's own lines are logged just before they are
 * queued for writing. (In passive mode the reading threads record when they read; in active
 * mode that could not put a context line before the call it precedes without {@code t_ms}
 * going backwards.) A line is queued for a side only once it is recorded, and when the session
 * stops the gate takes no more, so the actor stops too and a line forwarded is a line in the log.
 *
 * <p>Cost. A line the actor does not act on gets one streaming look at its method and id
 * ({@link JsonRpcPeek}; with policy checks, a line of the host's also a byte scan for {@code
 * tools/call} in any spelling, {@link CallReader}) and is forwarded as the exact bytes that
 * arrived. Only what it acts on is parsed: the agent's calls, answers to tracked calls, {@code
 * tools/list} and (with {@code --commit}) {@code initialize} answers, cancellations, batches,
 * and the conversation.
 *
 * <p>Ids. The server never has two requests with one id: the proxy's own take ids none of the
 * host's requests in flight has, and a line of the host's using an id of the proxy's still open
 * waits until that request has its answer (the host's later lines behind it), or is refused
 * when that request timed out and its answer may still come.
 *
 * <p>No blocking. The actor never writes to a side, and never waits on one ({@link Sides}). It
 * waits only for the log writer's queue (the same backpressure from a stalled disk the reading
 * threads get in passive mode), reads the conversation file's new bytes, and appends the few
 * short lines of the flow and confirm logs ({@link SideLogWriter}). The proxy's own requests
 * time out on a tick: the actor looks at its clock after every event, and at least every
 * {@link #TICK} while any of them waits.
 *
 * <p>Ending. When the host's input ends, the actor reads the conversation once more and, once
 * nothing of the proxy's needs the server (no call waits for a check, no request of its own for
 * an answer, no answer is held), closes the server's input. When the server ends, every request
 * of the proxy still waiting ends without an answer, the runs answer with what they have, and
 * the session is told that everything for the host is queued; it delivers that as in passive
 * mode, giving up on a host that stopped reading.
 */
final class Actor implements Callable<Void> {

    /** How long the proxy waits for the answer to one of its own requests. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    /** How often, at least, the actor looks at its clock. */
    static final Duration TICK = Duration.ofMillis(250);

    private final Mailbox mailbox;
    private final Ledger ledger;
    private final Sides sides;
    private final CallTable calls;
    private final CheckChain checks;
    private final HostCalls hostCalls;
    private final BatchCalls batches;
    private final OwnRequests own;
    private final HeldAnswers held;
    private final RunContext runs;
    private final ContextFile context;
    private final PolicyGate policy;
    private final boolean commit;
    private final CompletableFuture<Void> serverEndHandled;

    // Actor thread only.
    private boolean hostEnded;

    /**
     * The actor of one session and its parts: see {@link ActiveSession#loops} for what each
     * argument is; {@code checks} and {@code hook} are the session's ({@link ActiveSession}).
     */
    Actor(Mailbox mailbox, HostOutput toHost, LineQueue<ServerWriter.Item> toServer, Recorder recorder,
          LongSupplier ticker, long startNanos, Duration requestTimeout, ActiveMode mode, LogHeader header,
          List<CallCheck> checks, AnswerHook hook, Executor forker, CompletableFuture<Void> serverEndHandled) {
        this.mailbox = mailbox;
        this.ledger = new Ledger(recorder, ticker, startNanos, header);
        this.calls = new CallTable();
        this.sides = new Sides(ledger, calls, toHost, toServer);
        Questions questions = new Questions(forker, mailbox);
        // The policy is the last check: a call it lets through goes to the server, so its budgets count it.
        this.policy = mode.toolPolicy() == null ? null : new PolicyGate(mode.toolPolicy(), header.session(), ledger,
                sides, ticker, startNanos, why -> sides.endServerInput());
        List<CallCheck> chain = new java.util.ArrayList<>(checks);
        if (policy != null) {
            chain.add(policy);
        }
        this.checks = new CheckChain(chain, ledger, questions, this::readContext);
        this.own = new OwnRequests(ledger, calls, sides, ticker, requestTimeout);
        this.held = new HeldAnswers(hook, calls, sides);
        this.runs = new RunContext(this.checks, ledger, own, sides, held, questions, this::readContext);
        this.commit = mode.commit();
        this.hostCalls = new HostCalls(ledger, calls, this.checks, sides, commit, this::readContext, runs);
        this.batches = new BatchCalls(ledger, calls, this.checks, sides);
        this.context = mode.context() == null ? null : new ContextFile(mode.context());
        this.serverEndHandled = serverEndHandled;
    }

    @Override
    public Void call() throws InterruptedException {
        long tick = TICK.toNanos();
        try {
            while (true) {
                // With nothing to time out, wait without a timer: an untimed wait wakes sooner.
                Event event = mailbox.take(own.isEmpty() && !checks.needsClock() ? Long.MAX_VALUE : tick);
                if (event != null) {
                    handle(event);
                }
                own.expire();
                checks.tick();
                releaseHeldLine();
                closeServerInputWhenIdle();
            }
        } catch (Ledger.Stopped s) {
            if (s.getCause() instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            return null;
        } finally {
            try {
                checks.close();
                held.close();
            } finally {
                mailbox.close();
            }
        }
    }

    private void handle(Event event) {
        switch (event) {
            case Event.ClientLine(Line line, JsonRpcPeek peek) -> fromHost(line, peek);
            case Event.ServerLine(Line line, boolean byProxy, JsonRpcPeek peek) ->
                    fromServer(line, byProxy ? Source.PROXY : Source.SERVER, peek);
            case Event.ContextLine(Line line) -> ledger.record(Source.CONTEXT, line, ProxyLines.logged(line.bytes()));
            case Event.JudgeAnswer answer -> checks.answered(answer);
            case Event.OracleAnswer answer -> held.answered(answer);
            case Event.Tick tick -> {
                // The clock is looked at after every event.
            }
            case Event.HostEnded(IOException failure) -> hostEnded(failure);
            case Event.ServerEnded ended -> serverEnded();
            case Event.EpisodeAsked(CompletableFuture<Episode> answer) -> answer.complete(ledger.episode());
        }
    }

    // ---- the host's lines

    private void fromHost(Line line, JsonRpcPeek peek) {
        if (policy != null && policy.ended() != null) {
            // The policy ended the session: nothing more reaches the server.
            hostCalls.refuse(line, peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null
                    ? ProxyLines.parse(peek.id().getBytes(java.nio.charset.StandardCharsets.UTF_8)) : null,
                    CallReader.INVALID_REQUEST, "The session was ended by the policy: " + policy.ended() + ".");
            return;
        }
        if (clashes(line, peek) || checks.guarding() && guarded(line, peek)) {
            return;
        }
        boolean forEpisode = false;
        if (peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null) {
            String key = IdKey.ofText(peek.id());
            switch (peek.method()) {
                case "tools/call" -> {
                    hostCalls.take(line);
                    return;
                }
                case "tools/list" -> calls.expectListing(key);
                case "initialize" -> {
                    if (commit) {
                        calls.expectInitialize(key);
                    }
                    forEpisode = true;
                }
                default -> {
                }
            }
            calls.sent(IdKey.flight(peek.id()), false);
        } else {
            forEpisode = peek.kind() == JsonRpcPeek.Kind.NOTIFICATION && "notifications/cancelled".equals(peek.method())
                    || peek.kind() == JsonRpcPeek.Kind.NOT_OBJECT;
        }
        long t = ledger.record(Source.CLIENT, line);
        sides.toServer(line);
        // Parsed after it went on its way: the host's first line (initialize) need not wait for it.
        JsonNode message = forEpisode ? ProxyLines.logged(line.bytes()) : null;
        ledger.episode(t, Source.CLIENT, message);
        if (message != null && message.isArray()) {
            calls.sentBatch(message);
        }
        if (policy != null && message != null && message.isObject()
                && peek.kind() == JsonRpcPeek.Kind.NOTIFICATION && "notifications/cancelled".equals(peek.method())) {
            policy.cancelled(message);
        }
    }

    /** With policy checks: a line some server could run as a call is checked as servers read it, or refused. */
    private boolean guarded(Line line, JsonRpcPeek peek) {
        CallReader.Reading reading = CallReader.read(line.bytes(), peek, checks.checkedTool());
        if (reading instanceof CallReader.Call c) {
            hostCalls.take(line, c);
        } else if (reading instanceof CallReader.Refused r) {
            hostCalls.refuse(line, r.refusal());
        } else if (reading instanceof CallReader.Batch b) {
            readContext();
            batches.take(line, b);
        } else if (peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null
                && calls.callInFlight(IdKey.flight(peek.id()))) {
            hostCalls.refuse(line, CallTable.SAME_ID);
        } else {
            return false;
        }
        return true;
    }

    /**
     * Whether the host's line uses the id of a request of the proxy's that is still open: then
     * it waits (held, with the host's lines behind it) until that request has its answer, or,
     * when that request timed out and its answer may still come, it is refused.
     */
    private boolean clashes(Line line, JsonRpcPeek peek) {
        OwnRequests.Clash clash = own.clash(line, peek);
        if (clash instanceof OwnRequests.Clash.Held) {
            mailbox.holdHost(true);
        } else if (clash instanceof OwnRequests.Clash.Late(String id)) {
            hostCalls.refuseTakenId(line, peek, id);
        }
        return !(clash instanceof OwnRequests.Clash.None);
    }

    /** Takes the held line again once the proxy's request it waited for has ended. */
    private void releaseHeldLine() {
        OwnRequests.HeldLine released = own.released();
        if (released != null) {
            mailbox.holdHost(false);
            fromHost(released.line(), released.peek());
        }
    }

    private void hostEnded(IOException failure) {
        if (failure != null) {
            Logger.warn("reading the host's input failed ({}); treating it as closed", failure.getMessage());
        }
        readContext();
        hostEnded = true;
    }

    // ---- the server's lines

    private void fromServer(Line line, Source from, JsonRpcPeek peek) {
        if (policy != null && from == Source.SERVER && peek.kind() != JsonRpcPeek.Kind.RESPONSE
                && policy.serverLine(line, peek)) {
            return;
        }
        if (peek.kind() == JsonRpcPeek.Kind.RESPONSE && peek.id() != null) {
            answer(line, from, peek);
            return;
        }
        long t = ledger.record(from, line);
        if (peek.kind() == JsonRpcPeek.Kind.NOT_OBJECT) {
            JsonNode batch = ProxyLines.logged(line.bytes());
            if (batch != null) {
                ledger.episode(t, from, batch);
                calls.answeredBatch(batch);
            }
        }
        sides.toHost(line);
    }

    /** An answer from the server: to a tracked call, to the host, to the proxy, or read and written anew. */
    private void answer(Line line, Source from, JsonRpcPeek peek) {
        String key = IdKey.ofText(peek.id());
        String flight = IdKey.flight(peek.id());
        ToolCall call = calls.claim(key);
        if (call != null) {
            // The first answer to a tracked call joins the episode; the proxy's own are not forwarded.
            JsonNode logged = ProxyLines.logged(line.bytes());
            ledger.record(from, line, logged);
            if (own.owns(key)) {
                own.answered(key, call.id(), logged, line);
            } else if (!held.hold(call, logged, line, flight, runs)) {
                calls.answered(flight);
                sides.toHost(line);
            }
            return;
        }
        if (calls.inFlight(flight)) {
            calls.answered(flight);
        } else if (own.wasIssued(key)) {
            own.claim(key);
            ledger.record(from, line);
            Logger.debug("dropped a late answer to the proxy's request {}", peek.id());
            return;
        }
        boolean listing = calls.claimListing(key);
        if (!listing && !calls.claimInitialize(key)) {
            ledger.record(from, line);
            sides.toHost(line);
            return;
        }
        // A tools/list or initialize answer: learnt from, and with --policy or --commit written anew.
        ledger.record(from, line);
        JsonNode response = ProxyLines.parse(line.bytes());
        JsonNode policed = listing && policy != null ? policy.listing(response) : null;
        if (policed != null && policy.ended() != null) {
            sides.answer(policed);
            return;
        }
        if (policed != null) {
            response = policed;
        }
        if (listing) {
            held.listed(response);
        }
        JsonNode replacement = !commit ? null : listing ? CommitTool.withTool(response)
                : CommitTool.withInstructions(response);
        if (replacement == null) {
            replacement = policed;
        }
        Line out = replacement == null ? line : new Line(ProxyLines.bytes(replacement), true);
        if (replacement != null) {
            ledger.record(Source.PROXY, out);
        }
        sides.toHost(out);
    }

    private void serverEnded() {
        sides.serverEnded();
        own.serverGone();
        releaseHeldLine();
        held.serverEnded();
        serverEndHandled.complete(null);
    }

    // ---- the conversation, the end

    /** Takes the conversation's new lines, each as an event of its own. */
    private void readContext() {
        if (context != null) {
            for (Line l : context.readNew()) {
                handle(new Event.ContextLine(l));
            }
        }
    }

    private void closeServerInputWhenIdle() {
        if (hostEnded && !sides.serverInputClosed() && checks.idle() && held.idle() && own.isEmpty()) {
            sides.endServerInput();
        }
    }
}
