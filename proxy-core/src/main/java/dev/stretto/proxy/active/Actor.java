package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.NullNode;
import dev.stretto.proxy.flow.wire.LookupAnswer;
import dev.stretto.proxy.guard.Facts;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.TimelineBuilder;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.Callable;
import java.util.concurrent.CompletableFuture;
import java.util.function.BiConsumer;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import dev.stretto.proxy.logging.Logger;

/**
 * The active-mode actor: the session's sequencer, and the one owner of everything active mode
 * knows.
 *
 * <p>Threads and ownership. {@link #call()} runs on one virtual thread, a fork of the
 * session's scope. It alone reads and writes every field below that is not final: the
 * session's episode so far ({@code timeline}) and the policy facts drawn from it, the calls
 * awaiting their answers, the proxy's own requests, the runs in progress
 * (commits, a flow's runs through its {@link AnswerHook}), the conversation file's position,
 * the flags of the session's end. Nothing else touches them; there are no locks around them.
 * Other threads reach the actor only through its {@link Mailbox}: the pumps put the lines they
 * read there as raw bytes, forked work puts its result there, and the actor takes one event at
 * a time.
 *
 * <p>Order and the log. The actor stamps and records each line when it takes it, so the log's
 * order is the actor's order and {@code t_ms} never decreases; the conversation read before a
 * call is logged before the call, and the proxy's own lines are logged just before they are
 * queued for writing. (In passive mode the pumps record when they read; in active mode that
 * could not put a context line before the call it precedes without {@code t_ms} going
 * backwards.) Every line goes to the log, and to the session's episode when it plays a part
 * in one, exactly as {@code Episode.of} would read the log. The recorder is the session's
 * gate: a line is queued for a side only once it is recorded, and when the session stops
 * the gate takes no more, so the actor stops too and a line forwarded is a line in the log.
 *
 * <p>Cost. A line the actor does not act on gets one streaming look at its method and id
 * ({@link JsonRpcPeek}; with policy checks, a line of the host's also a byte scan for {@code
 * tools/call} in any spelling, {@link AnySpelling}) and is forwarded as the exact bytes that
 * arrived. Only what it acts on
 * is parsed: the agent's {@code tools/call} requests, answers to tracked calls, {@code
 * tools/list} and (with {@code --commit}) {@code initialize} answers, cancellations, and the
 * conversation.
 *
 * <p>Calls as servers read them. With policy checks, every line of the host's that some server
 * could take for a {@code tools/call} is read as {@link CallReader} reads it: checked when every
 * server reads it as the call the checks see, refused otherwise; a batch holding a call is sent
 * only when every call in it passes, and refused whole otherwise.
 *
 * <p>Ids. The server must never have two requests with one id, or an answer could go to the
 * wrong asker: the proxy's own requests take ids ({@code stretto-<n>}) that none of the host's
 * requests in flight has ({@link HostRequests}), and a line of the host's using an id of the
 * proxy's still open waits until the proxy's request has its answer (the host's later lines
 * behind it), or is refused when that request timed out and its answer may still come.
 *
 * <p>No blocking. The actor never writes to a side itself: it queues lines on the host's
 * output ({@link ActiveSession.HostWriter}) or the server's {@link Outbox}, whose writers do
 * the writing, and the mailbox's gate keeps it from taking events a full queue could not
 * take. It waits only for the log writer's queue (the same backpressure from a stalled disk
 * the pumps get in passive mode), reads the conversation file's new bytes, and appends the
 * few short lines of the flow and confirm logs ({@link SideLogWriter}). Questions to a remote
 * model run in forks ({@link #fork}). The proxy's own requests time out on a tick: the actor
 * looks at its clock after every event, and at least every {@link #TICK} while any of them
 * waits.
 *
 * <p>Ending. When the host's input ends, the actor reads the conversation once more and, once
 * no run of its own still needs the server, closes the server's input. When the server ends,
 * every request of the proxy still waiting ends without an answer, the runs answer with what
 * they have, and the session is told that everything for the host is queued; it delivers
 * that as in passive mode, giving up on a host that stopped reading.
 */
final class Actor implements Callable<Void>, RunContext {

    /** How long the proxy waits for the answer to one of its own requests. */
    static final Duration REQUEST_TIMEOUT = Duration.ofSeconds(60);

