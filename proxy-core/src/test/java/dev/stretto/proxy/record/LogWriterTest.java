package dev.stretto.proxy.record;

import static java.util.concurrent.TimeUnit.SECONDS;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.io.Line;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LogWriterTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Path NAME = Path.of("test.jsonl");

    private static Line line(String s) {
        return new Line(s.getBytes(StandardCharsets.UTF_8), true);
    }

    private static List<JsonNode> entries(ByteArrayOutputStream out) throws IOException {
        List<JsonNode> nodes = new ArrayList<>();
        for (String l : out.toString(StandardCharsets.UTF_8).split("\n")) {
            if (!l.isEmpty()) {
                nodes.add(JSON.readTree(l));
            }
        }
        return nodes;
    }

    /** A byte sink whose content can be read while the writer thread writes. */
    private static final class SyncBytes extends ByteArrayOutputStream {
        @Override
        public synchronized String toString(java.nio.charset.Charset cs) {
            return super.toString(cs);
        }
    }

    @Test
    void entriesAreWrittenInRecordOrderWithTimesThatNeverDecrease() throws Exception {
        SyncBytes out = new SyncBytes();
        AtomicLong nanos = new AtomicLong();
        // Each read of the clock moves it on by 0.4 ms, so stamps differ and collide in turn.
        LogWriter w = new LogWriter(NAME, out, () -> nanos.addAndGet(400_000), 0, 8, () -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        Thread[] producers = new Thread[2];
        for (int p = 0; p < 2; p++) {
            Source from = p == 0 ? Source.CLIENT : Source.SERVER;
            producers[p] = Thread.ofVirtual().start(() -> {
                for (int i = 0; i < 500; i++) {
                    try {
                        w.record(from, line("{\"n\":" + i + "}"));
                    } catch (InterruptedException e) {
                        throw new AssertionError(e);
                    }
                }
            });
        }
        for (Thread t : producers) {
            assertTrue(t.join(java.time.Duration.ofSeconds(10)), "producer did not finish");
        }
        w.close();
        assertTrue(writer.join(java.time.Duration.ofSeconds(10)), "writer did not finish after close");

        List<JsonNode> entries = entries(out);
        assertEquals(1000, entries.size());
        long last = -1;
        int[] next = {0, 0};
        for (JsonNode e : entries) {
            long t = e.get("t_ms").asLong();
            assertTrue(t >= last, "t_ms decreased: " + t + " after " + last);
            last = t;
            int who = e.get("from").asText().equals("client") ? 0 : 1;
            assertEquals(next[who]++, e.get("message").get("n").asInt(), "lines of one thread out of order");
        }
        assertEquals(entries.size() * 400_000L / 1_000_000, last, 1);
    }

    @Test
    void aLineIsFlushedAsSoonAsTheQueueIsEmpty() throws Exception {
        SyncBytes out = new SyncBytes();
        Semaphore flushed = new Semaphore(0);
        LogWriter w = new LogWriter(NAME, out, System::nanoTime, System.nanoTime(), 8, flushed::release);
        Thread writer = Thread.ofVirtual().start(w::call);
        try {
            w.record(Source.CLIENT, line("not json"));
            // The writer may also flush once before it sees the line (its queue starts empty):
            // wait for the flush that follows the line, each flush giving one permit.
            List<JsonNode> entries = entries(out);
            while (entries.isEmpty()) {
                assertTrue(flushed.tryAcquire(10, SECONDS), "no flush after a line");
                entries = entries(out);
            }
            assertEquals(1, entries.size(), "line not on disk before close");
            assertEquals("not json", entries.get(0).get("raw").asText());
            assertEquals("client", entries.get(0).get("from").asText());
        } finally {
            w.close();
            writer.join();
        }
    }

    @Test
    void closeDrainsEverythingQueuedEvenWhenTheWriterIsInterrupted() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch firstFlush = new CountDownLatch(1);
        LogWriter w = new LogWriter(NAME, out, System::nanoTime, System.nanoTime(), 64, () -> {
            firstFlush.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        w.record(Source.SERVER, line("{\"n\":0}"));
        assertTrue(firstFlush.await(10, SECONDS), "writer never flushed");
        for (int i = 1; i < 50; i++) {
            w.record(Source.SERVER, line("{\"n\":" + i + "}"));
        }
        writer.interrupt();
        w.close();
        w.record(Source.SERVER, line("{\"after\":\"close\"}"));
        release.countDown();
        assertTrue(writer.join(java.time.Duration.ofSeconds(10)), "writer did not finish");
        List<JsonNode> entries = entries(out);
        assertEquals(50, entries.size());
        for (int i = 0; i < 50; i++) {
            assertEquals(i, entries.get(i).get("message").get("n").asInt());
        }
    }

    @Test
    void aFullQueueMakesTheRecorderWaitAndDropsNothing() throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        CountDownLatch release = new CountDownLatch(1);
        CountDownLatch blocked = new CountDownLatch(1);
        LogWriter w = new LogWriter(NAME, out, System::nanoTime, System.nanoTime(), 2, () -> {
            blocked.countDown();
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        w.record(Source.CLIENT, line("0"));
        assertTrue(blocked.await(10, SECONDS));
        CountDownLatch producerDone = new CountDownLatch(1);
        Thread producer = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 1; i < 20; i++) {
                    w.record(Source.CLIENT, line(Integer.toString(i)));
                }
            } catch (InterruptedException e) {
                throw new AssertionError(e);
            }
            producerDone.countDown();
        });
        assertFalse(producerDone.await(200, java.util.concurrent.TimeUnit.MILLISECONDS),
                "recording went on past a full queue");
        release.countDown();
        assertTrue(producerDone.await(10, SECONDS), "producer still waiting after the writer caught up");
        producer.join();
        w.close();
        writer.join();
        List<JsonNode> entries = entries(out);
        assertEquals(20, entries.size());
        for (int i = 0; i < 20; i++) {
            assertEquals(i, entries.get(i).get("message").asInt());
        }
    }

    @Test
    void aListenerThatThrowsAnErrorGetsNoMoreLinesAndNeitherTheRecordersNorCloseEverWait() throws Exception {
        // An Error (a failed assertion in a harness's listener, say) used to end the writer's
        // thread: the queue filled, and the recorders, then close(), waited for room forever.
        List<String> heard = new CopyOnWriteArrayList<>();
        dev.stretto.proxy.SessionListener failing = new dev.stretto.proxy.SessionListener() {
            @Override
            public void line(long tMs, Source from, byte[] line) {
                heard.add(new String(line, StandardCharsets.UTF_8));
                throw new AssertionError("listener bug");
            }
        };
        dev.stretto.proxy.MemoryRecording memory = new dev.stretto.proxy.MemoryRecording();
        LogWriter w = new LogWriter(List.of(memory), failing, System::nanoTime, System.nanoTime(), List.of());
        Thread writer = Thread.ofVirtual().start(w::call);
        int lines = 3 * LogWriter.DEFAULT_CAPACITY;
        Thread recorder = Thread.ofPlatform().start(() -> {
            try {
                for (int i = 0; i < lines; i++) {
                    w.record(Source.CLIENT, line("\"" + i + "\""));
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
            w.close();
        });
        assertTrue(recorder.join(java.time.Duration.ofSeconds(10)), "a recorder or close() waits for room");
        assertTrue(writer.join(java.time.Duration.ofSeconds(10)), "the writer never returned");
        assertEquals(List.of("\"0\""), heard);
        assertEquals(lines, memory.entries().size());
        assertTrue(memory.entries().getLast().toJson().endsWith(",\"message\":\"" + (lines - 1) + "\"}"),
                memory.entries().getLast().toJson());
    }

    @Test
    void aBrokenLogNeverStopsTheRecorders() throws Exception {
        AtomicLong writes = new AtomicLong();
        OutputStream broken = new OutputStream() {
            @Override
            public void write(int b) throws IOException {
                writes.incrementAndGet();
                throw new IOException("No space left on device");
            }

            @Override
            public void write(byte[] b, int off, int len) throws IOException {
                writes.incrementAndGet();
                throw new IOException("No space left on device");
            }
        };
        LogWriter w = new LogWriter(NAME, broken, System::nanoTime, System.nanoTime(), 2, () -> {
        });
        Thread writer = Thread.ofVirtual().start(w::call);
        byte[] big = new byte[100_000];
        for (int i = 0; i < 200; i++) {
            w.record(Source.SERVER, new Line(big, true));
        }
        w.close();
        assertTrue(writer.join(java.time.Duration.ofSeconds(10)), "writer stuck on a broken log");
        assertEquals(1, writes.get(), "writer kept writing to a broken log");
    }

    @Test
    void linesWaitingForTheDiskAreBoundedByBytesTooAndNoneIsDropped() throws Exception {
        SyncBytes out = new SyncBytes();
        // Room for 1024 lines but only 10 bytes: the second 8-byte line must wait for the writer.
        List<String> said = new CopyOnWriteArrayList<>();
        LogWriter w = new LogWriter(NAME, out, System::nanoTime, System.nanoTime(), 1024, 10, () -> {
        }, said::add, said::add);
        w.record(Source.CLIENT, line("\"first\""));
        Thread second = Thread.ofVirtual().start(() -> {
            try {
                w.record(Source.SERVER, line("\"again\""));
                w.record(Source.SERVER, line("\"a line bigger than the whole budget\""));
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        while (second.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() < deadline, "the second recorder never waited for room; state " + second.getState());
            Thread.onSpinWait();
        }
        assertTrue(second.isAlive(), "the recorder waits while the budget is spent");
        Thread writer = Thread.ofVirtual().start(w::call);
        assertTrue(second.join(java.time.Duration.ofSeconds(10)), "the recorder went on once the writer drained");
        w.close();
        assertTrue(writer.join(java.time.Duration.ofSeconds(10)));
        List<JsonNode> e = entries(out);
        assertEquals(List.of("\"first\"", "\"again\"", "\"a line bigger than the whole budget\""),
                e.stream().map(n -> n.get("message").toString()).toList());
        assertEquals(List.of("the session log test.jsonl is falling behind (slow disk?); forwarding waits for it,"
                + " nothing is dropped"), said, "a wait of a second or more is a stall, reported once");
    }

    @Test
    void aFullDiskIsReportedOnceAsWhatItIsAndNotFirstAsASlowDisk() throws Exception {
        List<String> said = new CopyOnWriteArrayList<>();
        // /dev/full fails every write with ENOSPC, as a full file system does.
        LogWriter w = new LogWriter(NAME, new FileOutputStream("/dev/full"), System::nanoTime, System.nanoTime(), 2,
                LogWriter.DEFAULT_BYTE_BUDGET, () -> {
                }, m -> said.add("warn: " + m), m -> said.add("error: " + m));
        byte[] big = new byte[100_000];
        java.util.Arrays.fill(big, (byte) 'a');
        // The queue fills before the writer runs, and the next recorder has to wait for it.
        w.record(Source.SERVER, new Line(big, true));
        w.record(Source.SERVER, new Line(big, true));
        Thread producer = Thread.ofVirtual().start(() -> {
            try {
                for (int i = 0; i < 50; i++) {
                    w.record(Source.SERVER, new Line(big, true));
                }
            } catch (InterruptedException e) {
                throw new IllegalStateException(e);
            }
        });
        long deadline = System.nanoTime() + SECONDS.toNanos(10);
        while (producer.getState() != Thread.State.TIMED_WAITING && producer.getState() != Thread.State.WAITING) {
            assertTrue(System.nanoTime() < deadline, "the recorder never waited; state " + producer.getState());
            Thread.onSpinWait();
        }
        Thread writer = Thread.ofVirtual().start(w::call);
        assertTrue(producer.join(java.time.Duration.ofSeconds(10)), "the recorder was left waiting on a full disk");
        w.close();
        assertTrue(writer.join(java.time.Duration.ofSeconds(10)), "the writer did not finish");
        assertEquals(List.of("error: cannot write the session log test.jsonl (No space left on device); forwarding"
                + " goes on, the rest of the session is not recorded"), said);
    }
}
