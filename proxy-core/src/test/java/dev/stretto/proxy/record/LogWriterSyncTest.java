package dev.stretto.proxy.record;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.RecordingSink;
import dev.stretto.proxy.io.Line;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Source;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The log writer with {@code --record-sync}: a line's forwarder goes on only once every sink has synced it. */
class LogWriterSyncTest {
    private static final Duration LIMIT = Duration.ofSeconds(10);

    private static Line line(String s) {
        return new Line(s.getBytes(StandardCharsets.UTF_8), true);
    }

    /**
     * A sink that keeps its entries and counts its syncs and flushes; while {@code hold} is
     * closed, each sync waits for it, after saying on {@code syncing} how many entries it had.
     */
    private static final class GatedSink implements RecordingSink {
        final List<String> entries = new CopyOnWriteArrayList<>();
        final BlockingQueue<Integer> syncing = new LinkedBlockingQueue<>();
        final AtomicInteger syncs = new AtomicInteger();
        final AtomicInteger flushes = new AtomicInteger();
        volatile CountDownLatch hold = new CountDownLatch(0);
        volatile IOException failSync;

        @Override
        public void open(LogHeader header) {
        }

        @Override
        public void entry(LogEntry entry) {
            entries.add(entry.toJson());
        }

        @Override
        public void flush() {
            flushes.incrementAndGet();
        }

        @Override
        public void sync() throws IOException {
            syncs.incrementAndGet();
            syncing.add(entries.size());
            try {
                hold.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            if (failSync != null) {
                throw failSync;
            }
        }

        @Override
        public void close() {
        }
    }

