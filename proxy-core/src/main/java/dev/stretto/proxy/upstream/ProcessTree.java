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
 * A child process and every descendant seen while it ran, and, when this JVM is a child
 * subreaper, the processes re-parented to it (the ones a server left behind when their parent
 * exited). Descendants are remembered when they are signalled, because once the child is gone
 * its orphans can no longer be found through it; ending the tree forcibly then still reaches
 * them. Thread-safe.
 */
final class ProcessTree {
    private final ProcessHandle root;
    private final Subreaper subreaper;
    private final Set<ProcessHandle> seen = ConcurrentHashMap.newKeySet();

    ProcessTree(ProcessHandle root, Subreaper subreaper) {
        this.root = root;
        this.subreaper = subreaper;
    }

    /** The child and its descendants now alive, remembered for later. */
    private List<ProcessHandle> members() {
        root.descendants().forEach(seen::add);
        seen.addAll(subreaper.orphans());
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

    /**
     * Ends whatever is left of the tree: SIGTERM to every member still alive, and SIGKILL to
     * those still alive {@code termGrace} later. Returns at once when nothing is left.
     */
    void end(Duration termGrace) throws InterruptedException {
        List<ProcessHandle> alive = members().stream().filter(ProcessHandle::isAlive).toList();
        if (alive.isEmpty()) {
            return;
        }
        alive.forEach(ProcessHandle::destroy);
        if (!awaitAllExited(termGrace)) {
            kill();
        }
    }
}
