package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.LineClassifier;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.InstantSource;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** What a session tells its caller: the result, the listener and the recording sinks, against the session's log. */
class SessionResultTest {
    private static final Duration LIMIT = Duration.ofSeconds(20);
    private static final ShutdownTimings QUICK = new ShutdownTimings(Duration.ofMillis(200), Duration.ofMillis(200));
    private static final Instant START = Instant.parse("2026-09-23T21:20:00.123Z");

    private static byte[] bytes(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    /** Keeps every line and the end, as a harness watching a session would. */
    private static final class Recorded implements SessionListener {
        final List<LogEntry> lines = new CopyOnWriteArrayList<>();
        final List<SessionResult> ends = new CopyOnWriteArrayList<>();

        @Override
        public void line(long tMs, Source from, byte[] line) {
            lines.add(new LogEntry(tMs, from, LineClassifier.classify(line)));
        }

        @Override
        public void ended(SessionResult result) {
            ends.add(result);
        }
    }

    private static SessionResult run(ProxyConfig config, java.io.InputStream in, java.io.OutputStream out) {
        return assertTimeoutPreemptively(LIMIT, () -> Proxy.run(config, in, out));
    }

    private static Path onlyLog(Path dir) throws IOException {
        try (Stream<Path> s = Files.list(dir)) {
            List<Path> logs = s.toList();
            assertEquals(1, logs.size(), logs.toString());
            return logs.getFirst();
        }
    }

    @Test
    void theResultTheListenerAndAMemoryRecordingTellTheSameLinesInTheSameOrderAsTheSessionsLog(@TempDir Path tmp)
            throws Exception {
        Recorded listener = new Recorded();
        MemoryRecording memory = new MemoryRecording();
        // The server greets, echoes each line and says goodbye: server lines before, between
        // and after the client's; one raw, one JSON.
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c",
                        "echo '{\"hello\":1}'; while read -r l; do echo \"$l\"; done; echo bye; exit 4"))
                .record(tmp)
                .recordTo(memory)
                .listener(listener)
                .clock(InstantSource.fixed(START))
                .host(new HostEnvironment("/bin", tmp, "harness-1", -1))
                .build();
        String input = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"ping\"}\nnot json\n{\"jsonrpc\":\"2.0\",\"id\":2}\n";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(config, new ByteArrayInputStream(bytes(input)), out);

        Path file = onlyLog(tmp);
        SessionLog log = SessionLog.read(file);
        assertEquals(8, log.entries().size(), log.toJsonLines());
        assertEquals(log.entries().stream().map(LogEntry::toJson).toList(),
                listener.lines.stream().map(LogEntry::toJson).toList(), "the listener saw the log's lines, t_ms included");
        assertArrayEquals(Files.readAllBytes(file), bytes(memory.sessionLog().toJsonLines()),
                "the memory recording holds the file's bytes");
        assertTrue(memory.closed());

