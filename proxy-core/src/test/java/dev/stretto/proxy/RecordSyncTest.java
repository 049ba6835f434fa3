package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.LogHeader;
import dev.stretto.trace.log.Source;
import java.io.BufferedReader;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Whole sessions with {@link ProxyConfig.Builder#recordSync}: each line reaches the server, or
 * the host, only once the log has synced it. A sink keeps a ledger of the entries it synced;
 * the server (in this JVM, or over HTTP) and the host look each line up in it the moment they
 * get it.
 */
class RecordSyncTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final Pattern N = Pattern.compile("\"n\":(\\d+)");

    private static String start(String line) {
        return line.length() <= 80 ? line : line.substring(0, 80) + "...";
    }

    /** A sink that knows which lines it has synced, by who wrote them and their {@code n}. */
    private static final class Ledger implements RecordingSink {
        // Writer thread only: given, not yet synced.
        private final List<LogEntry> given = new ArrayList<>();
        private final Set<String> synced = ConcurrentHashMap.newKeySet();
        final AtomicInteger syncs = new AtomicInteger();

        @Override
        public void open(LogHeader header) {
        }

        @Override
        public void entry(LogEntry entry) {
            given.add(entry);
        }

        @Override
        public void sync() {
            syncs.incrementAndGet();
            for (LogEntry e : given) {
                Matcher m = N.matcher(e.toJson());
                if (m.find()) {
                    synced.add(e.from().wireName() + ":" + m.group(1));
                }
            }
            given.clear();
        }

        @Override
        public void close() {
        }

        boolean isSynced(Source from, String line) {
            Matcher m = N.matcher(line);
            return m.find() && synced.contains(from.wireName() + ":" + m.group(1));
        }
    }

    /** The host's output: checks each line against the ledger as it arrives, and keeps the bytes. */
    private static final class CheckingHost extends OutputStream {
        private final Ledger ledger;
        private final List<String> early;
        private final ByteArrayOutputStream all = new ByteArrayOutputStream();
        private final ByteArrayOutputStream current = new ByteArrayOutputStream();
        int lines;

        CheckingHost(Ledger ledger, List<String> early) {
            this.ledger = ledger;
            this.early = early;
        }

        @Override
        public synchronized void write(int b) {
            write(new byte[]{(byte) b}, 0, 1);
        }

        @Override
        public synchronized void write(byte[] b, int off, int len) {
            all.write(b, off, len);
            for (int i = off; i < off + len; i++) {
                if (b[i] == '\n') {
                    String line = current.toString(StandardCharsets.UTF_8);
                    lines++;
                    if (!ledger.isSynced(Source.SERVER, line)) {
                        early.add("the host got a line the log had not synced: " + start(line));
                    }
                    current.reset();
                } else {
                    current.write(b[i]);
                }
            }
        }

        synchronized byte[] bytes() {
            return all.toByteArray();
        }
    }

    /** {@code count} tools/call requests, each with its {@code n}, of random lengths up to 100 KB. */
    private static byte[] requests(int count, long seed) {
        Random random = new Random(seed);
        StringBuilder out = new StringBuilder();
        for (int n = 0; n < count; n++) {
            out.append("{\"jsonrpc\":\"2.0\",\"id\":").append(n)
                    .append(",\"method\":\"tools/call\",\"params\":{\"name\":\"lookup\",\"arguments\":{\"n\":").append(n)
                    .append(",\"text\":\"").append("x".repeat(random.nextInt(random.nextInt(8) == 0 ? 100_000 : 1_000)))
                    .append("\"}}}\n");
        }
        return out.toString().getBytes(StandardCharsets.UTF_8);
    }

    /** A server in this JVM that checks each line against the ledger as it reads it, then echoes it. */
    private static InProcessServer checkingEcho(Ledger ledger, List<String> early, AtomicInteger got) throws Exception {
        return InProcessServer.start((in, out) -> {
            BufferedReader lines = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
            String line;
            while ((line = lines.readLine()) != null) {
                got.incrementAndGet();
                if (!ledger.isSynced(Source.CLIENT, line)) {
                    early.add("the server got a line the log had not synced: " + start(line));
                }
                out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
                out.flush();
            }
        });
    }

    private void throughAnEchoInThisJvm(Path tmp, ActiveSettings active) throws Exception {
        int count = 300;
        byte[] input = requests(count, 17);
        Ledger ledger = new Ledger();
        List<String> early = new CopyOnWriteArrayList<>();
        AtomicInteger serverGot = new AtomicInteger();
        InProcessServer server = checkingEcho(ledger, early, serverGot);
        CheckingHost host = new CheckingHost(ledger, early);
        ProxyConfig config = ProxyConfig.builder(server.spec("echo")).record(tmp).recordSync(true).recordTo(ledger)
                .active(active).build();
        runAndCheck(config, input, host, early, serverGot, count);
        assertArrayEquals(input, host.bytes(), "the lines came back changed");
        assertLogHasEveryLine(tmp, input);
        // Group commit: fewer syncs than lines (each side's bursts share one).
        assertTrue(ledger.syncs.get() < 2 * count, ledger.syncs.get() + " syncs for " + 2 * count + " lines");
    }

    /**
     * Runs a session of {@code input}'s {@code count} lines to its end: the server and the host
     * got every line, and none before the log had synced it.
     */
    private static void runAndCheck(ProxyConfig config, byte[] input, CheckingHost host, List<String> early,
                                    AtomicInteger serverGot, int count) {
        SessionResult result = assertTimeoutPreemptively(LIMIT,
                () -> Proxy.run(config, new ByteArrayInputStream(input), host));
        assertEquals(0, result.exitStatus());
        assertEquals(List.of(), early.subList(0, Math.min(5, early.size())));
        assertEquals(count, serverGot.get());
        assertEquals(count, host.lines);
    }

    @Test
    void passiveModeForwardsEachLineOnlyOnceTheLogHasSyncedIt(@TempDir Path tmp) throws Exception {
        throughAnEchoInThisJvm(tmp, null);
    }

    @Test
    void activeModeForwardsEachLineOnlyOnceTheLogHasSyncedIt(@TempDir Path tmp) throws Exception {
        throughAnEchoInThisJvm(tmp, ActiveSettings.builder().commit(true).build());
    }

    private void throughHttp(Path tmp, ActiveSettings active) throws Exception {
        int count = 120;
        byte[] input = requests(count, 29);
        Ledger ledger = new Ledger();
        List<String> early = new CopyOnWriteArrayList<>();
        AtomicInteger serverGot = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/mcp", exchange -> {
            String body = new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8);
            if (!exchange.getRequestMethod().equals("POST")) {
                exchange.sendResponseHeaders(405, -1);
                exchange.close();
                return;
            }
            serverGot.incrementAndGet();
            if (!ledger.isSynced(Source.CLIENT, body)) {
                early.add("the server got a line the log had not synced: " + start(body));
            }
            Matcher m = N.matcher(body);
            String n = m.find() ? m.group(1) : "-1";
            byte[] answer = ("{\"jsonrpc\":\"2.0\",\"id\":" + n + ",\"result\":{\"n\":" + n + "}}")
                    .getBytes(StandardCharsets.UTF_8);
            exchange.getResponseHeaders().add("Content-Type", "application/json");
            exchange.sendResponseHeaders(200, answer.length);
            exchange.getResponseBody().write(answer);
            exchange.close();
        });
        server.start();
        try {
            CheckingHost host = new CheckingHost(ledger, early);
            URI endpoint = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/mcp");
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Http.of(endpoint)).record(tmp).recordSync(true)
                    .recordTo(ledger).active(active).build();
            runAndCheck(config, input, host, early, serverGot, count);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void passiveModeOverHttpForwardsEachLineOnlyOnceTheLogHasSyncedIt(@TempDir Path tmp) throws Exception {
        throughHttp(tmp, null);
    }

    @Test
    void activeModeOverHttpForwardsEachLineOnlyOnceTheLogHasSyncedIt(@TempDir Path tmp) throws Exception {
        throughHttp(tmp, ActiveSettings.builder().commit(true).build());
    }

    @Test
    void recordSyncNeedsSomewhereToRecord() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> ProxyConfig.builder(UpstreamSpec.Command.of("cat")).recordSync(true).build());
        assertEquals("recordSync needs a record directory or a recording sink", e.getMessage());
        assertTrue(ProxyConfig.builder(UpstreamSpec.Command.of("cat")).recordTo(new MemoryRecording()).recordSync(true)
                .build().recordSync());
    }

    @Test
    void aSinkThatCannotSyncTheHeaderStopsTheSessionBeforeTheServerStarts(@TempDir Path tmp) throws Exception {
        Path started = tmp.resolve("started");
        RecordingSink unsyncable = new RecordingSink() {
            @Override
            public void open(LogHeader header) {
            }

            @Override
            public void entry(LogEntry entry) {
            }

            @Override
            public void sync() throws java.io.IOException {
                throw new java.io.IOException("Input/output error");
            }

            @Override
            public void close() {
            }

            @Override
            public String toString() {
                return "the audit store";
            }
        };
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("touch", started.toString()))
                .record(tmp.resolve("logs")).recordSync(true).recordTo(unsyncable).build();
        ProxyStartException e = assertThrows(ProxyStartException.class,
                () -> Proxy.run(config, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream()));
        assertEquals("cannot start recording to the audit store: Input/output error", e.getMessage());
        assertTrue(Files.notExists(started), "the server was started");
        try (Stream<Path> logs = Files.list(tmp.resolve("logs"))) {
            assertEquals(List.of(), logs.toList(), "the session log was left behind");
        }
    }

    /** The session log in {@code dir} holds each of the input's lines twice, as sent: from the client, then echoed. */
    private static void assertLogHasEveryLine(Path dir, byte[] input) throws Exception {
        Path log;
        try (Stream<Path> files = Files.list(dir)) {
            log = files.filter(p -> p.toString().endsWith(".jsonl")).findFirst().orElseThrow();
        }
        List<String> lines = Files.readAllLines(log, StandardCharsets.UTF_8);
        String[] sent = new String(input, StandardCharsets.UTF_8).split("\n");
        List<String> client = new ArrayList<>();
        List<String> server = new ArrayList<>();
        for (String l : lines.subList(1, lines.size())) {
            String message = l.substring(l.indexOf(",\"message\":") + 11, l.length() - 1);
            (l.contains("\"from\":\"client\"") ? client : server).add(message);
        }
        assertEquals(List.of(sent), client);
        assertEquals(List.of(sent), server);
    }
}
