package dev.stretto.proxy.scope;

import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Factories of virtual threads named {@code <prefix><n>}, n counting from 0, for thread dumps.
 * Not {@code Thread.ofVirtual().name(prefix, 0)}: its counter is a {@code VarHandle} whose
 * first use generates method-handle classes that no start-up cache can hold, on every start
 * (measured: six classes, with the class-file library and a compilation of its own behind them).
 */
public final class VirtualThreads {

    private VirtualThreads() {
    }

    /** A factory of unstarted virtual threads named {@code prefix} and a number. */
    public static ThreadFactory named(String prefix) {
        AtomicLong next = new AtomicLong();
        return task -> Thread.ofVirtual().name(prefix + next.getAndIncrement()).unstarted(task);
    }
}