    private static Thread awaitInBackground(LogWriter w, long mark) {
        return Thread.ofPlatform().start(() -> {
            try {
                w.awaitDurable(mark);
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
        });
    }

    @Test
    void aLinesForwarderWaitsUntilTheSinkHasSyncedIt() throws Exception {
        GatedSink sink = new GatedSink();
        sink.hold = new CountDownLatch(1);
        LogWriter w = new LogWriter(List.of(sink), 64, true, message -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        try {
            assertTrue(w.syncs());
            assertTrue(w.record(Source.CLIENT, line("{\"n\":1}")));
            long mark = w.mark();
            assertEquals(1, mark);
            Thread forwarder = awaitInBackground(w, mark);
            // The writer has given the sink the line and is syncing it: the line is not durable
            // until that returns, so its forwarder still waits.
            assertEquals(1, sink.syncing.poll(10, SECONDS), "no sync after the line");
            assertFalse(w.isDurable(mark));
            assertTrue(forwarder.isAlive(), "the forwarder went on before the sync returned");
            sink.hold.countDown();
            assertTrue(forwarder.join(LIMIT), "the forwarder still waits after the sync");
            assertTrue(w.isDurable(mark));
        } finally {
            sink.hold.countDown();
            w.close();
            assertTrue(writer.join(LIMIT));
        }
    }

    @Test
    void linesQueuedTogetherAreSyncedTogether() throws Exception {
        GatedSink sink = new GatedSink();
        sink.hold = new CountDownLatch(1);
        LogWriter w = new LogWriter(List.of(sink), 64, true, message -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        try {
            w.record(Source.CLIENT, line("\"first\""));
            assertEquals(1, sink.syncing.poll(10, SECONDS));
            // While the first line is being synced, ten more are queued, by two threads.
            for (int i = 0; i < 5; i++) {
                w.record(Source.CLIENT, line("\"c" + i + "\""));
                w.record(Source.SERVER, line("\"s" + i + "\""));
            }
            long mark = w.mark();
            assertEquals(11, mark);
            sink.hold.countDown();
            w.awaitDurable(mark);
            assertEquals(2, sink.syncs.get(), "the ten lines queued together took one sync");
            assertEquals(11, sink.syncing.poll(10, SECONDS), "the second sync came after all ten lines");
        } finally {
            sink.hold.countDown();
            w.close();
            assertTrue(writer.join(LIMIT));
        }
        assertEquals(11, sink.entries.size());
    }

    @Test
    void aGroupEndsAtTheQueuesCapacityEvenWhileLinesKeepComing() throws Exception {
        GatedSink sink = new GatedSink();
        sink.hold = new CountDownLatch(1);
        LogWriter w = new LogWriter(List.of(sink), 4, true, message -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        try {
            w.record(Source.CLIENT, line("0"));
            assertEquals(1, sink.syncing.poll(10, SECONDS));
            // The queue (4 lines) fills while the first sync is held; a recorder then waits for
            // room, so the writer always finds lines queued: the group ends after 4 all the same.
            Thread recorder = Thread.ofPlatform().start(() -> {
                try {
                    for (int i = 1; i <= 12; i++) {
                        w.record(Source.CLIENT, line(Integer.toString(i)));
                    }
                } catch (InterruptedException e) {
                    throw new AssertionError(e);
                }
            });
            sink.hold.countDown();
            assertTrue(recorder.join(LIMIT));
            w.awaitDurable(w.mark());
            List<Integer> sizes = List.copyOf(sink.syncing);
            for (int i = 0; i < sizes.size(); i++) {
                int before = i == 0 ? 1 : sizes.get(i - 1);
                assertTrue(sizes.get(i) - before <= 4, "a group of more than 4 lines: " + sizes);
            }
        } finally {
            sink.hold.countDown();
            w.close();
            assertTrue(writer.join(LIMIT));
        }
        assertEquals(13, sink.entries.size());
    }

    @Test
    void withoutSyncNothingWaitsAndSinksAreOnlyFlushed() throws Exception {
        GatedSink sink = new GatedSink();
        sink.hold = new CountDownLatch(1);
        LogWriter w = new LogWriter(List.of(sink), 64, false, message -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        w.record(Source.CLIENT, line("1"));
        assertFalse(w.syncs());
        assertEquals(0, w.mark());
        assertTrue(w.isDurable(Long.MAX_VALUE));
        w.awaitDurable(Long.MAX_VALUE);
        w.close();
        assertTrue(writer.join(LIMIT));
        assertEquals(0, sink.syncs.get());
        assertTrue(sink.flushes.get() >= 1);
    }

    @Test
    void aSinkWhoseSyncFailsIsReportedOnceAndNobodyWaitsForIt() throws Exception {
        GatedSink failing = new GatedSink();
        failing.failSync = new IOException("Input/output error");
        GatedSink other = new GatedSink();
        List<String> errors = new CopyOnWriteArrayList<>();
        LogWriter w = new LogWriter(List.of(failing, other), 64, true, errors::add);
        Thread writer = Thread.ofVirtual().start(w::call);
        try {
            w.record(Source.CLIENT, line("1"));
            w.awaitDurable(w.mark());
            w.record(Source.CLIENT, line("2"));
            w.awaitDurable(w.mark());
        } finally {
            w.close();
            assertTrue(writer.join(LIMIT));
        }
        assertEquals(1, failing.syncs.get(), "a failed sink is synced no more");
        assertEquals(List.of("1"), failing.entries.stream().map(e -> e.substring(e.lastIndexOf(':') + 1,
                e.length() - 1)).toList());
        assertEquals(2, other.entries.size());
        assertEquals(2, other.syncs.get());
        assertEquals(1, errors.size(), errors.toString());
        assertTrue(errors.getFirst().contains("Input/output error"), errors.getFirst());
    }

    @Test
    void onceTheWriterHasEndedNobodyWaits() throws Exception {
        GatedSink sink = new GatedSink();
        LogWriter w = new LogWriter(List.of(sink), 64, true, message -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        w.record(Source.CLIENT, line("1"));
        w.close();
        assertTrue(writer.join(LIMIT));
        // A line the recorder no longer takes, and any mark at all: nothing is left to wait for.
        assertFalse(w.record(Source.CLIENT, line("2")));
        assertTrue(w.isDurable(Long.MAX_VALUE));
        Thread forwarder = awaitInBackground(w, Long.MAX_VALUE);
        assertTrue(forwarder.join(LIMIT));
        assertEquals(1, sink.entries.size());
    }
}