    /** How often, at least, the actor looks at its clock. */
    static final Duration TICK = Duration.ofMillis(250);

    /** Why a request whose id the host has in flight already is refused, with policy checks. */
    private static final String SAME_ID = "its id is the id of another request of the host's still in flight, so the"
            + " server's answers could not be told apart";

    /**
     * Thrown through the handlers when the session stops: the recorder took no more lines, or
     * the actor's thread was interrupted while recording ({@code cause}, else null).
     */
    private static final class Stopped extends RuntimeException {
        Stopped(InterruptedException cause) {
            super(cause);
        }
    }

    private final Mailbox mailbox;
    private final ActiveSession.HostWriter toHost;
    private final Outbox toServer;
    private final Recorder recorder;
    private final LongSupplier ticker;
    private final long startNanos;
    private final long requestTimeoutNanos;
    private final boolean commit;
    private final ContextFile context;
    private final List<CallCheck> checks;
    private final AnswerHook answerHook;
    private final ActiveSession.Forker forker;
    private final CompletableFuture<Void> serverEndHandled;
    /** Whether calls are checked, so each must reach the server as the checks read it. */
    private final boolean guarding;
    private final Predicate<String> checkedTool;

    // Actor thread only, all of them.
    private final TimelineBuilder timeline;
    private final Facts facts = new Facts();
    /** Calls whose first answer is still to come, by id key: the agent's and the proxy's own. */
    private final Map<String, ToolCall> awaitingAnswer = new HashMap<>();
    private final Set<String> toolLists = new HashSet<>();
    private final Set<String> initializes = new HashSet<>();
    private final OwnRequests own = new OwnRequests();
    private final HostRequests hostRequests = new HostRequests();
    /** A line of the host's waiting for the proxy's own request with the same id to end, or null. */
    private Held held;
    /** Runs of the proxy's own (commits, calls waiting for a slow check, held answers) in progress. */
    private int runs;
    private long lastTMs;
    private boolean hostEnded;
    private boolean serverInputClosed;
    private boolean serverGone;

    /**
     * @param recorder         where every line is recorded before it is queued for a side (the
     *                         session's gate)
     * @param ticker           the clock, in nanoseconds (tests pass one they move by hand)
     * @param startNanos       the clock's reading at the session's start: {@code t_ms} counts from it
     * @param header           the session log's header (the episode's id, domain and agent)
     * @param serverEndHandled completed once the server's end is handled: the actor's last
     *                         lines for the host are queued then
     */
    Actor(Mailbox mailbox, ActiveSession.HostWriter toHost, Outbox toServer, Recorder recorder, LongSupplier ticker,
          long startNanos, Duration requestTimeout, ActiveMode mode, dev.stretto.trace.log.LogHeader header,
          List<CallCheck> checks, AnswerHook answerHook, ActiveSession.Forker forker,
          CompletableFuture<Void> serverEndHandled) {
        this.mailbox = mailbox;
        this.toHost = toHost;
        this.toServer = toServer;
        this.recorder = recorder;
        this.ticker = ticker;
        this.startNanos = startNanos;
        this.requestTimeoutNanos = requestTimeout.toNanos();
        this.commit = mode.commit();
        this.context = mode.context() == null ? null : new ContextFile(mode.context());
        this.checks = checks;
        this.answerHook = answerHook;
        this.forker = forker;
        this.serverEndHandled = serverEndHandled;
        this.timeline = new TimelineBuilder(header);
        this.guarding = !checks.isEmpty();
        this.checkedTool = tool -> checks.stream().anyMatch(c -> c.appliesTo(tool));
    }

    /** A line of the host's held back, and the key of the proxy's request it waits for. */
    private record Held(Line line, JsonRpcPeek peek, String key) {
    }

    @Override
    public Void call() throws InterruptedException {
        long tick = TICK.toNanos();
        try {
            while (true) {
                // With nothing to time out, wait without a timer: an untimed wait wakes sooner.
                Inbound event = mailbox.take(own.isEmpty() ? Long.MAX_VALUE : tick);
                if (event != null) {
                    handle(event);
                }
                expire();
            }
        } catch (Stopped s) {
            if (s.getCause() instanceof InterruptedException interrupted) {
                throw interrupted;
            }
            return null;
        } finally {
            try {
                checks.forEach(CallCheck::close);
                answerHook.close();
            } finally {
                mailbox.close();
            }
        }
    }

