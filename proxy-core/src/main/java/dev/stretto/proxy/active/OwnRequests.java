package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.flow.wire.LookupAnswer;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.log.Source;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;
import java.util.function.LongSupplier;
import java.util.function.Predicate;

/**
 * The proxy's own requests to the server (the commit tool's calls, a flow's lookups): sent as
 * {@code tools/call} with ids {@code stretto-<n>}, counted once per session, logged as the
 * proxy's, and what waits for each answer, until it comes or the request times out ({@link
 * #expire}, which the actor runs after every event and at least every tick while a request
 * waits). An id is the proxy's from when it is sent until its answer comes, even after its wait
 * timed out (a late answer is for nobody); an id the host has in flight for a request of its
 * own is skipped, and a line of the host's that uses an id still taken {@linkplain #clash
 * clashes}. Actor thread only.
 */
final class OwnRequests {

    /** How a request of the proxy ended. */
    sealed interface Outcome {
    }

    /**
     * The server answered.
     *
     * @param id       the request's id ({@code stretto-<n>})
     * @param response the whole response (null when it is not JSON)
     * @param answer   its text and whether the call failed
     */
    record Answered(String id, JsonNode response, LookupAnswer answer) implements Outcome {
    }

    /**
     * No answer came within the limit; one that comes later is dropped. The requester says so
     * on stderr, in its own words.
     *
     * @param id    the request's id
     * @param limit how long the proxy waited
     */
    record TimedOut(String id, Duration limit) implements Outcome {
    }

    /** No answer will come: the server is gone (or its input is closed). */
    record ServerGone() implements Outcome {
    }

    /** Whether a line of the host's uses an id of the proxy's still taken. */
    sealed interface Clash {

        /** It does not. */
        record None() implements Clash {
        }

        /**
         * It uses the id of a request that waits for its answer: the line is held back here
         * until that request has ended ({@link #released()}).
         */
        record Held() implements Clash {
        }

        /**
         * It uses the id of a request that timed out, whose answer may still come: the line is
         * to be refused.
         *
         * @param id the id
         */
        record Late(String id) implements Clash {
        }
    }

    /**
     * A line of the host's held back, and the key of the proxy's request it waits for.
     *
     * @param line the line
     * @param peek the one look at it
     * @param key  the id key it waits for
     */
    record HeldLine(Line line, JsonRpcPeek peek, String key) {
    }

    /** One request waiting for its answer. */
    record Waiting(String id, String tool, long deadlineNanos, Consumer<Outcome> then) {
    }

    private static final String PREFIX = "stretto-";

    private final Ledger ledger;
    private final CallTable calls;
    private final Sides sides;
    private final LongSupplier ticker;
    private final Duration timeout;
    private long issued;
    private final Map<String, Waiting> waiting = new LinkedHashMap<>();
    /** Requests that timed out and whose answer may still come: their ids stay taken until it does. */
    private final Set<String> late = new HashSet<>();
    /** The line of the host's held back for a request of the proxy's with its id, or null. */
    private HeldLine held;

    /**
     * @param ticker  the actor's clock, in nanoseconds
     * @param timeout how long a request waits for its answer
     */
    OwnRequests(Ledger ledger, CallTable calls, Sides sides, LongSupplier ticker, Duration timeout) {
        this.ledger = ledger;
        this.calls = calls;
        this.sides = sides;
        this.ticker = ticker;
        this.timeout = timeout;
    }

    /**
     * Sends {@code tool(arguments)} to the server as the proxy's own request, logged as the
     * proxy's (it and its answer join the episode); {@code then} gets the outcome.
     */
    void send(String tool, JsonNode arguments, Consumer<Outcome> then) {
        String id = nextId(calls::inFlight);
        JsonNode request = ProxyLines.toolCall(id, tool, arguments);
        Line line = new Line(ProxyLines.bytes(request), true);
        ledger.record(Source.PROXY, line, request);
        String key = IdKey.ofString(id);
        calls.track(key, new ToolCall(id, tool, arguments));
        waiting.put(key, new Waiting(id, tool, ticker.getAsLong() + timeout.toNanos(), then));
        sides.toServer(line);
    }

    /** Whether {@code key} is the id of a request that waits, or timed out: its answer is the proxy's. */
    boolean owns(String key) {
        return waiting.containsKey(key) || late.contains(key);
    }

