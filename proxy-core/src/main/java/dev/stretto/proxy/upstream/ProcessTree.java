package dev.stretto.proxy.upstream;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * A child process and every descendant seen while it ran. Descendants are remembered when
 * they are signalled, because once the child is gone its orphans can no longer be found
 * through it; ending the tree forcibly then still reaches them. Thread-safe.
 */
final class ProcessTree {
    private final ProcessHandle root;
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

    ProcessTree(ProcessHandle root) {
        this.root = root;
    }

    /** The child and its descendants now alive, remembered for later. */
    private List<ProcessHandle> members() {
        root.descendants().forEach(seen::add);
        List<ProcessHandle> all = new ArrayList<>();
        all.add(root);
        for (ProcessHandle h : seen) {
            if (h.isAlive()) {
                all.add(h);
            }
        }
        return all;
    }

    /** Asks the whole tree to end (SIGTERM on POSIX). */
    void terminate() {
        // The descendants are collected before any signal, so the order does not decide who
        // is reached. The child goes first: its status then tells of the signal, not of a
        // shell that exited normally because its own child was killed a moment earlier.
        members().forEach(ProcessHandle::destroy);
    }

    /** Ends the whole tree at once (SIGKILL on POSIX). */
    void kill() {
        members().forEach(ProcessHandle::destroyForcibly);
    }

    /** True when the child and every remembered descendant have ended within {@code timeout}. */
    boolean awaitAllExited(Duration timeout) throws InterruptedException {
        List<ProcessHandle> all = new ArrayList<>(seen);
        all.add(root);
        CompletableFuture<?>[] exits = all.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new);
        try {
            CompletableFuture.allOf(exits).get(timeout.toNanos(), TimeUnit.NANOSECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (ExecutionException e) {
            return all.stream().noneMatch(ProcessHandle::isAlive);
        }
    }

    /** Whether anything of the tree is still alive. */
    boolean anyAlive() {
        return root.isAlive() || seen.stream().anyMatch(ProcessHandle::isAlive);
    }
}