    // if/instanceof rather than a pattern switch, whose first bootstrap would hold up the
    // session's first line; Inbound is sealed, so a new kind is easy to find here.
    private void handle(Inbound event) {
        if (event instanceof Inbound.FromHost(Line line, JsonRpcPeek peek)) {
            fromHost(line, peek);
        } else if (event instanceof Inbound.FromServer(Line line, boolean byProxy, JsonRpcPeek peek)) {
            fromServer(line, byProxy ? Source.PROXY : Source.SERVER, peek);
        } else if (event instanceof Inbound.Done(Runnable then)) {
            then.run();
        } else if (event instanceof Inbound.HostEnded(IOException failure)) {
            hostEnded(failure);
        } else if (event instanceof Inbound.ServerEnded) {
            serverEnded();
        } else if (!(event instanceof Inbound.Tick)) {
            throw new IllegalStateException("unknown event " + event);
        }
    }

    // ---- the host's lines

    private void fromHost(Line line, JsonRpcPeek peek) {
        if (clashes(line, peek)) {
            return;
        }
        if (guarding) {
            CallReader.Reading reading = CallReader.read(line.bytes(), peek, checkedTool);
            if (reading instanceof CallReader.Call c) {
                guardedCall(line, c);
                return;
            }
            if (reading instanceof CallReader.Refused r) {
                refuse(line, r.refusal());
                return;
            }
            if (reading instanceof CallReader.Batch b) {
                hostBatch(line, b);
                return;
            }
            if (peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null
                    && hostRequests.callInFlight(IdKey.flight(peek.id()))) {
                refuse(line, new CallReader.Refusal(CallReader.INVALID_REQUEST, SAME_ID, NullNode.instance));
                return;
            }
        }
        boolean forEpisode = false;
        if (peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null) {
            String key = IdKey.ofText(peek.id());
            switch (peek.method()) {
                case "tools/call" -> {
                    hostCall(line);
                    return;
                }
                case "tools/list" -> toolLists.add(key);
                case "initialize" -> {
                    if (commit) {
                        initializes.add(key);
                    }
                    forEpisode = true;
                }
                default -> {
                }
            }
            hostRequests.sent(IdKey.flight(peek.id()), false);
        } else {
            forEpisode = peek.kind() == JsonRpcPeek.Kind.NOTIFICATION && "notifications/cancelled".equals(peek.method())
                    || peek.kind() == JsonRpcPeek.Kind.NOT_OBJECT;
        }
        long t = record(Source.CLIENT, line);
        toServer(line.bytes(), line.terminated());
        // Parsed after it went on its way: the host's first line (initialize) need not wait for it.
        JsonNode message = forEpisode ? ProxyLines.logged(line.bytes()) : null;
        if (message != null) {
            timeline.add(t, Source.CLIENT, message);
            if (message.isArray()) {
                trackCalls(message);
                for (JsonNode m : message) {
                    if (BatchRefusal.isRequest(m)) {
                        hostRequests.sent(IdKey.flight(m.get("id")), "tools/call".equals(m.get("method").textValue()));
                    }
                }
            }
        }
    }

    /** One of the agent's calls, with no policy checks: read as the session log reads it. */
    private void hostCall(Line line) {
        readContext();
        JsonNode logged = ProxyLines.logged(line.bytes());
        JsonNode message = logged != null ? logged : ProxyLines.parse(line.bytes());
        ToolCall call = ToolCall.ofRequest(message).orElse(null);
        if (call == null) {
            // Not readable as a tree after all: nothing to check or answer by.
            record(Source.CLIENT, line);
            toServer(line.bytes(), line.terminated());
            return;
        }
        callChecked(line, logged, message, call);
    }

    /** One of the agent's calls, read as every server reads it. */
    private void guardedCall(Line line, CallReader.Call c) {
        if (hostRequests.inFlight(IdKey.flight(c.id()))) {
            refuse(line, new CallReader.Refusal(CallReader.INVALID_REQUEST, SAME_ID, NullNode.instance));
            return;
        }
        readContext();
        callChecked(line, LineClassifier.isMessage(line.bytes()) ? c.message() : null, c.message(), c.call());
    }

