package dev.stretto.proxy.listen;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.http.ErrorLines;
import dev.stretto.proxy.http.JsonCompactor;
import dev.stretto.proxy.http.JsonRpcPeek;
import dev.stretto.proxy.logging.Logger;
import dev.stretto.trace.json.JsonRpcId;
import java.io.IOException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Everything one HTTP session sends the host: each line of the session's output routed to the
 * response it belongs to, as events numbered for resumption, and the requests still waiting
 * for their answers. One lock guards it all; the responses' writers take events and write
 * them outside it.
 *
 * <p>Routing. An answer goes to the response of the POST that carried its request, and ends it
 * once every request of that POST is answered. Progress goes with the request whose {@code
 * progressToken} it names. Any other request or notification of the server's (a log message, a
 * {@code sampling/createMessage}) goes with the latest request still waiting on an event
 * stream: a stdio server says nothing of which request a message is for, and a server that is
 * busy with one call speaks about that call. When none waits, it goes to the session's own
 * stream, the GET stream, which keeps what no client has taken for the next GET.
 *
 * <p>Numbers and resumption. A stream's events are numbered from 1; an event's id is {@code
 * <stream>-<number>}, unique in the session (the GET stream is stream 0). A session keeps its
 * last {@code replayEvents} events, or {@code replayBytes}, for clients that come back with
 * {@code Last-Event-ID}; the oldest go first once they have been written to a client. An event
 * no client has taken yet goes only when its stream has no client (it was dropped, or the GET
 * stream is not open), which is said; one whose client is connected but reads nothing holds the
 * session's output, as a host that does not read holds a stdio server, for at most {@link
 * #STALL}, after which that client is cut off.
 */
final class Outbox {

    /** How long a connected client may read nothing while the session's output waits for it. */
    static final Duration STALL = Duration.ofSeconds(30);

    private static final ObjectMapper JSON = new ObjectMapper();

    /** One event of a stream: a message for the host, written to at most one client at a time. */
    static final class Event {
        final Stream stream;
        final long seq;
        final byte[] data;
        boolean delivered;

        Event(Stream stream, long seq, byte[] data) {
            this.stream = stream;
            this.seq = seq;
            this.data = data;
        }

        String id() {
            return stream.number + "-" + seq;
        }
    }

    /** The response to one POST of requests (an event stream or a JSON answer), or the GET stream. */
    static final class Stream {
        final int number;
        final boolean sse;
        final EventRun events = new EventRun();
        final Condition changed;
        long nextSeq = 1;
        long deliveredUpTo;
        int pending;
        boolean complete;
        Attachment writer;
        // A JSON answer's messages, by request, in the order of the requests.
        final Map<String, byte[]> answers = new LinkedHashMap<>();

        Stream(int number, boolean sse, Condition changed) {
            this.number = number;
            this.sse = sse;
            this.changed = changed;
        }
    }

    /** One client connection writing a stream's events, from {@code cursor} on. */
    static final class Attachment {
        final Stream stream;
        long cursor;
        boolean superseded;

        Attachment(Stream stream, long cursor) {
            this.stream = stream;
            this.cursor = cursor;
        }
    }

    /** What a writer does next. */
    sealed interface Next {
        /** Write this event. */
        record Send(Event event) implements Next {
        }

        /** Nothing for a while: write a comment, so a dead connection shows. */
        record KeepAlive() implements Next {
        }

        /** The stream is done (or another connection took it): end the response. */
        record End() implements Next {
        }
    }

    /** A POST's response, opened: its stream, and for an event stream the connection that writes it. */
    record Opened(Stream stream, Attachment attachment) {
    }

    private final ReentrantLock lock = new ReentrantLock();
    private final Condition room = lock.newCondition();
    private final int maxStreams;
    private final int maxEvents;
    private final long maxBytes;
    private final Map<Integer, Stream> streams = new HashMap<>();
    private final ArrayDeque<Event> kept = new ArrayDeque<>();
    private long keptBytes;
    private final Flights flights = new Flights();
    private final Stream standalone;
    private int nextStream = 1;
    private int open;
    private boolean ending;
    private boolean ended;
    private long dropped;
    private boolean saidNotJson;
    private volatile String protocolVersion;

    Outbox(int maxStreams, int maxEvents, long maxBytes) {
        this.maxStreams = maxStreams;
        this.maxEvents = maxEvents;
        this.maxBytes = maxBytes;
        this.standalone = new Stream(0, true, lock.newCondition());
        streams.put(0, standalone);
    }

