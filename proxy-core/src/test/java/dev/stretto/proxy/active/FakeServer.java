package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.fail;

import dev.stretto.proxy.ServerEnd;
import dev.stretto.proxy.upstream.ServerLineSink;
import dev.stretto.proxy.upstream.Upstream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A server inside the test: what the proxy sends it is queued for the test to read, and it
 * says what the test tells it to. It can stop reading its input, and exit with a status.
 * (The one part of these tests that is not real: the timing cases need a server the test
 * steps by hand.)
 */
final class FakeServer implements Upstream {
    private final BlockingQueue<String> received = new LinkedBlockingQueue<>();
    private final CompletableFuture<Integer> exit = new CompletableFuture<>();
    final CompletableFuture<Void> inputEnded = new CompletableFuture<>();
    private final CompletableFuture<ServerLineSink> sink = new CompletableFuture<>();
    private volatile CountDownLatch stalled;

    @Override
    public void start(ServerLineSink toHost, java.util.concurrent.Executor work) {
        sink.complete(toHost);
    }

    @Override
    public void send(byte[] line, boolean newline) throws InterruptedException {
        CountDownLatch s = stalled;
        if (s != null) {
            s.await();
        }
        received.add(new String(line, StandardCharsets.UTF_8));
    }

    @Override
    public void endOfInput() {
        inputEnded.complete(null);
    }

    @Override
    public int awaitEnd() throws Exception {
        return exit.get();
    }

    @Override
    public void abort() {
        exit.complete(137);
    }

    @Override
    public ServerEnd serverEnd() {
        return ServerEnd.FINISHED;
    }

    /** The server writes {@code line} (once the session has started it). */
    void say(String line) {
        try {
            sink.get(LiveHost.WAIT_S, TimeUnit.SECONDS).line(line.getBytes(StandardCharsets.UTF_8), true);
        } catch (Exception e) {
            throw new AssertionError("the session did not start its server", e);
        }
    }

    /** The server exits with {@code status} (after what it said). */
    void exit(int status) {
        exit.complete(status);
    }

    /** The next line the server read. */
    String next() throws InterruptedException {
        String l = received.poll(LiveHost.WAIT_S, TimeUnit.SECONDS);
        if (l == null) {
            fail("the server got nothing within " + LiveHost.WAIT_S + " s");
        }
        return l;
    }

    /** The next line the server read, if one comes within {@code ms}. */
    String poll(long ms) throws InterruptedException {
        return received.poll(ms, TimeUnit.MILLISECONDS);
    }

    /** The server stops reading its input until {@link #readAgain()}. */
    void stopReading() {
        stalled = new CountDownLatch(1);
    }

    void readAgain() {
        CountDownLatch s = stalled;
        stalled = null;
        if (s != null) {
            s.countDown();
        }
    }
}
