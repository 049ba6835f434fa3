package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.ProxyMessages.Level;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The proxy's own messages go to the handler a harness gives each session, and nowhere else. */
class ProxyMessagesTest {

    /** Every message, as "LEVEL text". */
    private record Collected(List<String> said) implements ProxyMessages {
        Collected() {
            this(new CopyOnWriteArrayList<>());
        }

        @Override
        public void message(Level level, String text) {
            said.add(level + " " + text);
        }
    }

    /**
     * A session whose server ignores its closed input (so the proxy warns and sends SIGTERM),
     * recorded to {@code dir}, with its messages going to {@code handler}.
     */
    private static SessionResult stubbornSession(Path dir, ProxyMessages handler) throws Exception {
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("sleep", "30"))
                .record(dir)
                .shutdown(new ShutdownTimings(Duration.ofMillis(100), Duration.ofSeconds(5)))
                .messages(handler)
                .build();
        return Proxy.run(config, new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream());
    }

    @Test
    void eachSessionsMessagesReachItsOwnHandlerAndNeitherStdoutNorStderr(@TempDir Path tmp) throws Exception {
        Collected first = new Collected();
        Collected second = new Collected();
        PrintStream savedOut = System.out;
        PrintStream savedErr = System.err;
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setOut(new PrintStream(out, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try (ExecutorService harness = Executors.newVirtualThreadPerTaskExecutor()) {
            Future<SessionResult> a = harness.submit(() -> stubbornSession(Files.createDirectory(tmp.resolve("a")), first));
            Future<SessionResult> b = harness.submit(() -> stubbornSession(Files.createDirectory(tmp.resolve("b")), second));
            assertTimeoutPreemptively(Duration.ofSeconds(30), () -> {
                assertEquals(143, a.get().exitStatus(), "the server was ended by SIGTERM");
                assertEquals(143, b.get().exitStatus());
            });
            StderrMessages.flush(Duration.ofSeconds(10));
        } finally {
            System.setOut(savedOut);
            System.setErr(savedErr);
        }
        assertEquals("", out.toString(StandardCharsets.UTF_8), "nothing on stdout");
        assertEquals("", err.toString(StandardCharsets.UTF_8), "nothing on stderr: the handlers took it all");
        for (String name : List.of("a", "b")) {
            List<String> said = (name.equals("a") ? first : second).said();
            assertTrue(said.getFirst().startsWith("INFO recording to " + tmp.resolve(name) + "/"), said.toString());
            assertTrue(said.contains("WARN the server did not exit within 100 ms after its input closed; sending it"
                    + " SIGTERM"), said.toString());
        }
    }

    @Test
    void withoutAHandlerTheMessagesGoToStderrAtInfo(@TempDir Path tmp) throws Exception {
        PrintStream savedErr = System.err;
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        System.setErr(new PrintStream(err, true, StandardCharsets.UTF_8));
        try {
            ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("sleep", "30"))
                    .record(tmp)
                    .shutdown(new ShutdownTimings(Duration.ofMillis(100), Duration.ofSeconds(5)))
                    .build();
            assertEquals(143, assertTimeoutPreemptively(Duration.ofSeconds(30), () -> Proxy.run(config,
                    new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream())).exitStatus());
            assertTrue(StderrMessages.flush(Duration.ofSeconds(10)));
        } finally {
            System.setErr(savedErr);
        }
        List<String> lines = err.toString(StandardCharsets.UTF_8).lines().toList();
        assertTrue(lines.getFirst().startsWith("stretto-proxy: recording to " + tmp + "/"), lines.toString());
        assertEquals("stretto-proxy: the server did not exit within 100 ms after its input closed; sending it SIGTERM",
                lines.get(1), lines.toString());
        assertEquals(2, lines.size(), "nothing at debug: " + lines);
    }

    @Test
    void theStderrHandlerShowsItsThresholdAndAboveAndDiscardShowsNothing() {
        ProxyMessages warn = StderrMessages.at(Level.WARN);
        assertTrue(warn.enabled(Level.ERROR) && warn.enabled(Level.WARN));
        assertTrue(!warn.enabled(Level.INFO) && !warn.enabled(Level.TRACE));
        ProxyMessages none = ProxyMessages.discard();
        for (Level l : Level.values()) {
            assertTrue(!none.enabled(l), l.toString());
        }
    }
}
