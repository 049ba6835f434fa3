package dev.stretto.proxy.active;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.guard.Facts;
import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.TimelineBuilder;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Source;
import java.util.function.LongSupplier;

/**
 * The session's record as the actor keeps it: every line stamped and recorded, and the
 * session's episode so far.
 *
 * <p>The actor stamps each line when it takes it, so the log's order is the actor's order and
 * {@code t_ms} never decreases; it records it through the session's gate before the line may be
 * queued for a side (record before forward). When the session stops, the gate takes no more
 * lines: {@link #record} then throws {@link Stopped}, which ends the actor, so that a line
 * forwarded is a line in the log. What plays a part in the episode goes to the session's
 * timeline with the same stamp, exactly as {@code Episode.of} would read it from the log; the
 * policy facts are drawn from it when a check asks. Actor thread only.
 */
final class Ledger {

    /**
     * Thrown through the actor's handlers when the session stops: the recorder took no more
     * lines, or the actor's thread was interrupted while recording ({@code cause}, else null).
     */
    static final class Stopped extends RuntimeException {
        Stopped(InterruptedException cause) {
            super(cause);
        }
    }

    private final Recorder recorder;
    private final LongSupplier ticker;
    private final long startNanos;
    private final TimelineBuilder timeline;
    private final Facts facts = new Facts();
    private long lastTMs;

    /**
     * @param recorder   the session's gate: every line passes it before it is forwarded
     * @param ticker     the clock, in nanoseconds
     * @param startNanos the clock's reading at the session's start: {@code t_ms} counts from it
     * @param header     the session log's header (the episode's id, domain and agent)
     */
    Ledger(Recorder recorder, LongSupplier ticker, long startNanos, LogHeader header) {
        this.recorder = recorder;
        this.ticker = ticker;
        this.startNanos = startNanos;
        this.timeline = new TimelineBuilder(header);
    }

    /** Stamps and records {@code line}; returns its stamp. */
    long record(Source from, Line line) {
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

    /** Stamps and records {@code line}, and adds {@code message} (its tree, or null for none) to the episode. */
    long record(Source from, Line line, JsonNode message) {
        long t = record(from, line);
        episode(t, from, message);
        return t;
    }

    /** Adds {@code message}, a line recorded at {@code t}, to the episode; nothing when it is null. */
    void episode(long t, Source from, JsonNode message) {
        if (message != null) {
            timeline.add(t, from, message);
        }
    }

    /** The log's mark so far: it covers every line recorded ({@link Recorder#mark()}). */
    long mark() {
        return recorder.mark();
    }

    /** The session's episode so far. */
    Episode episode() {
        return timeline.episode();
    }

    /** The policy facts of the session so far. */
    Facts facts() {
        facts.update(timeline.events());
        return facts;
    }

    /**
     * Loads and links what the ledger parses with (the episode's builder, the guards' facts) on
     * a thread of its own while the server starts, so the session's first answers do not wait
     * for it. Touches no state of a session.
     */
    static void warmUp(LogHeader header, JsonNode call) {
        TimelineBuilder scratch = new TimelineBuilder(header);
        scratch.add(0, Source.CLIENT, call);
        new Facts().update(scratch.events());
    }
}
