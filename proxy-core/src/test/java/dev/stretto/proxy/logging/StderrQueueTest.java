package dev.stretto.proxy.logging;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class StderrQueueTest {

    /** A stderr whose writes block, once {@link #block()} was called, until {@link #release()}. */
    private static final class StuckStderr extends OutputStream {
        private final ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        private final CountDownLatch entered = new CountDownLatch(1);
        private final CountDownLatch released = new CountDownLatch(1);
        private volatile boolean blocking;

        void block() {
            blocking = true;
        }

        void release() {
            blocking = false;
            released.countDown();
        }

        void awaitBlockedWrite() throws InterruptedException {
            assertTrue(entered.await(10, TimeUnit.SECONDS), "the writer never tried to write");
        }

        @Override
        public void write(int b) {
            write(new byte[] {(byte) b}, 0, 1);
        }

        @Override
        public void write(byte[] b, int off, int len) {
            if (blocking) {
                entered.countDown();
                try {
                    released.await();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            }
            synchronized (bytes) {
                bytes.write(b, off, len);
            }
        }

        List<String> lines() {
            synchronized (bytes) {
                return bytes.toString(StandardCharsets.UTF_8).lines().toList();
            }
        }
    }

    @Test
    void aStderrThatTakesNothingNeverHoldsUpTheSpeakerAndTheDroppedAreCountedWhereTheyWere() throws Exception {
        StuckStderr err = new StuckStderr();
        PrintStream stream = new PrintStream(err, false, StandardCharsets.UTF_8);
        StderrQueue queue = new StderrQueue(() -> stream, 3);
        err.block();
        queue.offer("first");
        err.awaitBlockedWrite();
        // The writer is stuck in "first": three wait, and the next five find the queue full.
        assertTimeoutPreemptively(Duration.ofSeconds(5), () -> {
            for (int i = 1; i <= 8; i++) {
                queue.offer("m" + i);
            }
        }, "saying a message waited for stderr");
        assertFalse(queue.flush(Duration.ofMillis(200)), "the flush ends when stderr takes nothing");
        err.release();
        assertTrue(queue.flush(Duration.ofSeconds(10)));
        assertEquals(List.of("stretto-proxy: first", "stretto-proxy: m1", "stretto-proxy: m2", "stretto-proxy: m3",
                "stretto-proxy: 5 of the proxy's messages were dropped here: stderr was full"), err.lines());

        queue.offer("after");
        assertTrue(queue.flush(Duration.ofSeconds(10)));
        assertEquals("stretto-proxy: after", err.lines().getLast(), "once stderr takes lines, nothing is dropped");
    }

    @Test
    void aMessageQueuedAfterADropCarriesTheCountBeforeIt() throws Exception {
        StuckStderr err = new StuckStderr();
        PrintStream stream = new PrintStream(err, false, StandardCharsets.UTF_8);
        StderrQueue queue = new StderrQueue(() -> stream, 1);
        err.block();
        queue.offer("first");
        err.awaitBlockedWrite();
        queue.offer("queued");
        queue.offer("dropped");
        err.release();
        assertTrue(queue.flush(Duration.ofSeconds(10)));
        queue.offer("late");
        assertTrue(queue.flush(Duration.ofSeconds(10)));
        assertEquals(List.of("stretto-proxy: first", "stretto-proxy: queued",
                "stretto-proxy: 1 of the proxy's messages was dropped here: stderr was full", "stretto-proxy: late"),
                err.lines());
    }

    @Test
    void linesGoToTheStreamInEffectWhenEachIsWrittenEachInOneWrite() throws Exception {
        List<String> writes = new ArrayList<>();
        OutputStream recording = new OutputStream() {
            @Override
            public void write(int b) {
                throw new AssertionError("a line went out byte by byte");
            }

            @Override
            public void write(byte[] b, int off, int len) {
                synchronized (writes) {
                    writes.add(new String(b, off, len, StandardCharsets.UTF_8));
                }
            }
        };
        PrintStream[] target = {new PrintStream(recording, false, StandardCharsets.UTF_8)};
        StderrQueue queue = new StderrQueue(() -> target[0], 16);
        queue.offer("caf\u00e9 is open");
        queue.offer("a stack trace\n\tat somewhere");
        assertTrue(queue.flush(Duration.ofSeconds(10)));
        synchronized (writes) {
            assertEquals(List.of("stretto-proxy: caf\u00e9 is open\n", "stretto-proxy: a stack trace\n\tat somewhere\n"),
                    writes);
        }
        ByteArrayOutputStream other = new ByteArrayOutputStream();
        target[0] = new PrintStream(other, false, StandardCharsets.UTF_8);
        queue.offer("elsewhere");
        assertTrue(queue.flush(Duration.ofSeconds(10)));
        assertEquals("stretto-proxy: elsewhere\n", other.toString(StandardCharsets.UTF_8));
    }

    @Test
    void anIdleQueueFlushesAtOnce() {
        StderrQueue queue = new StderrQueue(() -> new PrintStream(OutputStream.nullOutputStream()), 4);
        assertTrue(queue.flush(Duration.ZERO), "nothing queued, nothing to wait for");
    }
}