        assertEquals(4, result.exitStatus());
        assertEquals(EndReason.HOST_CLOSED, result.endReason());
        assertNull(result.failure());
        assertEquals(log.session(), result.sessionId());
        assertEquals(file, result.logPath());
        assertEquals(START, result.started());
        assertEquals(new SessionResult.LineCounts(3, 5, 0, 0), result.lines());
        for (Source s : Source.values()) {
            assertEquals(log.entries().stream().filter(e -> e.from() == s).count(), result.lines().of(s), s.wireName());
        }
        assertNotNull(result.timeToFirstServerLine());
        assertTrue(result.timeToFirstServerLine().compareTo(result.duration()) <= 0, result.toString());
        assertEquals(List.of(result), listener.ends, "ended once, with the result run returned");
        assertEquals("{\"hello\":1}\n" + input + "bye\n", out.toString(StandardCharsets.UTF_8));
    }

    @Test
    void aSessionThatRecordsNothingForwardsEveryByteAsItCameAndCountsEveryLine() throws Exception {
        // Nothing recorded: the host's bytes go to the server as they are read, the server's
        // whole lines of each read together. Lines of every length (some longer than a read's
        // buffer), blank lines, bytes of every value, and a last line without a terminator.
        java.util.Random random = new java.util.Random(11);
        ByteArrayOutputStream data = new ByteArrayOutputStream();
        int lines = 0;
        for (int i = 0; i < 3000; i++) {
            int len = random.nextInt(100) == 0 ? random.nextInt(400_000) : random.nextInt(3000);
            for (int j = 0; j < len; j++) {
                int b = random.nextInt(256);
                data.write(b == '\n' ? ' ' : b);
            }
            data.write('\n');
            lines++;
        }
        data.write(bytes("{\"last\":true}"));
        lines++;
        byte[] all = data.toByteArray();
        InputStream trickle = new ByteArrayInputStream(all) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1 + random.nextInt(90_000)));
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).build(), trickle, out);
        assertEquals(0, result.exitStatus());
        assertArrayEquals(all, out.toByteArray(), "the host got back exactly what it sent");
        assertEquals(new SessionResult.LineCounts(lines, lines, 0, 0), result.lines());
        assertNotNull(result.timeToFirstServerLine());
    }

    @Test
    void aServerThatExitsWhileTheHostIsStillOpenEndsTheSessionAsServerExited() throws Exception {
        Recorded listener = new Recorded();
        SessionResult result;
        try (OpenInput in = new OpenInput(new byte[0])) {
            result = run(ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c", "exit 7")).listener(listener).build(),
                    in, new ByteArrayOutputStream());
        }
        assertEquals(7, result.exitStatus());
        assertEquals(EndReason.SERVER_EXITED, result.endReason());
        assertNull(result.logPath());
        assertEquals(new SessionResult.LineCounts(0, 0, 0, 0), result.lines());
        assertNull(result.timeToFirstServerLine(), "the server wrote nothing");
        assertEquals(List.of(result), listener.ends);
    }

    @Test
    void sessionsRecordedOnlyInMemoryInTheSameMillisecondHaveIdsOfTheirOwn() throws Exception {
        ProxyConfig.Builder builder = ProxyConfig.builder(UpstreamSpec.Command.of("true")).clock(InstantSource.fixed(START));
        MemoryRecording first = new MemoryRecording();
        MemoryRecording second = new MemoryRecording();
        SessionResult a = run(builder.recordTo(first).build(), new ByteArrayInputStream(new byte[0]),
                new ByteArrayOutputStream());
        SessionResult b = run(ProxyConfig.builder(UpstreamSpec.Command.of("true")).clock(InstantSource.fixed(START))
                .recordTo(second).build(), new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
        String base = "20260923T212000.123Z-" + ProcessHandle.current().pid() + "-";
        assertTrue(a.sessionId().startsWith(base) && a.sessionId().substring(base.length()).matches("\\d+"), a.sessionId());
        assertTrue(b.sessionId().startsWith(base), b.sessionId());
        assertFalse(a.sessionId().equals(b.sessionId()), "two sessions, one id");
        assertEquals(a.sessionId(), first.header().session());
        assertEquals(b.sessionId(), second.header().session());
    }

    @Test
    void aListenerHeldUpDoesNotHoldUpForwardingAndLosesAndReordersNothing() throws Exception {
        // The host writes the first lines, which the log's queue holds with their echoes, and the
        // rest only once it has their echoes: so forwarding went on while the listener held its
        // first line, whatever the threads' speeds. The rest are more than the queue holds.
        int first = 100;
        int lines = 3000;
        CountDownLatch hostHasFirst = new CountDownLatch(first);
        CountDownLatch go = new CountDownLatch(1);
        List<String> seen = new ArrayList<>();
        SessionListener slow = new SessionListener() {
            @Override
            public void line(long tMs, Source from, byte[] line) {
                if (seen.isEmpty()) {
                    try {
                        go.await();
                    } catch (InterruptedException e) {
                        throw new IllegalStateException(e);
                    }
                }
                seen.add(from.wireName() + " " + new String(line, StandardCharsets.UTF_8));
            }
        };
        StringBuilder input = new StringBuilder();
        for (int i = 0; i < lines; i++) {
            input.append("line ").append(i).append('\n');
        }
        byte[] all = bytes(input.toString());
        int firstBytes = input.indexOf("line " + first + "\n");
        LinkedBlockingQueue<String> received = new LinkedBlockingQueue<>() {
            @Override
            public boolean add(String line) {
                hostHasFirst.countDown();
                return super.add(line);
            }
        };
        LineCollector out = new LineCollector(received);
        java.io.PipedOutputStream host = new java.io.PipedOutputStream();
        java.io.PipedInputStream in = new java.io.PipedInputStream(host, 64 * 1024);
        boolean[] hadFirst = new boolean[1];
        Thread feeder = Thread.ofPlatform().start(() -> {
            try (host) {
                host.write(all, 0, firstBytes);
                host.flush();
                hadFirst[0] = hostHasFirst.await(10, TimeUnit.SECONDS);
                go.countDown();
                host.write(all, firstBytes, all.length - firstBytes);
            } catch (IOException | InterruptedException e) {
                throw new IllegalStateException(e);
            } finally {
                go.countDown();
            }
        });
        SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).listener(slow).build(), in, out);
        feeder.join();
        assertTrue(hadFirst[0], "the host got the first lines while the listener was held up");
        assertEquals(input.toString(), out.toString(StandardCharsets.UTF_8));
        assertEquals(2 * lines, seen.size());
        List<String> client = seen.stream().filter(s -> s.startsWith("client ")).toList();
        List<String> server = seen.stream().filter(s -> s.startsWith("server ")).toList();
        for (int i = 0; i < lines; i++) {
            assertEquals("client line " + i, client.get(i));
            assertEquals("server line " + i, server.get(i));
        }
        assertEquals(new SessionResult.LineCounts(lines, lines, 0, 0), result.lines());
    }

    @Test
    void aListenerThatThrowsGetsNoMoreLinesAndTheSessionAndItsLogGoOn(@TempDir Path tmp) throws Exception {
        List<String> seen = new CopyOnWriteArrayList<>();
        List<SessionResult> ends = new CopyOnWriteArrayList<>();
        SessionListener broken = new SessionListener() {
            @Override
            public void line(long tMs, Source from, byte[] line) {
                seen.add(new String(line, StandardCharsets.UTF_8));
                throw new IllegalStateException("listener bug");
            }

            @Override
            public void ended(SessionResult result) {
                ends.add(result);
                throw new IllegalStateException("another listener bug");
            }
        };
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).record(tmp).listener(broken)
                .build(), new ByteArrayInputStream(bytes("a\nb\nc\n")), out);
        assertEquals("a\nb\nc\n", out.toString(StandardCharsets.UTF_8));
        assertEquals(List.of("a"), seen);
        assertEquals(List.of(result), ends);
        assertEquals(6, SessionLog.read(onlyLog(tmp)).entries().size());
    }

    @Test
    void anInterruptedSessionTellsTheListenerItWasInterruptedAndTheExceptionCarriesTheSameResult() throws Exception {
        Recorded listener = new Recorded();
        LinkedBlockingQueue<String> lines = new LinkedBlockingQueue<>();
        OpenInput in = new OpenInput(bytes("hello\n"));
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("cat")).shutdown(QUICK).listener(listener)
                .build();
        java.util.concurrent.CompletableFuture<Throwable> thrown = new java.util.concurrent.CompletableFuture<>();
        Thread runner = Thread.ofPlatform().start(() -> {
            try {
                Proxy.run(config, in, new LineCollector(lines));
                thrown.complete(null);
            } catch (Throwable t) {
                thrown.complete(t);
            }
        });
        assertEquals("hello", lines.poll(10, TimeUnit.SECONDS));
        runner.interrupt();
        Throwable e = thrown.get(10, TimeUnit.SECONDS);
        in.close();
        assertEquals(1, listener.ends.size());
        SessionResult result = listener.ends.getFirst();
        assertEquals(EndReason.INTERRUPTED, result.endReason());
        assertEquals(130, result.exitStatus());
        assertEquals(ServerEnd.TERMINATED, result.serverEnd(), "the proxy ended cat with SIGTERM");
        assertEquals(new SessionResult.LineCounts(1, 1, 0, 0), result.lines());
        assertSame(result, assertInstanceOf(SessionInterruptedException.class, e).result(),
                "what the listener got, the thrown exception carries");
    }

    @Test
    void aSinkThatRefusesTheSessionStopsItBeforeTheServerStartsAndLeavesNoLog(@TempDir Path tmp) throws Exception {
        Path marker = tmp.resolve("started");
        RecordingSink refuses = new RecordingSink() {
            @Override
            public void open(LogHeader header) throws IOException {
                throw new IOException("store offline");
            }

            @Override
            public void entry(LogEntry entry) {
            }

            @Override
            public void close() {
            }

            @Override
            public String toString() {
                return "the harness store";
            }
        };
        Path logs = tmp.resolve("logs");
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("touch", marker.toString()))
                .record(logs).recordTo(refuses).build();
        ProxyStartException e = assertThrows(ProxyStartException.class,
                () -> Proxy.run(config, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()));
        assertEquals("cannot start recording to the harness store: store offline", e.getMessage());
        assertFalse(Files.exists(marker), "the server was started");
        try (Stream<Path> s = Files.list(logs)) {
            assertEquals(List.of(), s.toList(), "a log was left behind");
        }
    }

    @Test
    void aSinkThatFailsMidSessionIsDroppedWhileTheLogFileAndTheOtherSinksGoOn(@TempDir Path tmp) throws Exception {
        MemoryRecording memory = new MemoryRecording();
        List<String> closed = new CopyOnWriteArrayList<>();
        RecordingSink failing = new RecordingSink() {
            private int entries;

            @Override
            public void open(LogHeader header) {
            }

            @Override
            public void entry(LogEntry entry) throws IOException {
                if (++entries == 2) {
                    throw new IOException("store full");
                }
            }

            @Override
            public void close() {
                closed.add("closed");
            }
        };
        SessionResult result = run(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).record(tmp).recordTo(failing)
                .recordTo(memory).build(), new ByteArrayInputStream(bytes("a\nb\nc\n")), new ByteArrayOutputStream());
        assertEquals(0, result.exitStatus());
        assertEquals(List.of("closed"), closed);
        assertEquals(Files.readString(onlyLog(tmp)), memory.sessionLog().toJsonLines());
        assertEquals(6, memory.entries().size());
        assertSame(EndReason.HOST_CLOSED, result.endReason());
    }
}
