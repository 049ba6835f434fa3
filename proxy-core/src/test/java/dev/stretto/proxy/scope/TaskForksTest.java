package dev.stretto.proxy.scope;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The scope of forks that other threads hand work to: where tasks run, waiting for them, giving up on them. */
class TaskForksTest {
    private static final long WAIT_S = 10;

    /** Runs the loop on a virtual thread; the future completes when it returns (or with what it threw). */
    private static CompletableFuture<Void> run(TaskForks forks) {
        CompletableFuture<Void> ended = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                forks.call();
                ended.complete(null);
            } catch (Throwable t) {
                ended.completeExceptionally(t);
            }
        });
        return ended;
    }

    @Test
    void eachTaskRunsOnAVirtualThreadNamedForTheScopeAndTheOwnerWaitsForThemAll() throws Exception {
        TaskForks forks = new TaskForks("test-forks");
        CompletableFuture<Void> loop = run(forks);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<Thread> ranOn = new CompletableFuture<>();
        forks.execute(() -> {
            ranOn.complete(Thread.currentThread());
            try {
                release.await();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
        assertEquals(1, forks.open(), "counted from the moment it is handed in");
        Thread thread = ranOn.get(WAIT_S, TimeUnit.SECONDS);
        assertTrue(thread.isVirtual());
        assertTrue(thread.getName().startsWith("test-forks-"), thread.getName());
        assertFalse(forks.awaitIdle(Duration.ofMillis(20)), "the task still runs");
        release.countDown();
        assertTrue(forks.awaitIdle(Duration.ofSeconds(WAIT_S)));
        assertEquals(0, forks.open());
        forks.cancel();
        loop.get(WAIT_S, TimeUnit.SECONDS);
    }

    @Test
    void cancellingInterruptsTheTasksStillRunningEndsTheLoopAndDropsLaterTasks() throws Exception {
        TaskForks forks = new TaskForks("test-forks");
        CompletableFuture<Void> loop = run(forks);
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        forks.execute(() -> {
            started.countDown();
            try {
                new CountDownLatch(1).await();
                interrupted.complete(false);
            } catch (InterruptedException e) {
                interrupted.complete(true);
            }
        });
        assertTrue(started.await(WAIT_S, TimeUnit.SECONDS));
        forks.cancel();
        assertTrue(interrupted.get(WAIT_S, TimeUnit.SECONDS));
        loop.get(WAIT_S, TimeUnit.SECONDS);
        AtomicBoolean ran = new AtomicBoolean();
        forks.execute(() -> ran.set(true));
        assertEquals(0, forks.open(), "a task handed in after the end is dropped, not counted");
        assertTrue(forks.awaitIdle(Duration.ZERO));
        assertFalse(ran.get());
    }

    @Test
    void anInterruptedLoopGivesUpOnItsTasksAndSaysSo() throws Exception {
        TaskForks forks = new TaskForks("test-forks");
        CompletableFuture<Thread> owner = new CompletableFuture<>();
        CompletableFuture<Throwable> ended = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            owner.complete(Thread.currentThread());
            try {
                forks.call();
                ended.complete(null);
            } catch (Throwable t) {
                ended.complete(t);
            }
        });
        CountDownLatch started = new CountDownLatch(1);
        CompletableFuture<Boolean> interrupted = new CompletableFuture<>();
        forks.execute(() -> {
            started.countDown();
            try {
                Thread.sleep(Duration.ofSeconds(WAIT_S * 10));
                interrupted.complete(false);
            } catch (InterruptedException e) {
                interrupted.complete(true);
            }
        });
        assertTrue(started.await(WAIT_S, TimeUnit.SECONDS));
        owner.get(WAIT_S, TimeUnit.SECONDS).interrupt();
        assertTrue(interrupted.get(WAIT_S, TimeUnit.SECONDS));
        assertTrue(ended.get(WAIT_S, TimeUnit.SECONDS) instanceof InterruptedException);
        assertTrue(forks.awaitIdle(Duration.ofSeconds(WAIT_S)));
    }
}
