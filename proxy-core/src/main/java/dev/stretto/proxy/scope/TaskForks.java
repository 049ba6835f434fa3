package dev.stretto.proxy.scope;

import java.time.Duration;
import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

/**
 * A scope of forks that threads which do not own it hand work to: the active-mode actor's slow
 * work (a question to a remote model), the upstream's own (each HTTP exchange). It runs each
 * task in a fork of a scope nested in this loop's, since only a scope's owner may fork into
 * it; {@link #call()} is that loop, itself a fork of the session's scope (or of a scope nested
 * in it). Whoever has work hands it over with {@link #execute}, which never blocks.
 *
 * <p>Its owner may wait for the work it handed over ({@link #awaitIdle}: every task handed in
 * has ended) and count what is still open ({@link #open()}), and give up on it ({@link
 * #cancel()}): the nested scope is cancelled, which interrupts the tasks still running, and the
 * loop ends once they have returned. When the scope it is forked in ends and interrupts the
 * loop, the same happens. A task handed in after that is dropped.
 *
 * <p>Queue policy: unbounded, because no one who hands work over may wait here; what bounds
 * it is theirs: the actor's budget of slow work (one task per question, and questions are
 * counted), and for an HTTP upstream the host's requests, one exchange each.
 */
public final class TaskForks implements Callable<Void>, Executor {
    // Handed in by cancel(): the loop stops at it.
    private static final Runnable STOP = () -> {
    };

    private final String name;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    private final ReentrantLock lock = new ReentrantLock();
    private final Condition idle = lock.newCondition();
    // Guarded by lock: tasks handed in that have not ended, and whether tasks are still taken.
    private int open;
    private boolean stopped;
    // Read by the joiner on the threads of finished tasks.
    private volatile boolean stopping;

    /** A loop whose forks are virtual threads named {@code name-<n>}. */
    public TaskForks(String name) {
        this.name = name;
    }

    /** Hands {@code task} over, to run in a fork of its own; never blocks. It must not throw. */
    @Override
    public void execute(Runnable task) {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            open++;
        } finally {
            lock.unlock();
        }
        tasks.add(task);
    }

    /**
     * Waits up to {@code timeout} until every task handed in so far has ended.
     *
     * @return true when they have; false when the time ran out first
     */
    public boolean awaitIdle(Duration timeout) throws InterruptedException {
        long left = timeout.toNanos();
        lock.lockInterruptibly();
        try {
            while (open > 0) {
                if (left <= 0) {
                    return false;
                }
                left = idle.awaitNanos(left);
            }
            return true;
        } finally {
            lock.unlock();
        }
    }

    /** How many tasks handed in have not ended yet. */
    public int open() {
        lock.lock();
        try {
            return open;
        } finally {
            lock.unlock();
        }
    }

    /**
     * Gives up on the work: no task is taken any more, those still running are interrupted, and
     * the loop ends once they have returned.
     */
    public void cancel() {
        lock.lock();
        try {
            if (stopped) {
                return;
            }
            stopped = true;
        } finally {
            lock.unlock();
        }
        tasks.add(STOP);
    }

    /** The loop: forks each task handed in, until cancelled or interrupted. */
    @Override
    public Void call() throws InterruptedException {
        Joiner<Object, Void> untilStopped = new Joiner<>() {
            @Override
            public boolean onComplete(Subtask<?> subtask) {
                return stopping;
            }

            @Override
            public Void result() {
                return null;
            }
        };
        InterruptedException interrupted = null;
        try (var scope = StructuredTaskScope.open(untilStopped,
                cf -> cf.withName(name).withThreadFactory(VirtualThreads.named(name + "-")))) {
            try {
                Runnable task;
                while ((task = tasks.take()) != STOP) {
                    Runnable run = task;
                    scope.fork(() -> {
                        try {
                            run.run();
                        } finally {
                            ended(1);
                        }
                        return null;
                    });
                }
            } catch (InterruptedException ending) {
                interrupted = ending;
            }
            // One more task that ends at once makes the joiner cancel the scope, which
            // interrupts the tasks still running; join then returns, and closing the scope waits
            // for them.
            stopping = true;
            scope.fork(() -> null);
            scope.join();
        } finally {
            // What was handed in and never forked will not run.
            lock.lock();
            try {
                stopped = true;
            } finally {
                lock.unlock();
            }
            int dropped = 0;
            for (Runnable left : tasks) {
                dropped += left == STOP ? 0 : 1;
            }
            tasks.clear();
            ended(dropped);
        }
        if (interrupted != null) {
            throw interrupted;
        }
        return null;
    }

    private void ended(int n) {
        if (n == 0) {
            return;
        }
        lock.lock();
        try {
            open -= n;
            if (open == 0) {
                idle.signalAll();
            }
        } finally {
            lock.unlock();
        }
    }
}
