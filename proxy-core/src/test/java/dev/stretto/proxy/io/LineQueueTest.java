package dev.stretto.proxy.io;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The one bounded line queue: its bound, its two policies, and how it ends. */
class LineQueueTest {
    private static final long WAIT_S = 10;

    private static Line line(String text) {
        return new Line(text.getBytes(StandardCharsets.UTF_8), true);
    }

    private static LineQueue<Line> queue(LineQueue.Bound bound, LineQueue.Policy policy, Runnable onTaken) {
        return new LineQueue<>(bound, policy, Line::length, onTaken);
    }

    /** Runs {@code put} on a thread of its own; the future completes with its result. */
    private static CompletableFuture<Boolean> putAsync(LineQueue<Line> q, Line l) {
        CompletableFuture<Boolean> done = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> done.complete(q.put(l)));
        return done;
    }

    /** Waits until {@code thread} waits (parked), failing loudly after a while. */
    private static void awaitWaiting(Thread thread) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(WAIT_S);
        while (thread.getState() != Thread.State.WAITING && thread.getState() != Thread.State.TIMED_WAITING) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("the thread never waited: " + thread.getState());
            }
            Thread.onSpinWait();
        }
    }

    @Test
    void aWaitingPutWaitsForRoomByLinesAndTheTakerLetsItIn() throws Exception {
        LineQueue<Line> q = queue(new LineQueue.Bound(2, 1000), LineQueue.Policy.WAIT, () -> { });
        assertTrue(q.put(line("a")));
        assertTrue(q.put(line("b")));
        assertFalse(q.hasRoom());
        CompletableFuture<Boolean> third = new CompletableFuture<>();
        Thread producer = Thread.ofPlatform().start(() -> third.complete(q.put(line("c"))));
        awaitWaiting(producer);
        assertFalse(third.isDone(), "the third line waits for room");
        assertEquals("a", new String(q.take().bytes(), StandardCharsets.UTF_8));
        assertTrue(third.get(WAIT_S, TimeUnit.SECONDS));
        assertEquals("b", new String(q.take().bytes(), StandardCharsets.UTF_8));
        assertEquals("c", new String(q.take().bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void theByteBudgetBoundsTooAndALineLargerThanItGetsIntoAnEmptyQueue() throws Exception {
        LineQueue<Line> q = queue(new LineQueue.Bound(64, 10), LineQueue.Policy.WAIT, () -> { });
        assertTrue(q.put(line("x".repeat(25))), "larger than the budget, into an empty queue");
        assertFalse(q.hasRoom());
        CompletableFuture<Boolean> next = new CompletableFuture<>();
        Thread producer = Thread.ofPlatform().start(() -> next.complete(q.put(line("y"))));
        awaitWaiting(producer);
        assertEquals(25, q.take().length());
        assertTrue(next.get(WAIT_S, TimeUnit.SECONDS));
        assertTrue(q.hasRoom());
        assertTrue(q.put(line("123456789")));
        assertFalse(q.hasRoom(), "1 + 9 bytes: the budget is reached");
    }

    @Test
    void aGatingPutNeverWaitsGoesOverTheBoundAndHasRoomSaysSoUntilTheTakerMadeRoom() throws Exception {
        AtomicInteger taken = new AtomicInteger();
        LineQueue<Line> q = queue(new LineQueue.Bound(2, 1000), LineQueue.Policy.GATE, taken::incrementAndGet);
        for (int i = 0; i < 5; i++) {
            assertTrue(q.put(line("l" + i)));
        }
        assertFalse(q.hasRoom());
        assertEquals(5, q.pending());
        for (int i = 0; i < 3; i++) {
            q.take();
            assertFalse(q.hasRoom(), "still " + (4 - i) + " lines");
        }
        q.take();
        assertTrue(q.hasRoom());
        assertEquals(4, taken.get(), "onTaken runs after each take");
    }

    @Test
    void addGoesInWhateverTheBound() throws Exception {
        LineQueue<Line> q = queue(new LineQueue.Bound(1, 1000), LineQueue.Policy.WAIT, () -> { });
        assertTrue(q.put(line("a")));
        assertTrue(q.add(line("end")));
        assertEquals("a", new String(q.take().bytes(), StandardCharsets.UTF_8));
        assertEquals("end", new String(q.take().bytes(), StandardCharsets.UTF_8));
    }

    @Test
    void releaseLetsWaitingAndLaterPutsGoWithoutTheirLinesAndKeepsWhatIsQueued() throws Exception {
        LineQueue<Line> q = queue(new LineQueue.Bound(1, 1000), LineQueue.Policy.WAIT, () -> { });
        assertTrue(q.put(line("kept")));
        CompletableFuture<Boolean> waiting = new CompletableFuture<>();
        Thread producer = Thread.ofPlatform().start(() -> waiting.complete(q.put(line("w"))));
        awaitWaiting(producer);
        q.release();
        assertFalse(waiting.get(WAIT_S, TimeUnit.SECONDS));
        assertEquals("kept", new String(q.take().bytes(), StandardCharsets.UTF_8));
        assertFalse(q.put(line("later")), "not queued, though there is room");
        assertEquals(0, q.pending() - 1, "only the line taken is held");
    }

    @Test
    void anInterruptedPutDropsItsLineAndKeepsItsInterruptStatus() throws Exception {
        LineQueue<Line> q = queue(new LineQueue.Bound(1, 1000), LineQueue.Policy.WAIT, () -> { });
        q.put(line("full"));
        CompletableFuture<Boolean> result = new CompletableFuture<>();
        CompletableFuture<Boolean> stillInterrupted = new CompletableFuture<>();
        Thread producer = Thread.ofPlatform().start(() -> {
            result.complete(q.put(line("x")));
            stillInterrupted.complete(Thread.currentThread().isInterrupted());
        });
        awaitWaiting(producer);
        producer.interrupt();
        assertFalse(result.get(WAIT_S, TimeUnit.SECONDS));
        assertTrue(stillInterrupted.get(WAIT_S, TimeUnit.SECONDS));
        q.take();
        assertTrue(q.isEmpty(), "the interrupted line is not in the queue");
    }

    @Test
    void theTakerHoldsWhatItTookUntilItComesBackSoCaughtUpMeansHandled() throws Exception {
        LineQueue<Line> q = queue(LineQueue.Bound.SIDE, LineQueue.Policy.WAIT, () -> { });
        assertTrue(q.awaitCaughtUp(0), "nothing ever queued");
        q.put(line("a"));
        assertFalse(q.awaitCaughtUp(TimeUnit.MILLISECONDS.toNanos(20)));
        q.take();
        assertEquals(1, q.pending(), "taken but still held");
        assertFalse(q.awaitCaughtUp(TimeUnit.MILLISECONDS.toNanos(20)), "the taker has not come back");
        CountDownLatch back = new CountDownLatch(1);
        Thread taker = Thread.ofPlatform().start(() -> {
            back.countDown();
            q.takeUninterruptibly();
        });
        assertTrue(back.await(WAIT_S, TimeUnit.SECONDS));
        assertTrue(q.awaitCaughtUp(TimeUnit.SECONDS.toNanos(WAIT_S)), "the taker came back and waits for more");
        assertEquals(0, q.pending());
        q.close();
        taker.join(Duration.ofSeconds(WAIT_S));
        assertFalse(taker.isAlive(), "a taker waiting when the queue closes gets null and returns");
    }

    @Test
    void closeDropsWhatIsQueuedReleasesProducersAndHasRoomThen() throws Exception {
        LineQueue<Line> q = queue(new LineQueue.Bound(1, 1000), LineQueue.Policy.WAIT, () -> { });
        q.put(line("a"));
        CompletableFuture<Boolean> waiting = new CompletableFuture<>();
        Thread producer = Thread.ofPlatform().start(() -> waiting.complete(q.put(line("b"))));
        awaitWaiting(producer);
        q.close();
        assertFalse(waiting.get(WAIT_S, TimeUnit.SECONDS));
        assertTrue(q.hasRoom(), "nothing is kept any more: no gate should hold anyone back");
        assertNull(q.take());
        assertFalse(q.put(line("c")));
        assertFalse(q.add(line("d")));
    }

    @Test
    void queuesSharingALockLetOneTakerWaitForAll() throws Exception {
        java.util.concurrent.locks.ReentrantLock lock = new java.util.concurrent.locks.ReentrantLock();
        java.util.concurrent.locks.Condition arrived = lock.newCondition();
        LineQueue<Line> a = new LineQueue<>(LineQueue.Bound.SIDE, LineQueue.Policy.WAIT, Line::length, lock, arrived);
        LineQueue<Line> b = new LineQueue<>(LineQueue.Bound.SIDE, LineQueue.Policy.WAIT, Line::length, lock, arrived);
        CompletableFuture<String> got = new CompletableFuture<>();
        Thread taker = Thread.ofPlatform().start(() -> {
            lock.lock();
            try {
                Line l;
                while ((l = a.poll()) == null && (l = b.poll()) == null) {
                    arrived.awaitUninterruptibly();
                }
                got.complete(new String(l.bytes(), StandardCharsets.UTF_8));
            } finally {
                lock.unlock();
            }
        });
        awaitWaiting(taker);
        assertTrue(putAsync(b, line("from b")).get(WAIT_S, TimeUnit.SECONDS));
        assertEquals("from b", got.get(WAIT_S, TimeUnit.SECONDS));
    }
}
