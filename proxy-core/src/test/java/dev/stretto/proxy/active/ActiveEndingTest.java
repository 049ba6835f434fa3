package dev.stretto.proxy.active;

import static dev.stretto.proxy.testing.Processes.running;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.proxy.io.LineQueue;
import dev.stretto.proxy.testing.HostStreams;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.io.ByteArrayOutputStream;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.FutureTask;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Active mode ends as passive mode does: interrupting the thread in {@code Proxy.run} (the
 * CLI does so on SIGTERM, SIGINT and SIGHUP) stops the actor with the log complete and the
 * server ended, every line the host got being in the log; and a host that stops reading
 * cannot keep the session from ending once the server is done.
 */
class ActiveEndingTest {
    private static final Duration LIMIT = Duration.ofSeconds(30);
    private static final ActiveMode COMMIT = ActiveMode.builder().commit(true).build();

    private static ProxyConfig.Builder sh(String script) {
        return ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c", script))
                .shutdown(new ShutdownTimings(Duration.ofMillis(200), Duration.ofMillis(200), Duration.ofMillis(300)))
                .active(COMMIT);
    }

    @Test
    void anInterruptedActiveSessionStopsWithEveryLineTheHostGotInTheLogAndTheServerEnded(@TempDir Path tmp)
            throws Exception {
        ProxyConfig config = sh("echo $$; exec cat").record(tmp).build();
        // The host writes lines until the session stops; cat echoes them.
        InputStream endless = HostStreams.endless(("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\","
                + "\"params\":{\"data\":\"" + "x".repeat(10_000) + "\"}}\n").getBytes(StandardCharsets.UTF_8));
        LinkedBlockingQueue<Integer> newlines = new LinkedBlockingQueue<>();
        ByteArrayOutputStream received = HostStreams.countingLines(newlines);
        FutureTask<Integer> session = new FutureTask<>(() -> Proxy.run(config, endless, received).exitStatus());
        Thread runner = Thread.ofPlatform().start(session);
        for (int i = 0; i < 50; i++) {
            assertTrue(newlines.poll(10, TimeUnit.SECONDS) != null, "lines stopped flowing");
        }
        runner.interrupt();
        ExecutionException thrown = assertThrows(ExecutionException.class, () -> session.get(10, TimeUnit.SECONDS));
        assertTrue(thrown.getCause() instanceof InterruptedException, thrown.toString());

        String host = received.toString(StandardCharsets.UTF_8);
        assertTrue(host.endsWith("\n"), "the host got no torn line");
        List<String> hostLines = List.of(host.split("\n"));
        long serverPid = Long.parseLong(hostLines.getFirst());
        assertFalse(running(serverPid), "the server outlived the session");

        List<String> logged = new ArrayList<>();
        for (LogEntry e : SessionLog.read(onlyLog(tmp)).entries()) {
            if (e.from() == Source.SERVER) {
                logged.add(e.payload() instanceof Payload.Message m ? m.json() : ((Payload.Raw) e.payload()).text());
            }
        }
        assertTrue(hostLines.size() <= logged.size(), hostLines.size() + " received, " + logged.size() + " logged");
        assertEquals(hostLines, logged.subList(0, hostLines.size()), "every line the host received is logged, in order");
    }

    @Test
    void aHostThatStopsReadingCannotKeepAnActiveSessionFromEndingAndTheServersLinesAreLogged(@TempDir Path tmp)
            throws Exception {
        // More lines than the host's queue and the actor's server lane hold together.
        ProxyConfig config = sh("i=0; while [ $i -lt 300 ]; do echo \"{\\\"jsonrpc\\\":\\\"2.0\\\",\\\"method\\\":"
                + "\\\"notifications/message\\\",\\\"params\\\":{\\\"seq\\\":$i}}\"; i=$((i+1)); done; exit 4")
                .record(tmp).build();
        CountDownLatch never = new CountDownLatch(1);
        OutputStream stuck = HostStreams.neverRead();
        InputStream openInput = new InputStream() {
            @Override
            public int read() throws java.io.IOException {
                try {
                    never.await();
                } catch (InterruptedException e) {
                    throw new java.io.InterruptedIOException();
                }
                return -1;
            }
        };
        int status = assertTimeoutPreemptively(LIMIT, () -> Proxy.run(config, openInput, stuck).exitStatus());
        assertEquals(4, status, "the server's status, although the host took nothing");
        List<LogEntry> server = SessionLog.read(onlyLog(tmp)).entries().stream()
                .filter(e -> e.from() == Source.SERVER).toList();
        assertTrue(server.size() > 64 + LineQueue.Bound.SIDE.lines(), "lines the actor took after the server ended are logged too: "
                + server.size());
        for (int i = 0; i < server.size(); i++) {
            assertEquals("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{\"seq\":" + i + "}}",
                    ((Payload.Message) server.get(i).payload()).json(), "line " + i + " in order");
        }
    }

    private static Path onlyLog(Path dir) throws java.io.IOException {
        List<Path> logs = SessionLog.logFiles(dir);
        assertEquals(1, logs.size(), logs.toString());
        return logs.getFirst();
    }
}