    /**
     * A call: read the conversation, check the call against the session so far, log it, then
     * send it on, or answer it with the refusal.
     */
    private void callChecked(Line line, JsonNode logged, JsonNode message, ToolCall call) {
        JsonNode id = message.get("id");
        String key = IdKey.of(id);
        String flight = IdKey.flight(id);
        String name = call.name();
        if (commit && CommitTool.NAME.equals(name)) {
            logCall(line, logged, key, call);
            var plan = CommitTool.plan(message.get("params"));
            if (plan.isEmpty()) {
                answer(id, CommitTool.INVALID, true);
                return;
            }
            hostRequests.sent(flight, true);
            runs++;
            new CommitRun(this, id, plan.get()).start();
            return;
        }
        // In flight from now: while a slow check decides, another call with its id is refused.
        hostRequests.sent(flight, true);
        // The checks see the session before the call; the call is logged before any answer to it.
        Deferred<CallCheck.Outcome> outcome = new Deferred<>();
        check(call, outcome);
        logCall(line, logged, key, call);
        outcome.then(o -> {
            if (o instanceof CallCheck.Refused r) {
                Logger.info("refused {}: {}", name, r.reason());
                answer(id, r.message(), true);
            } else {
                toServer(line.bytes(), line.terminated());
            }
        }, () -> runs++, this::finished);
    }

    private void logCall(Line line, JsonNode logged, String key, ToolCall call) {
        long t = record(Source.CLIENT, line);
        if (logged != null) {
            timeline.add(t, Source.CLIENT, logged);
            awaitingAnswer.put(key, call);
        }
    }

    /**
     * A batch holding calls: each is checked against the session before the batch, in order,
     * up to the first refusal. It goes to the server, as it came, only when every call in it
     * passes; otherwise none of it does, and the host gets one answer for each of its requests:
     * the refusal, or that it was not sent.
     */
    private void hostBatch(Line line, CallReader.Batch batch) {
        readContext();
        List<CallReader.Element> elements = new ArrayList<>();
        Set<String> ids = new HashSet<>();
        List<ToolCall> calls = new ArrayList<>();
        boolean anyRefused = false;
        for (CallReader.Element e : batch.elements()) {
            CallReader.Element element = e;
            if (e.reading() instanceof CallReader.Call c) {
                String flight = IdKey.flight(c.id());
                if (hostRequests.inFlight(flight) || !ids.add(flight)) {
                    element = new CallReader.Element(e.message(), new CallReader.Refused(
                            new CallReader.Refusal(CallReader.INVALID_REQUEST, SAME_ID, NullNode.instance)));
                } else {
                    calls.add(c.call());
                }
            } else if (BatchRefusal.isRequest(e.message()) && hostRequests.callInFlight(IdKey.flight(e.message().get("id")))) {
                element = new CallReader.Element(e.message(), new CallReader.Refused(
                        new CallReader.Refusal(CallReader.INVALID_REQUEST, SAME_ID, NullNode.instance)));
            }
            anyRefused |= element.reading() instanceof CallReader.Refused;
            elements.add(element);
        }
        Deferred<List<CallCheck.Outcome>> outcomes = new Deferred<>();
        if (anyRefused) {
            outcomes.accept(List.of());
        } else {
            checkEach(calls, 0, new ArrayList<>(), outcomes);
        }
        long t = record(Source.CLIENT, line);
        JsonNode logged = ProxyLines.logged(line.bytes());
        if (logged != null) {
            timeline.add(t, Source.CLIENT, logged);
            trackCalls(logged);
        }
        List<String> callIds = new ArrayList<>();
        for (CallReader.Element e : elements) {
            if (e.reading() instanceof CallReader.Call c) {
                callIds.add(IdKey.flight(c.id()));
            }
        }
        callIds.forEach(f -> hostRequests.sent(f, true));
        boolean refusedAlready = anyRefused;
        outcomes.then(done -> {
            if (!refusedAlready && done.stream().noneMatch(o -> o instanceof CallCheck.Refused)) {
                for (CallReader.Element e : elements) {
                    if (!(e.reading() instanceof CallReader.Call) && BatchRefusal.isRequest(e.message())) {
                        hostRequests.sent(IdKey.flight(e.message().get("id")), false);
                    }
                }
                // The batch was recorded when it was taken; waiting for the latest mark covers it.
                toServer.offer(new Outbox.Write(line.bytes(), line.terminated(), recorder.mark()));
                return;
            }
            callIds.forEach(hostRequests::answered);
            refuseBatch(elements, done);
        }, () -> runs++, this::finished);
    }

