package dev.stretto.proxy.session;

import dev.stretto.proxy.active.ActiveSession;
import java.util.concurrent.Callable;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * Where the active-mode actor's slow work runs (a question to a remote model): in forks of a
 * scope nested in this fork of the session's scope, since only a scope's owner may fork into
 * it. The actor hands tasks over with {@link #fork}, which never blocks; this loop forks each.
 * When the session ends and interrupts the loop, the nested scope is cancelled, which
 * interrupts the tasks still running, and closed once they have returned.
 *
 * <p>Queue policy: unbounded, because the actor must never wait here; what bounds it is the
 * actor's own budget of slow work (one task per question, and questions are counted).
 */
final class TaskForks implements Callable<Void>, ActiveSession.Forker {
    private final String name;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    // Read by the joiner on the threads of finished tasks.
    private volatile boolean stopping;

    TaskForks(String name) {
        this.name = name;
    }

    @Override
    public void fork(Runnable task) {
        tasks.add(task);
    }

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
        try (var scope = StructuredTaskScope.open(untilStopped,
                cf -> cf.withName(name).withThreadFactory(Thread.ofVirtual().name(name + "-", 0).factory()))) {
            try {
                while (true) {
                    Runnable task = tasks.take();
                    scope.fork(() -> {
                        task.run();
                        return null;
                    });
                }
            } catch (InterruptedException ending) {
                // One more task that ends at once makes the joiner cancel the scope, which
                // interrupts the tasks still running; join then returns.
                stopping = true;
                scope.fork(() -> null);
                scope.join();
                throw ending;
            }
        }
    }
}
