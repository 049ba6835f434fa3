package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.SessionLog;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A server in the same JVM ({@link UpstreamSpec.Streams}): the cases a child server has, with the same outcomes. */
class InProcessServerTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final ShutdownTimings QUICK = new ShutdownTimings(Duration.ofMillis(200), Duration.ofMillis(200));

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static SessionResult run(ProxyConfig config, InputStream in, ByteArrayOutputStream out) {
        return assertTimeoutPreemptively(LIMIT, () -> Proxy.run(config, in, out));
    }

    private static SessionLog onlyLog(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> logs = s.toList();
            assertEquals(1, logs.size(), logs.toString());
            return SessionLog.read(logs.getFirst());
        }
    }

    @Test
    void anInProcessEchoServerGivesBackExactlyTheBytesItGot() throws Exception {
        byte[] input = ProxyTest.awkwardInput();
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(ProxyConfig.builder(InProcessServer.echo().spec("echo")).build(),
                new ByteArrayInputStream(input), out);
        assertEquals(0, result.exitStatus());
        assertEquals(EndReason.HOST_CLOSED, result.endReason());
        assertArrayEquals(input, out.toByteArray());
    }

    @Test
    void theLogOfAnInProcessSessionHoldsWhatTheSameSessionThroughCatLogs(@TempDir Path tmp) throws Exception {
        byte[] input = ProxyTest.awkwardInput();
        ByteArrayOutputStream viaChild = new ByteArrayOutputStream();
        run(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).record(tmp.resolve("child")).build(),
                new ByteArrayInputStream(input), viaChild);
        ByteArrayOutputStream inProcess = new ByteArrayOutputStream();
        run(ProxyConfig.builder(InProcessServer.echo().spec("echo --token sk-1234567890abcdefghij"))
                        .record(tmp.resolve("in-process")).build(), new ByteArrayInputStream(input), inProcess);
        assertArrayEquals(viaChild.toByteArray(), inProcess.toByteArray());

        SessionLog child = onlyLog(tmp.resolve("child"));
        SessionLog streams = onlyLog(tmp.resolve("in-process"));
        assertEquals(List.of("echo --token <redacted>"), streams.header().serverCommand());
        // Client and server lines interleave as they were read; each side's own order is the wire's.
        for (var from : dev.stretto.trace.log.Source.values()) {
            assertEquals(payloads(child, from), payloads(streams, from), from.wireName());
        }
        assertEquals(16, streams.entries().size());
    }

    private static List<String> payloads(SessionLog log, dev.stretto.trace.log.Source from) {
        return log.entries().stream().filter(e -> e.from() == from).map(LogEntry::payload).map(Object::toString).toList();
    }

    @Test
    void outputTheServerWritesAfterTheHostsEndStillReachesTheHost() throws Exception {
        InProcessServer server = InProcessServer.start((in, out) -> {
            in.transferTo(out);
            out.write(bytes("bye\n"));
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(ProxyConfig.builder(server.spec("s")).build(), new ByteArrayInputStream(bytes("a\n")),
                out);
        assertEquals("a\nbye\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(EndReason.HOST_CLOSED, result.endReason());
        assertEquals(0, result.exitStatus());
    }

    @Test
    void aServerWhoseOutputEndsFirstEndsTheSessionWhileTheHostStillHoldsItsInputOpen() throws Exception {
        InProcessServer server = InProcessServer.start((in, out) -> {
            byte[] line = new byte[6];
            assertEquals(6, in.readNBytes(line, 0, 6));
            out.write(bytes("got " + new String(line, StandardCharsets.UTF_8)));
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result;
        try (OpenInput in = new OpenInput(bytes("hello\n"))) {
            result = run(ProxyConfig.builder(server.spec("s")).build(), in, out);
        }
        assertEquals("got hello\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(EndReason.SERVER_EXITED, result.endReason());
        assertEquals(0, result.exitStatus());
    }

    @Test
    void aServerThatKeepsItsOutputOpenAfterItsInputClosedIsGivenUpAfterTheGrace() throws Exception {
        CompletableFuture<IOException> laterWrite = new CompletableFuture<>();
        InProcessServer server = InProcessServer.start((in, out) -> {
            in.transferTo(out);
            // Input ended; the output stays open until the proxy gives up on it.
            try {
                while (true) {
                    out.write(bytes("still here\n"));
                    Thread.sleep(20);
                }
            } catch (IOException e) {
                laterWrite.complete(e);
            }
        });
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(ProxyConfig.builder(server.spec("s")).shutdown(QUICK).build(),
                new ByteArrayInputStream(bytes("a\n")), out);
        assertEquals(EndReason.HOST_CLOSED, result.endReason());
        assertEquals(ServerEnd.CUT_OFF, result.serverEnd(), "the result says the proxy cut the server short");
        assertEquals(0, result.exitStatus());
        assertTrue(out.toString(StandardCharsets.UTF_8).startsWith("a\nstill here\n"), out.toString(StandardCharsets.UTF_8));
        assertTrue(laterWrite.get(10, TimeUnit.SECONDS) != null, "the proxy closed the server's output");
    }

    @Test
    void anInterruptedSessionWithASlowInProcessServerThrowsPromptlyAndClosesTheServersInput() throws Exception {
        CompletableFuture<Integer> afterRequest = new CompletableFuture<>();
        CountDownLatch gotRequest = new CountDownLatch(1);
        InProcessServer server = InProcessServer.start((in, out) -> {
            byte[] request = new byte[4];
            in.readNBytes(request, 0, 4);
            gotRequest.countDown();
            // A slow call: no answer; the next read tells whether the proxy closed our input.
            afterRequest.complete(in.read());
        });
        OpenInput in = new OpenInput(bytes("req\n"));
        CompletableFuture<Throwable> thrown = new CompletableFuture<>();
        Thread runner = Thread.ofPlatform().start(() -> {
            try {
                Proxy.run(ProxyConfig.builder(server.spec("slow")).shutdown(QUICK).build(), in, new ByteArrayOutputStream());
                thrown.complete(null);
            } catch (Throwable t) {
                thrown.complete(t);
            }
        });
        assertTrue(gotRequest.await(10, TimeUnit.SECONDS), "the server never got the request");
        long interrupted = System.nanoTime();
        runner.interrupt();
        assertTrue(thrown.get(10, TimeUnit.SECONDS) instanceof InterruptedException);
        assertTrue(System.nanoTime() - interrupted < TimeUnit.SECONDS.toNanos(3), "took too long to stop");
        in.close();
        assertEquals(-1, afterRequest.get(10, TimeUnit.SECONDS), "the server's input was closed");
    }

    @Test
    void aServerThatStopsReadingLosesTheHostsLinesButTheSessionGoesOnToItsEnd() throws Exception {
        CountDownLatch inputClosed = new CountDownLatch(1);
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        InProcessServer server = InProcessServer.start((in, out) -> {
            in.close();
            inputClosed.countDown();
            out.write(bytes("ready\n"));
            out.flush();
            // Never ends its output by itself: the proxy gives up on it after the grace.
            Thread.sleep(Long.MAX_VALUE);
        });
        OpenInput in = new OpenInput(bytes("lost\n"));
        ProxyConfig config = ProxyConfig.builder(server.spec("deaf")).shutdown(QUICK).build();
        CompletableFuture<SessionResult> result = CompletableFuture.supplyAsync(() -> {
            try {
                return Proxy.run(config, in, new LineCollector(lines));
            } catch (Exception e) {
                throw new IllegalStateException(e);
            }
        }, r -> Thread.ofVirtual().start(r));
        assertTrue(inputClosed.await(10, TimeUnit.SECONDS));
        assertEquals("ready", lines.poll(10, TimeUnit.SECONDS));
        in.close();
        SessionResult r = result.get(10, TimeUnit.SECONDS);
        assertEquals(EndReason.HOST_CLOSED, r.endReason());
        assertEquals(new SessionResult.LineCounts(1, 1, 0, 0), r.lines(), "the host's line is logged, not delivered");
    }

    @Test
    void aBlankNameIsRefusedWhenTheSpecIsMade() throws Exception {
        InProcessServer server = InProcessServer.echo();
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> UpstreamSpec.Streams.of(" ", server.spec("x").fromServer(), server.spec("x").toServer()));
        assertEquals("the in-process server's name is empty", e.getMessage());
    }

    @Test
    void aServerThatThrowsEndsItsOutputAndSoTheSession() throws Exception {
        InProcessServer server = InProcessServer.start((in, out) -> {
            throw new IllegalStateException("server bug");
        });
        SessionResult result;
        try (OpenInput in = new OpenInput(new byte[0])) {
            result = run(ProxyConfig.builder(server.spec("buggy")).build(), in, new ByteArrayOutputStream());
        }
        assertEquals(EndReason.SERVER_EXITED, result.endReason());
        ExecutionException failed = assertThrows(ExecutionException.class, () -> server.done().get(1, TimeUnit.SECONDS));
        assertEquals("server bug", failed.getCause().getMessage());
    }
}
