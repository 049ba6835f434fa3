package dev.stretto.proxy.upstream;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.ServerStderr;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

class ChildProcessUpstreamTest {
    private static final ShutdownTimings QUICK = new ShutdownTimings(Duration.ofMillis(200), Duration.ofMillis(200));

    /** A child's output is read by a thread of the upstream's own: it hands off no work. */
    private static final java.util.concurrent.Executor NO_WORK = task -> {
        throw new AssertionError("a child server's upstream handed off work");
    };

    /** A child that runs {@code argv} with the proxy's environment, directory and stderr. */
    private static ChildProcessUpstream child(String searchPath, String... argv) {
        return new ChildProcessUpstream(List.of(argv), Map.of(), null, ServerStderr.inherit(), searchPath, QUICK,
                new ChildReaper());
    }

    private final BlockingQueue<String> fromServer = new LinkedBlockingQueue<>();

    private ChildProcessUpstream start(String script) throws Exception {
        ChildProcessUpstream up = child("/usr/bin:/bin", "sh", "-c", script);
        up.start((line, newline) -> fromServer.add(new String(line, StandardCharsets.UTF_8)), NO_WORK);
        return up;
    }

    private static CompletableFuture<Integer> awaitEndAsync(Upstream up) {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        Thread.ofVirtual().start(() -> {
            try {
                status.complete(up.awaitEnd());
            } catch (Throwable t) {
                status.completeExceptionally(t);
            }
        });
        return status;
    }

    private String nextLine() throws InterruptedException {
        String line = fromServer.poll(10, TimeUnit.SECONDS);
        assertNotNull(line, "the server wrote nothing within 10 s");
        return line;
    }

    private static void assertGone(long pid) throws Exception {
        var handle = ProcessHandle.of(pid);
        if (handle.isPresent()) {
            handle.get().onExit().get(10, TimeUnit.SECONDS);
            assertFalse(handle.get().isAlive(), "process " + pid + " outlived the session");
        }
    }

    @Test
    void theLadderEndsAServerAndItsDescendantsThatIgnoreClosedStdinAndSigterm() throws Exception {
        ChildProcessUpstream up = start("trap '' TERM; sleep 1000 & echo $!; wait");
        try {
            CompletableFuture<Integer> status = awaitEndAsync(up);
            long sleepPid = Long.parseLong(nextLine().trim());
            assertTrue(up.handle().descendants().anyMatch(h -> h.pid() == sleepPid), "sleep is not the server's child");
            up.endOfInput();
            assertEquals(128 + 9, status.get(10, TimeUnit.SECONDS), "status should say SIGKILL ended the server");
            assertGone(sleepPid);
            assertFalse(up.handle().isAlive());
        } finally {
            up.abort();
        }
    }

    @Test
    void aServerThatClosesItsOutputButKeepsRunningIsStoppedToo() throws Exception {
        ChildProcessUpstream up = start("trap '' TERM; exec >&-; sleep 1000");
        try {
            CompletableFuture<Integer> status = awaitEndAsync(up);
            assertEquals(128 + 9, status.get(10, TimeUnit.SECONDS));
            assertFalse(up.handle().isAlive());
        } finally {
            up.abort();
        }
    }

    @Test
    void aServerThatHonoursSigtermEndsWithItsSignalStatus() throws Exception {
        ChildProcessUpstream up = start("sleep 1000 & wait");
        try {
            CompletableFuture<Integer> status = awaitEndAsync(up);
            up.endOfInput();
            assertEquals(128 + 15, status.get(10, TimeUnit.SECONDS));
        } finally {
            up.abort();
        }
    }

    @Test
    void exitStatusIsTheServersOwnOr128PlusTheSignal() throws Exception {
        assertEquals(3, awaitEndAsync(start("exit 3")).get(10, TimeUnit.SECONDS));
        assertEquals(128 + 9, awaitEndAsync(start("kill -KILL $$")).get(10, TimeUnit.SECONDS));
        assertEquals(128 + 15, awaitEndAsync(start("kill -TERM $$")).get(10, TimeUnit.SECONDS));
    }

    @Test
    void aServerThatExitsOnClosedStdinNeedsNoSignal() throws Exception {
        ChildProcessUpstream up = start("cat; echo done; exit 4");
        CompletableFuture<Integer> status = awaitEndAsync(up);
        up.send("x".getBytes(StandardCharsets.UTF_8), true);
        assertEquals("x", nextLine());
        up.endOfInput();
        assertEquals(4, status.get(10, TimeUnit.SECONDS));
        assertEquals("done", nextLine());
    }

    @Test
    void aCommandThatIsNotFoundNamesTheCommandAndThePathSearched() {
        ChildProcessUpstream up = child("/nowhere/bin:/also/not", "stretto-no-such-server", "--x");
        UpstreamStartException e = assertThrows(UpstreamStartException.class, () -> up.start((l, n) -> {
        }, NO_WORK));
        assertEquals("cannot start the server: command not found: stretto-no-such-server"
                + " (searched PATH=/nowhere/bin:/also/not)", e.getMessage());
    }

    @Test
    void aMissingPathIsNamedAsAFile() {
        ChildProcessUpstream up = child("/bin", "/nowhere/server");
        UpstreamStartException e = assertThrows(UpstreamStartException.class, () -> up.start((l, n) -> {
        }, NO_WORK));
        assertEquals("cannot start the server: no such file: /nowhere/server", e.getMessage());
    }
}