    /** Checks {@code calls} from the {@code i}th on, up to the first refusal; {@code then} gets the outcomes. */
    private void checkEach(List<ToolCall> calls, int i, List<CallCheck.Outcome> done,
                           Consumer<List<CallCheck.Outcome>> then) {
        if (i == calls.size()) {
            then.accept(done);
            return;
        }
        check(calls.get(i), o -> {
            done.add(o);
            if (o instanceof CallCheck.Refused) {
                then.accept(done);
            } else {
                checkEach(calls, i + 1, done, then);
            }
        });
    }

    /** Answers each request of a refused batch, in one batch of answers. */
    private void refuseBatch(List<CallReader.Element> elements, List<CallCheck.Outcome> outcomes) {
        ArrayNode answers = BatchRefusal.answers(elements, outcomes);
        if (!answers.isEmpty()) {
            sendToHostAsProxy(answers);
        }
    }

    /**
     * A line refused before it reached the server: logged as the host's (and read into the
     * episode as the log's readers read it), then answered with a JSON-RPC error unless it
     * cannot be answered.
     */
    private void refuse(Line line, CallReader.Refusal refusal) {
        Logger.info("refused a tools/call: {}", refusal.reason());
        refuse(line, refusal.id(), refusal.code(), refusal.message());
    }

    private void refuse(Line line, JsonNode answerId, int code, String message) {
        readContext();
        long t = record(Source.CLIENT, line);
        JsonNode logged = ProxyLines.logged(line.bytes());
        if (logged != null) {
            timeline.add(t, Source.CLIENT, logged);
            trackCalls(logged);
        }
        if (answerId != null) {
            sendToHostAsProxy(ProxyLines.error(answerId, code, message));
        }
    }

    /**
     * The tools/call requests in a logged message (one, or a batch): their answers belong to the
     * episode, as they do when the log is read.
     */
    private void trackCalls(JsonNode message) {
        for (JsonNode m : message.isArray() ? message : List.of(message)) {
            ToolCall.ofRequest(m).ifPresent(c -> awaitingAnswer.put(IdKey.of(m.get("id")), c));
        }
    }

    /**
     * Whether the host's line uses the id of a request of the proxy's that is still open: then
     * it waits (held, with the host's lines behind it) until that request has its answer, or,
     * when that request timed out and its answer may still come, it is refused.
     */
    private boolean clashes(Line line, JsonRpcPeek peek) {
        if (peek.kind() == JsonRpcPeek.Kind.NOT_JSON || peek.kind() == JsonRpcPeek.Kind.BLANK) {
            return false;
        }
        OwnRequests.Clash clash = own.clash(line.bytes());
        if (clash instanceof OwnRequests.Clash.Open(String key)) {
            held = new Held(line, peek, key);
            mailbox.holdHost(true);
            return true;
        }
        if (!(clash instanceof OwnRequests.Clash.Late(String id))) {
            return false;
        }
        Logger.info("refused a request of the host's: its id {} is one the proxy used itself", id);
        JsonNode answerId = peek.kind() == JsonRpcPeek.Kind.REQUEST && peek.id() != null
                ? ProxyLines.parse(peek.id().getBytes(java.nio.charset.StandardCharsets.UTF_8)) : NullNode.instance;
        refuse(line, answerId, CallReader.INVALID_REQUEST, "Not sent: the id " + id + " is taken by a request the"
                + " proxy made itself, which the server has not answered; send this again with another id.");
        return true;
    }

    /** Takes the held line again once the proxy's request it waited for has ended. */
    private void releaseHeld() {
        if (held != null && !own.isWaiting(held.key())) {
            Held h = held;
            held = null;
            mailbox.holdHost(false);
            fromHost(h.line(), h.peek());
        }
    }