    /** The protocol version the server's {@code initialize} answer named, or null before it. */
    String protocolVersion() {
        return protocolVersion;
    }

    /**
     * Opens the response to a POST of {@code requests} (at least one): registers each as
     * waiting for its answer, before its line goes to the server.
     *
     * @param sse an event stream (else one JSON answer)
     * @throws Refused when the session has ended (404), has {@code maxStreams} open (429), or
     *                 a request's id is one still waiting in this session (400)
     */
    Opened open(List<Posted.Message> requests, boolean sse) throws Refused {
        lock.lock();
        try {
            if (ended || ending) {
                throw new Refused(404, "Not Found: the session has ended");
            }
            List<String> keys = new ArrayList<>();
            for (Posted.Message r : requests) {
                if (flights.holds(r.key()) || keys.contains(r.key())) {
                    throw new Refused(400, "Bad Request: a request with id " + r.id()
                            + " is still waiting for its answer in this session");
                }
                keys.add(r.key());
            }
            if (open >= maxStreams) {
                throw new Refused(429, "Too Many Requests: the session has " + maxStreams
                        + " responses open already, the most it may");
            }
            Stream stream = new Stream(nextStream++, sse, lock.newCondition());
            streams.put(stream.number, stream);
            for (Posted.Message r : requests) {
                flights.add(new Flights.Flight(r.key(), r.id(), stream, r.progress(), r.isInitialize()));
                stream.pending++;
                if (!sse) {
                    stream.answers.put(r.key(), null);
                }
            }
            open++;
            Attachment attachment = null;
            if (sse) {
                attachment = new Attachment(stream, 0);
                stream.writer = attachment;
            }
            return new Opened(stream, attachment);
        } finally {
            lock.unlock();
        }
    }

    /** The host cancelled the request of flight key {@code key}: it waits no more, and a late answer is dropped. */
    void cancel(String key) {
        lock.lock();
        try {
            Flights.Flight f = flights.remove(key);
            if (f != null) {
                f.stream().answers.remove(key);
                answered(f.stream());
            }
        } finally {
            lock.unlock();
        }
    }

    /**
     * One line of the session's output for the host, routed (see the class comment). Called on
     * the session's host writer thread only, so the host sees the server's order on each stream.
     */
    void route(byte[] line) throws InterruptedException {
        byte[] data = JsonCompactor.oneLine(trim(line));
        JsonRpcPeek peek = JsonRpcPeek.of(data);
        lock.lock();
        try {
            if (ended) {
                return;
            }
            switch (peek.kind()) {
                case RESPONSE -> answer(peek, data);
                case REQUEST, NOTIFICATION -> append(target(peek, data), data);
                case BLANK -> {
                }
                case NOT_JSON, NOT_OBJECT, OTHER_OBJECT -> {
                    if (!saidNotJson) {
                        saidNotJson = true;
                        Logger.warn("the server wrote a line that is no JSON-RPC message; it is in the session log,"
                                + " but an HTTP host cannot be given it (this is said once a session)");
                    }
                }
            }
        } finally {
            lock.unlock();
        }
    }

    private void answer(JsonRpcPeek peek, byte[] data) throws InterruptedException {
        Flights.Flight f = peek.id() == null ? null : flights.remove(JsonRpcId.flightKey(peek.id()));
        if (f == null) {
            Logger.debug("an answer with id {} matches no request waiting in the session; it goes to no client",
                    peek.id());
            return;
        }
        if (f.initialize() && peek.protocolVersion() != null) {
            protocolVersion = peek.protocolVersion();
        }
        if (f.stream().sse) {
            append(f.stream(), data);
        } else {
            f.stream().answers.put(f.key(), data);
        }
        answered(f.stream());
    }

    private void answered(Stream stream) {
        stream.pending--;
        if (stream.pending <= 0) {
            stream.complete = true;
            stream.changed.signalAll();
            dropIfDone(stream);
        }
    }

    // Progress goes with its request; anything else with the latest request on an event stream.
    private Stream target(JsonRpcPeek peek, byte[] data) {
        if ("notifications/progress".equals(peek.method())) {
            Flights.Flight f = flights.forProgress(progressKey(data));
            if (f != null) {
                return f.stream().sse ? f.stream() : standalone;
            }
        }
        Stream latest = flights.latestOnEventStream();
        return latest != null ? latest : standalone;
    }

    private static String progressKey(byte[] data) {
        try {
            JsonNode params = JSON.readTree(data).path("params");
            return Posted.keyOf(params.get("progressToken"));
        } catch (IOException e) {
            return null;
        }
    }

