package dev.stretto.cli;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * Ends the server and everything it started when the proxy itself is told to stop (the
 * host sends the proxy SIGTERM or SIGINT, as MCP hosts do a moment after closing its stdin).
 * Without this, a server that ignores its closed stdin would outlive the proxy as an orphan.
 * It runs as a JVM shutdown hook, so it also runs after a normal session, when there is
 * nothing left to end.
 */
final class ServerTreeGuard implements Runnable {
    private final long termGraceMillis;

    ServerTreeGuard(long termGraceMillis) {
        this.termGraceMillis = termGraceMillis;
    }

    /** Installs the guard for this process. */
    static void install() {
        Runtime.getRuntime().addShutdownHook(new Thread(new ServerTreeGuard(1000), "stretto-server-tree-guard"));
    }

    @Override
    public void run() {
        List<ProcessHandle> tree = ProcessHandle.current().descendants().toList();
        if (tree.isEmpty()) {
            return;
        }
        tree.forEach(ProcessHandle::destroy);
        if (!awaitExit(tree)) {
            tree.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
            awaitExit(tree);
        }
    }

    private boolean awaitExit(List<ProcessHandle> tree) {
        try {
            CompletableFuture.allOf(tree.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
                    .get(termGraceMillis, TimeUnit.MILLISECONDS);
            return true;
        } catch (Exception e) {
            // Not all ended in time, or the wait was cut short.
            return false;
        }
    }
}