    private void hostEnded(IOException failure) {
        if (failure != null) {
            Logger.warn("reading the host's input failed ({}); treating it as closed", failure.getMessage());
        }
        readContext();
        hostEnded = true;
        closeServerInputWhenIdle();
    }

    // ---- the server's lines

    private void fromServer(Line line, Source from, JsonRpcPeek peek) {
        if (peek.kind() == JsonRpcPeek.Kind.RESPONSE && peek.id() != null) {
            String key = IdKey.ofText(peek.id());
            String flight = IdKey.flight(peek.id());
            boolean hostAsked = hostRequests.inFlight(flight);
            ToolCall call = awaitingAnswer.remove(key);
            if (call != null) {
                answerToCall(line, from, key, flight, call);
                return;
            }
            if (hostAsked) {
                hostRequests.answered(flight);
            } else if (own.wasIssued(key)) {
                own.claim(key);
                record(from, line);
                Logger.debug("dropped a late answer to the proxy's request {}", peek.id());
                return;
            }
            if (toolLists.remove(key)) {
                rewritten(line, from, true);
                return;
            }
            if (initializes.remove(key)) {
                rewritten(line, from, false);
                return;
            }
        } else if (peek.kind() == JsonRpcPeek.Kind.NOT_OBJECT) {
            JsonNode batch = ProxyLines.logged(line.bytes());
            long t = record(from, line);
            if (batch != null) {
                timeline.add(t, from, batch);
                for (JsonNode m : batch) {
                    if (m.get("id") != null && (m.has("result") || m.has("error"))) {
                        awaitingAnswer.remove(IdKey.of(m.get("id")));
                        hostRequests.answered(IdKey.flight(m.get("id")));
                    }
                }
            }
            toHost.offer(line.bytes(), line.terminated());
            return;
        }
        record(from, line);
        toHost.offer(line.bytes(), line.terminated());
    }

    /** The first answer to a tracked call: it joins the episode; the proxy's own are not forwarded. */
    private void answerToCall(Line line, Source from, String key, String flight, ToolCall call) {
        JsonNode logged = ProxyLines.logged(line.bytes());
        long t = record(from, line);
        if (logged != null) {
            timeline.add(t, from, logged);
        }
        if (own.isWaiting(key) || own.isLate(key)) {
            OwnRequests.Waiting w = own.claim(key);
            if (w == null) {
                Logger.debug("dropped a late answer to the proxy's request {}", call.id());
                return;
            }
            JsonNode response = logged != null ? logged : ProxyLines.parse(line.bytes());
            w.then().accept(new OwnRequests.Answered(w.id(), response, LookupAnswer.of(response)));
            releaseHeld();
            closeServerInputWhenIdle();
            return;
        }
        HeldAnswer held = new HeldAnswer(call, logged, line, flight);
        // Counted before the hook decides: it may let the answer go before it returns.
        runs++;
        if (answerHook.hold(held, this)) {
            return;
        }
        runs--;
        hostRequests.answered(flight);
        toHost.offer(line.bytes(), line.terminated());
    }

    /** A tools/list or initialize answer: learnt from, and with --commit written anew. */
    private void rewritten(Line line, Source from, boolean toolList) {
        record(from, line);
        JsonNode response = ProxyLines.parse(line.bytes());
        if (toolList) {
            answerHook.listed(response);
        }
        JsonNode replacement = !commit ? null
                : toolList ? CommitTool.withTool(response) : CommitTool.withInstructions(response);
        if (replacement == null) {
            toHost.offer(line.bytes(), line.terminated());
            return;
        }
        byte[] bytes = ProxyLines.bytes(replacement);
        record(Source.PROXY, new Line(bytes, true));
        toHost.offer(bytes, true);
    }

    private void serverEnded() {
        serverGone = true;
        for (OwnRequests.Waiting w : own.all()) {
            w.then().accept(new OwnRequests.ServerGone());
        }
        releaseHeld();
        answerHook.serverEnded();
        serverEndHandled.complete(null);
    }

    // ---- the proxy's own work (RunContext)