    // Lock held.
    private void append(Stream stream, byte[] data) throws InterruptedException {
        Event event = new Event(stream, stream.nextSeq++, data);
        stream.events.add(event);
        kept.add(event);
        keptBytes += data.length;
        stream.changed.signalAll();
        keepBounded();
    }

    // Lock held. Drops the oldest events beyond the bounds; waits while the oldest is on its way
    // to a client that is connected, and cuts off a client that takes nothing for STALL.
    private void keepBounded() throws InterruptedException {
        long waitedNanos = 0;
        while (kept.size() > maxEvents || keptBytes > maxBytes) {
            Event oldest = kept.peekFirst();
            if (oldest.delivered || oldest.stream.writer == null || ending || ended) {
                dropOldest();
                continue;
            }
            long before = System.nanoTime();
            if (room.awaitNanos(STALL.toNanos() - waitedNanos) <= 0) {
                Logger.warn("a client of the session has read nothing for {} s while its messages waited: its"
                        + " stream is closed (it may resume it with Last-Event-ID)", STALL.toSeconds());
                Attachment cut = oldest.stream.writer;
                if (cut != null) {
                    cut.superseded = true;
                    oldest.stream.writer = null;
                    open--;
                    oldest.stream.changed.signalAll();
                }
                waitedNanos = 0;
            } else {
                waitedNanos += System.nanoTime() - before;
            }
        }
    }

    private void dropOldest() {
        Event oldest = kept.pollFirst();
        keptBytes -= oldest.data.length;
        Stream stream = oldest.stream;
        if (stream.events.first() == oldest) {
            stream.events.removeFirst();
        }
        if (!oldest.delivered && !ended) {
            dropped++;
            if (dropped == 1 || dropped % 1000 == 0) {
                Logger.warn("{} message(s) for the host dropped so far: no client was connected to take them, and"
                        + " a session keeps its last {} events ({} bytes) only", dropped, maxEvents, maxBytes);
            }
        }
        dropIfDone(stream);
    }

    // A finished POST stream that keeps nothing can be forgotten (a resume of it is then refused).
    private void dropIfDone(Stream stream) {
        if (stream != standalone && stream.complete && stream.writer == null && stream.events.isEmpty()
                && stream.sse) {
            streams.remove(stream.number);
        }
    }

