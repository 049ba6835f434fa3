package dev.stretto.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.Subreaper;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.OutputStream;
import java.io.PrintStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto-proxy --listen} run in the test's JVM, through {@link ProxyMain#run}. */
@Timeout(60)
class ListenCommandTest {
    // A stdio server in sh that answers initialize, enough to start a session.
    private static final List<String> SERVER = List.of("sh", "-c", "while IFS= read -r l; do case $l in"
            + " *'\"initialize\"'*) echo '{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}'"
            + ";; esac; done");

    @TempDir
    Path tmp;


    /** Runs the command on a thread of its own; completes with its status, and gives its URL once it prints one. */
    private record Running(Thread thread, CompletableFuture<Integer> status, CompletableFuture<String> url) {
    }

    private static Running start(String... args) {
        CompletableFuture<Integer> status = new CompletableFuture<>();
        CompletableFuture<String> url = new CompletableFuture<>();
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        PrintStream textOut = new PrintStream(new OutputStream() {
            @Override
            public synchronized void write(int b) {
                if (b == '\n') {
                    url.complete(line.toString(StandardCharsets.UTF_8));
                } else {
                    line.write(b);
                }
            }
        }, true, StandardCharsets.UTF_8);
        Thread t = Thread.ofPlatform().start(() -> {
            try {
                status.complete(ProxyMain.run(args, Map.of("PATH", System.getenv("PATH")),
                        new ByteArrayInputStream(new byte[0]), new ByteArrayOutputStream(), textOut, 77,
                        new Subreaper()));
            } catch (Throwable e) {
                status.completeExceptionally(e);
            }
            url.complete(null);
        });
        return new Running(t, status, url);
    }

    private static String[] args(List<String> head) {
        List<String> all = new java.util.ArrayList<>(head);
        all.add("--");
        all.addAll(SERVER);
        return all.toArray(String[]::new);
    }

    @Test
    void itListensUntilInterruptedThenEndsEverySessionAndReturnsZero() throws Exception {
        Path logs = tmp.resolve("logs");
        Running r = start(args(List.of("--listen", "127.0.0.1:0", "--record", logs.toString(), "--log-level", "off")));
        String url = r.url().get(30, TimeUnit.SECONDS);
        assertNotNull(url, "no URL; status " + r.status().getNow(null));
        assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/mcp"), url);
        try (HttpClient http = HttpClient.newHttpClient()) {
            HttpResponse<String> init = http.send(HttpRequest.newBuilder(URI.create(url))
                    .header("Content-Type", "application/json").header("Accept", "application/json")
                    .header("Stretto-Session", "chat-1")
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{}}")).build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, init.statusCode(), init.body());
            assertEquals("{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{\"protocolVersion\":\"2025-06-18\"}}", init.body());
        }
        r.thread().interrupt();
        assertEquals(0, r.status().get(30, TimeUnit.SECONDS));
        try (Stream<Path> s = Files.list(logs)) {
            List<Path> files = s.toList();
            assertEquals(1, files.size());
            String log = Files.readString(files.getFirst());
            assertTrue(log.contains("\"host_session\":\"chat-1\""), log);
            assertTrue(log.endsWith("\n") && log.contains("\"from\":\"server\""), log);
        }
    }

    @Test
    void aTokenFileThatCannotBeUsedAndAnAddressInUseAre125() throws Exception {
        Path empty = Files.writeString(tmp.resolve("empty"), "\n");
        assertEquals(125, start(args(List.of("--listen", "0", "--listen-token-file", empty.toString())))
                .status().get(30, TimeUnit.SECONDS));
        assertEquals(125, start(args(List.of("--listen", "0", "--listen-token-file", tmp.resolve("none").toString())))
                .status().get(30, TimeUnit.SECONDS));
        Running first = start(args(List.of("--listen", "127.0.0.1:0", "--log-level", "off")));
        String url = first.url().get(30, TimeUnit.SECONDS);
        String port = Integer.toString(URI.create(url).getPort());
        assertEquals(125, start(args(List.of("--listen", "127.0.0.1:" + port))).status().get(30, TimeUnit.SECONDS));
        assertEquals(125, start(args(List.of("--listen", "no-such-host.invalid:0"))).status().get(30, TimeUnit.SECONDS));
        first.thread().interrupt();
        assertEquals(0, first.status().get(30, TimeUnit.SECONDS));
        assertEquals(2, start(args(List.of("--listen", "x"))).status().get(30, TimeUnit.SECONDS));
    }
}