    @Override
    public void check(ToolCall call, Consumer<CallCheck.Outcome> then) {
        readContext();
        if (checks.isEmpty()) {
            then.accept(new CallCheck.Allowed());
            return;
        }
        runChecks(0, call, new CheckContext(), then);
    }

    /**
     * What the checks of one call see: the facts and the episode as they are when first asked
     * for, made only then (most calls are reads no rule checks, and a busy session's episode
     * is not free to bring up to date).
     */
    private final class CheckContext implements CallCheck.Context {
        private boolean factsUpdated;
        private Episode episode;

        @Override
        public Facts facts() {
            if (!factsUpdated) {
                facts.update(timeline.events());
                factsUpdated = true;
            }
            return facts;
        }

        @Override
        public Episode episode() {
            if (episode == null) {
                episode = timeline.episode();
            }
            return episode;
        }

        @Override
        public <T> void fork(Callable<T> work, BiConsumer<T, Throwable> done) {
            Actor.this.fork(work, done);
        }
    }

    private void runChecks(int i, ToolCall call, CallCheck.Context ctx, Consumer<CallCheck.Outcome> then) {
        if (i == checks.size()) {
            then.accept(new CallCheck.Allowed());
            return;
        }
        checks.get(i).check(call, ctx, o -> {
            if (o instanceof CallCheck.Refused) {
                then.accept(o);
            } else {
                runChecks(i + 1, call, ctx, then);
            }
        });
    }

    @Override
    public Episode episode() {
        readContext();
        return timeline.episode();
    }

    @Override
    public void request(String tool, JsonNode arguments, Consumer<OwnRequests.Outcome> then) {
        if (serverGone || serverInputClosed) {
            then.accept(new OwnRequests.ServerGone());
            return;
        }
        String id = own.nextId(hostRequests::inFlight);
        JsonNode request = ProxyLines.toolCall(id, tool, arguments);
        byte[] bytes = ProxyLines.bytes(request);
        long t = record(Source.PROXY, new Line(bytes, true));
        timeline.add(t, Source.PROXY, request);
        String key = IdKey.ofString(id);
        awaitingAnswer.put(key, new ToolCall(id, tool, arguments));
        own.await(id, tool, ticker.getAsLong() + requestTimeoutNanos, then);
        toServer(bytes, true);
    }

    @Override
    public void answer(JsonNode id, String text, boolean isError) {
        sendToHostAsProxy(ProxyLines.toolResult(id, text, isError));
    }

    /**
     * Logs {@code message} (an answer, or a batch of them) as the proxy's, lets the episode see
     * it, and queues it for the host.
     */
    private void sendToHostAsProxy(JsonNode message) {
        byte[] bytes = ProxyLines.bytes(message);
        long t = record(Source.PROXY, new Line(bytes, true));
        boolean answersACall = false;
        for (JsonNode m : message.isArray() ? message : List.of(message)) {
            JsonNode id = m.get("id");
            if (id != null) {
                hostRequests.answered(IdKey.flight(id));
                answersACall |= awaitingAnswer.remove(IdKey.of(id)) != null;
            }
        }
        if (answersACall) {
            timeline.add(t, Source.PROXY, message);
        }
        toHost.offer(bytes, true);
    }

    @Override
    public <T> void fork(Callable<T> work, BiConsumer<T, Throwable> then) {
        forker.fork(() -> {
            T result = null;
            Throwable failure = null;
            try {
                result = work.call();
            } catch (Throwable t) {
                failure = t;
            }
            if (failure instanceof InterruptedException || Thread.currentThread().isInterrupted()) {
                // Only the session's end interrupts a fork: what the cut-short work reports is
                // not an answer (a flow would hand back on it), and the run ends with the session.
                return;
            }
            T r = result;
            Throwable f = failure;
            try {
                mailbox.put(new Inbound.Done(() -> then.accept(r, f)));
            } catch (InterruptedException e) {
                // The session is ending: nobody will take the result.
                Thread.currentThread().interrupt();
            }
        });
    }

    @Override
    public void finished() {
        runs--;
        closeServerInputWhenIdle();
    }

    // ---- time, the log, the conversation, the end