    /**
     * Attaches a GET without {@code Last-Event-ID} to the session's own stream: it gets what no
     * client has taken yet, then what comes. A connection that had the stream is ended.
     *
     * @throws Refused when the session has ended (404) or has {@code maxStreams} open (429)
     */
    Attachment attachStandalone() throws Refused {
        lock.lock();
        try {
            return attach(standalone, standalone.deliveredUpTo);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Attaches a GET with {@code Last-Event-ID} to the stream that event was on, from the event
     * after it; a connection that had that stream is ended.
     *
     * @throws Refused when the id is not one of this session's (400), the events after it are
     *                 no longer kept (409), the session has ended (404) or has {@code
     *                 maxStreams} open (429)
     */
    Attachment resume(String lastEventId) throws Refused {
        int dash = lastEventId.indexOf('-');
        int number;
        long seq;
        try {
            number = Integer.parseInt(lastEventId.substring(0, Math.max(dash, 0)));
            seq = Long.parseLong(lastEventId.substring(dash + 1));
        } catch (NumberFormatException e) {
            throw unknownEvent(lastEventId);
        }
        if (number < 0 || seq < 0 || lastEventId.startsWith("+") || lastEventId.indexOf('+', dash) >= 0) {
            throw unknownEvent(lastEventId);
        }
        lock.lock();
        try {
            Stream stream = streams.get(number);
            if (stream == null) {
                if (number < nextStream) {
                    throw gone(lastEventId);
                }
                throw unknownEvent(lastEventId);
            }
            if (seq >= stream.nextSeq) {
                throw unknownEvent(lastEventId);
            }
            Event first = stream.events.first();
            long firstKept = first == null ? stream.nextSeq : first.seq;
            if (seq + 1 < firstKept) {
                throw gone(lastEventId);
            }
            return attach(stream, seq);
        } finally {
            lock.unlock();
        }
    }

    private static Refused unknownEvent(String id) {
        return new Refused(400, "Bad Request: Last-Event-ID " + id + " is not an event of this session");
    }

    private Refused gone(String id) {
        return new Refused(409, "Conflict: the events after " + id + " are no longer kept (a session keeps its last "
                + maxEvents + ")");
    }

    // Lock held.
    private Attachment attach(Stream stream, long cursor) throws Refused {
        if (ended || ending) {
            throw new Refused(404, "Not Found: the session has ended");
        }
        if (open >= maxStreams) {
            throw new Refused(429, "Too Many Requests: the session has " + maxStreams
                    + " responses open already, the most it may");
        }
        if (stream.writer != null) {
            stream.writer.superseded = true;
            stream.changed.signalAll();
        } else {
            open++;
        }
        Attachment attachment = new Attachment(stream, cursor);
        stream.writer = attachment;
        return attachment;
    }

    /** What the writer of {@code a} does next, waiting up to {@code keepAliveNanos} for it. */
    Next next(Attachment a, long keepAliveNanos) throws InterruptedException {
        lock.lock();
        try {
            long left = keepAliveNanos;
            while (true) {
                if (a.superseded) {
                    return new Next.End();
                }
                Event e = a.stream.events.after(a.cursor);
                if (e != null) {
                    return new Next.Send(e);
                }
                if (a.stream.complete && a.stream != standalone || ended) {
                    return new Next.End();
                }
                if (left <= 0) {
                    return new Next.KeepAlive();
                }
                left = a.stream.changed.awaitNanos(left);
            }
        } finally {
            lock.unlock();
        }
    }

    /** The writer of {@code a} has written {@code e} to its client. */
    void delivered(Attachment a, Event e) {
        lock.lock();
        try {
            a.cursor = e.seq;
            if (!e.delivered) {
                e.delivered = true;
                a.stream.deliveredUpTo = Math.max(a.stream.deliveredUpTo, e.seq);
                room.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }

    /** The writer of {@code a} is done (its stream ended, it was superseded, or its client went). */
    void detach(Attachment a) {
        lock.lock();
        try {
            Stream stream = a.stream;
            if (stream.writer == a) {
                stream.writer = null;
                open--;
            } else if (!a.superseded) {
                return;
            }
            room.signalAll();
            dropIfDone(stream);
        } finally {
            lock.unlock();
        }
    }

    /**
     * Waits until every request of a JSON answer's stream is answered (or the session ended),
     * then closes the stream.
     *
     * @return the answers, in the order of the requests (none for a request cancelled meanwhile)
     */
    List<byte[]> awaitAnswers(Stream stream) throws InterruptedException {
        lock.lock();
        try {
            while (!stream.complete) {
                stream.changed.await();
            }
            open--;
            streams.remove(stream.number);
            List<byte[]> out = new ArrayList<>();
            for (byte[] answer : stream.answers.values()) {
                if (answer != null) {
                    out.add(answer);
                }
            }
            return out;
        } finally {
            lock.unlock();
        }
    }

    /** The JSON answer's stream is not waited for any more (its client went): it stops counting as open. */
    void abandon(Stream stream) {
        lock.lock();
        try {
            if (streams.remove(stream.number) != null) {
                open--;
            }
        } finally {
            lock.unlock();
        }
    }

    /** Whether a client is connected or a request waits: the session is in use, whatever the time. */
    boolean busy() {
        lock.lock();
        try {
            return open > 0 || !flights.isEmpty();
        } finally {
            lock.unlock();
        }
    }

    /**
     * The session is over: every request still waiting gets a JSON-RPC error saying {@code
     * why}, every stream ends once its clients have what it holds, and nothing more is routed.
     */
    void end(String why) {
        lock.lock();
        try {
            if (ended) {
                return;
            }
            ending = true;
            for (Flights.Flight f : flights.clear()) {
                byte[] error = ErrorLines.error(f.id(), ErrorLines.UPSTREAM_FAILED, why);
                if (f.stream().sse) {
                    append(f.stream(), error);
                } else {
                    f.stream().answers.put(f.key(), error);
                }
            }
            ended = true;
            for (Stream s : streams.values()) {
                s.complete = true;
                s.changed.signalAll();
            }
            room.signalAll();
        } catch (InterruptedException cannotHappen) {
            // Bounding never waits once the session is ending.
            Thread.currentThread().interrupt();
        } finally {
            lock.unlock();
        }
    }

    private static byte[] trim(byte[] line) {
        int start = 0;
        int end = line.length;
        while (start < end && isSpace(line[start])) {
            start++;
        }
        while (end > start && isSpace(line[end - 1])) {
            end--;
        }
        return start == 0 && end == line.length ? line : Arrays.copyOfRange(line, start, end);
    }

    private static boolean isSpace(byte b) {
        return b == ' ' || b == '\t' || b == '\r' || b == '\n';
    }
}
