package dev.stretto.proxy.listen;

import dev.stretto.proxy.ListenConfig;
import dev.stretto.proxy.ListenSession;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ProxyStartException;
import dev.stretto.proxy.SessionInterruptedException;
import dev.stretto.proxy.SessionResult;
import dev.stretto.proxy.logging.Logger;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * One HTTP session while its proxy session runs: the session on a virtual thread of its own,
 * the host's side fed by the HTTP exchanges ({@link HostFeed}), its output routed by the
 * {@link Outbox}. A DELETE or its idle time closes the host's side, which ends the session as
 * a host closing stdin does (the server's stdin closed, then the shutdown ladder); the
 * listener's stop interrupts it, as a signal stops the stdio proxy. When the session ends, the
 * requests still waiting get an error saying so.
 */
final class LiveSession {

    final ListenSession info;
    final Outbox outbox;
    private final HostFeed feed = new HostFeed();
    private final ServerOutput output;
    private final CountDownLatch done = new CountDownLatch(1);
    private volatile Thread thread;
    private volatile long lastUsed = System.nanoTime();

    LiveSession(ListenSession info, ListenConfig.Limits limits) {
        this.info = info;
        this.outbox = new Outbox(limits.maxStreams(), limits.replayEvents(), limits.replayBytes());
        this.output = new ServerOutput(line -> {
            try {
                outbox.route(line);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        });
    }

    /**
     * Starts the session and returns once its server runs: {@code started} has then run on the
     * session's thread, and {@code ended} runs there too once the session is over (only for a
     * session that started).
     *
     * @throws ProxyStartException when the session could not start; nothing of it is left
     */
    void start(SessionRunner runner, ProxyConfig config, Runnable started, Consumer<SessionResult> ended)
            throws ProxyStartException, InterruptedException {
        CompletableFuture<Void> running = new CompletableFuture<>();
        thread = Thread.ofVirtual().name("stretto-listen-" + info.name())
                .start(Logger.carry(() -> run(runner, config, () -> {
                    started.run();
                    running.complete(null);
                }, running, ended)));
        try {
            running.get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof ProxyStartException failure) {
                throw failure;
            }
            throw new ProxyStartException("the session could not start: " + e.getCause(), e.getCause());
        }
    }

    private void run(SessionRunner runner, ProxyConfig config, Runnable started, CompletableFuture<Void> running,
                     Consumer<SessionResult> ended) {
        SessionResult result = null;
        try {
            result = runner.run(config, info.name(), feed, output, started);
        } catch (ProxyStartException e) {
            running.completeExceptionally(e);
        } catch (SessionInterruptedException e) {
            result = e.result();
        } catch (RuntimeException | Error e) {
            running.completeExceptionally(e);
            Logger.error("session {} failed: {}", info.name(), e);
        } finally {
            outbox.end(why(result));
            feed.release();
            done.countDown();
            if (running.isDone() && !running.isCompletedExceptionally() && result != null) {
                ended.accept(result);
            }
        }
    }

    private static String why(SessionResult result) {
        if (result == null) {
            return "the session failed before the server answered";
        }
        return switch (result.endReason()) {
            case HOST_CLOSED -> "the session was ended before the server answered";
            case SERVER_EXITED -> "the server exited (status " + result.exitStatus() + ") before it answered";
            case INTERRUPTED -> "the proxy stopped before the server answered";
            case FAILED -> "the session failed before the server answered";
        };
    }

    /**
     * One line from the host for the server, waiting while the server is behind.
     *
     * @return false when the session no longer takes lines (it has been ended)
     */
    boolean send(byte[] line) throws InterruptedException {
        touch();
        return feed.put(line);
    }

    /** A request of the host's used the session now. */
    void touch() {
        lastUsed = System.nanoTime();
    }

    /** Whether no request has used the session for {@code idle}, and none waits for an answer. */
    boolean idleFor(Duration idle) {
        return System.nanoTime() - lastUsed >= idle.toNanos() && !outbox.busy();
    }

    /** Ends the session as a host closing its side does (DELETE, idle time). */
    void close() {
        feed.close();
    }

    /** Stops the session as a signal stops the stdio proxy: the log written out, the server ended. */
    void stop() {
        Thread t = thread;
        if (t != null) {
            t.interrupt();
        }
    }

    /** Waits up to {@code timeout} for the session to be over; true when it is. */
    boolean awaitEnd(Duration timeout) throws InterruptedException {
        return done.await(timeout.toNanos(), TimeUnit.NANOSECONDS);
    }
}