    private void expire() {
        List<OwnRequests.Waiting> late = own.expired(ticker.getAsLong());
        for (OwnRequests.Waiting w : late) {
            w.then().accept(new OwnRequests.TimedOut(w.id(), Duration.ofNanos(requestTimeoutNanos)));
        }
        if (!late.isEmpty()) {
            releaseHeld();
            closeServerInputWhenIdle();
        }
    }

    private void closeServerInputWhenIdle() {
        if (hostEnded && !serverInputClosed && runs == 0 && own.isEmpty()) {
            serverInputClosed = true;
            toServer.offer(new Outbox.EndOfInput());
        }
    }

    /** Logs the conversation's new lines as context entries; they join the episode. */
    private void readContext() {
        if (context == null) {
            return;
        }
        for (Line l : context.readNew()) {
            long t = record(Source.CONTEXT, l);
            JsonNode m = ProxyLines.logged(l.bytes());
            if (m != null) {
                timeline.add(t, Source.CONTEXT, m);
            }
        }
    }

    // Queues a line, recorded already, for the server, with the log's mark so far, which covers it.
    private void toServer(byte[] bytes, boolean newline) {
        toServer.offer(new Outbox.Write(bytes, newline, recorder.mark()));
    }

    private long record(Source from, Line line) {
        long t = Math.max(lastTMs, Math.max(0, (ticker.getAsLong() - startNanos) / 1_000_000));
        lastTMs = t;
        boolean recorded;
        try {
            recorded = recorder.record(from, line, t);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Stopped(e);
        }
        if (!recorded) {
            // The session is stopping: this line, and every later one, stays where it is.
            throw new Stopped(null);
        }
        return t;
    }

    /**
     * Loads and links what the actor parses with (Jackson's tree model, the log's classifier,
     * the episode's builder, the guards) on a thread of its own while the server starts, so
     * the session's first answers do not wait for it. Touches no state of the actor.
     */
    static void warmUp(dev.stretto.trace.log.LogHeader header) {
        byte[] line = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"x\",\"arguments\":{}}}"
                .getBytes(java.nio.charset.StandardCharsets.UTF_8);
        TimelineBuilder scratch = new TimelineBuilder(header);
        scratch.add(0, Source.CLIENT, ProxyLines.logged(line));
        new Facts().update(scratch.events());
        ProxyLines.bytes(CommitTool.DEFINITION);
    }

    /**
     * The session's episode so far, without reading the conversation first (tests compare it
     * with the log's). Actor thread only.
     */
    Episode episodeSoFar() {
        return timeline.episode();
    }

    /** An answer the {@link AnswerHook} holds. */
    private final class HeldAnswer implements AnswerHook.Held {
        private final ToolCall call;
        private final JsonNode response;
        private final Line line;
        private final String flight;
        private boolean done;

        HeldAnswer(ToolCall call, JsonNode response, Line line, String flight) {
            this.call = call;
            this.response = response;
            this.line = line;
            this.flight = flight;
        }

        @Override
        public ToolCall call() {
            return call;
        }

        @Override
        public JsonNode response() {
            return response;
        }

        @Override
        public void release() {
            end();
            toHost.offer(line.bytes(), line.terminated());
        }

        @Override
        public void replace(JsonNode replacement) {
            end();
            sendToHostAsProxy(replacement);
        }

        private void end() {
            if (done) {
                throw new IllegalStateException("the answer to " + call.id() + " was let go already");
            }
            done = true;
            // The host has its answer only now: until then the proxy takes no request of its own by this id.
            hostRequests.answered(flight);
            finished();
        }
    }

    /**
     * An outcome that may come now or later: if it came while the caller was still busy (the
     * check decided at once), the caller applies it itself when ready; otherwise it is applied
     * when it comes, as a run of its own.
     */
    private static final class Deferred<T> implements Consumer<T> {
        private T now;
        private Consumer<T> later;

        @Override
        public void accept(T value) {
            if (later != null) {
                later.accept(value);
            } else {
                now = value;
            }
        }

        /**
         * Applies the outcome with {@code apply}: at once if it has come; else when it comes,
         * with {@code waiting} run now and {@code done} after it is applied.
         */
        void then(Consumer<T> apply, Runnable waiting, Runnable done) {
            if (now != null) {
                apply.accept(now);
                return;
            }
            waiting.run();
            later = v -> {
                apply.accept(v);
                done.run();
            };
        }
    }
}
