package dev.stretto.proxy.scope;

import java.util.concurrent.Callable;
import java.util.concurrent.Executor;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.StructuredTaskScope;
import java.util.concurrent.StructuredTaskScope.Joiner;
import java.util.concurrent.StructuredTaskScope.Subtask;

/**
 * Where work a session's parts hand off runs: the active-mode actor's slow work (a question to
 * a remote model) and the upstream's own (each HTTP exchange). It runs in forks of a scope
 * nested in this fork of the session's scope, since only a scope's owner may fork into it. The
 * actor hands tasks over with {@link #fork}, the upstream with {@link #execute}; neither
 * blocks, and this loop forks each.
 * When the session ends and interrupts the loop, the nested scope is cancelled, which
 * interrupts the tasks still running, and closed once they have returned.
 *
 * <p>Queue policy: unbounded, because neither the actor nor the upstream's caller may wait
 * here; what bounds it is their own: the actor's budget of slow work (one task per question,
 * and questions are counted), and for an HTTP upstream the host's requests, one exchange each.
 */
public final class TaskForks implements Callable<Void>, Executor {
    private final String name;
    private final LinkedBlockingQueue<Runnable> tasks = new LinkedBlockingQueue<>();
    // Read by the joiner on the threads of finished tasks.
    private volatile boolean stopping;

    public TaskForks(String name) {
        this.name = name;
    }

    @Override
    public void execute(Runnable task) {
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