    /**
     * The answer to the proxy's request with id key {@code key} came (logged already): the one
     * waiting for it gets it; a late one is dropped.
     *
     * @param id     the request's id, for messages
     * @param logged the answer as the log keeps it, or null when it keeps it as raw text
     */
    void answered(String key, String id, JsonNode logged, Line line) {
        Waiting w = claim(key);
        if (w == null) {
            Logger.debug("dropped a late answer to the proxy's request {}", id);
            return;
        }
        JsonNode response = logged != null ? logged : ProxyLines.parse(line.bytes());
        w.then().accept(new Answered(w.id(), response, LookupAnswer.of(response)));
    }

    /** Ends the waits whose time is up: each gets {@link TimedOut}; their ids stay taken. */
    void expire() {
        if (waiting.isEmpty()) {
            return;
        }
        for (Waiting w : expired(ticker.getAsLong())) {
            w.then().accept(new TimedOut(w.id(), timeout));
        }
    }

    /** The server is gone: every wait ends with {@link ServerGone}. */
    void serverGone() {
        for (Waiting w : all()) {
            w.then().accept(new ServerGone());
        }
    }

    /**
     * The id of the next request: {@code stretto-1}, {@code stretto-2}, ..., skipping any whose
     * key {@code taken} says the host has in flight.
     */
    private String nextId(Predicate<String> taken) {
        String id;
        do {
            id = PREFIX + (++issued);
        } while (taken.test(IdKey.ofString(id)));
        return id;
    }

    /**
     * Whether the host's {@code line} uses an id still taken: any string that a server could
     * take for the id of one of its messages (every duplicate, every spelling of the key, each
     * message of a batch), found only when the line is JSON and mentions {@code stretto-}. A
     * line that uses the id of a request still waiting is {@linkplain Clash.Held held} here.
     */
    Clash clash(Line line, JsonRpcPeek peek) {
        if (peek.kind() == JsonRpcPeek.Kind.NOT_JSON || peek.kind() == JsonRpcPeek.Kind.BLANK
                || waiting.isEmpty() && late.isEmpty() || !AnySpelling.mentions(line.bytes(), PREFIX)) {
            return new Clash.None();
        }
        List<KeyScan.Message> scan;
        try {
            scan = KeyScan.of(line.bytes());
        } catch (java.io.IOException e) {
            return new Clash.None();
        }
        Clash found = new Clash.None();
        for (KeyScan.Message m : scan) {
            for (String id : m.stringIds()) {
                String key = IdKey.ofString(id);
                if (waiting.containsKey(key)) {
                    held = new HeldLine(line, peek, key);
                    return new Clash.Held();
                }
                if (late.contains(key)) {
                    found = new Clash.Late(id);
                }
            }
        }
        return found;
    }

    /** The line held back, once the request it waited for has ended (then it is held no more); else null. */
    HeldLine released() {
        HeldLine h = held;
        if (h == null || waiting.containsKey(h.key())) {
            return null;
        }
        held = null;
        return h;
    }

    /**
     * Whether {@code key} is the id of a request this session's proxy sent, whatever became of
     * it: a second answer to one is nobody's.
     */
    boolean wasIssued(String key) {
        if (key == null || !key.startsWith("\"" + PREFIX) || !key.endsWith("\"")) {
            return false;
        }
        String n = key.substring(PREFIX.length() + 1, key.length() - 1);
        if (n.isEmpty() || n.length() > 18 || !n.chars().allMatch(Character::isDigit) || n.startsWith("0")) {
            return false;
        }
        return Long.parseLong(n) <= issued;
    }

    /**
     * Ends the wait for {@code key}: the one waiting, or null when none is (any more); a late
     * answer frees its id.
     */
    Waiting claim(String key) {
        Waiting w = waiting.remove(key);
        if (w == null) {
            late.remove(key);
        }
        return w;
    }

    /** Ends and returns the waits whose deadline is at or before {@code nowNanos}; their ids stay taken. */
    private List<Waiting> expired(long nowNanos) {
        List<Waiting> out = new ArrayList<>();
        for (Iterator<Map.Entry<String, Waiting>> it = waiting.entrySet().iterator(); it.hasNext(); ) {
            Map.Entry<String, Waiting> e = it.next();
            if (e.getValue().deadlineNanos() - nowNanos <= 0) {
                it.remove();
                late.add(e.getKey());
                out.add(e.getValue());
            }
        }
        return out;
    }

    /** Ends and returns every wait: the server is gone, and no answer will come. */
    private List<Waiting> all() {
        List<Waiting> out = new ArrayList<>(waiting.values());
        waiting.clear();
        late.clear();
        return out;
    }

    /** Whether no request waits for its answer. */
    boolean isEmpty() {
        return waiting.isEmpty();
    }
}
