package dev.stretto.proxy.active;

import dev.stretto.proxy.io.Line;
import dev.stretto.proxy.record.Recorder;
import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.util.ArrayList;
import java.util.List;

/** A session log kept in memory: each line classified as the log writer would, with its stamp. */
final class MemoryLog implements Recorder {
    static final LogHeader HEADER = LogHeader.of("20260101T000000.000Z-1", 1767225600000L, List.of("server"), "retail",
            null, null);

    private final List<LogEntry> entries = new ArrayList<>();

    @Override
    public synchronized boolean record(Source from, Line line) {
        throw new AssertionError("active mode stamps every line it records");
    }

    @Override
    public synchronized boolean record(Source from, Line line, long tMs) {
        if (!entries.isEmpty() && entries.getLast().tMs() > tMs) {
            throw new AssertionError("t_ms went back from " + entries.getLast().tMs() + " to " + tMs);
        }
        entries.add(new LogEntry(tMs, from, LineClassifier.classify(line.bytes())));
        notifyAll();
        return true;
    }

    /** Waits until an entry that {@code wanted} accepts has been recorded; fails the test after a while. */
    synchronized LogEntry await(java.util.function.Predicate<LogEntry> wanted, String what) throws InterruptedException {
        long deadline = System.nanoTime() + java.util.concurrent.TimeUnit.SECONDS.toNanos(LiveHost.WAIT_S);
        while (true) {
            for (LogEntry e : entries) {
                if (wanted.test(e)) {
                    return e;
                }
            }
            long left = deadline - System.nanoTime();
            if (left <= 0) {
                throw new AssertionError("never logged: " + what);
            }
            java.util.concurrent.TimeUnit.NANOSECONDS.timedWait(this, left);
        }
    }

    /** Waits until the message {@code json} has been logged from {@code from}. */
    LogEntry awaitMessage(Source from, String json) throws InterruptedException {
        return await(e -> e.from() == from && e.payload() instanceof dev.stretto.trace.log.Payload.Message m
                && m.json().equals(json), from.wireName() + " " + json);
    }

    @Override
    public void close() {
    }

    /** The log so far. */
    synchronized SessionLog snapshot() {
        return new SessionLog(HEADER, entries);
    }
}
