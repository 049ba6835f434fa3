package dev.stretto.demo;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/** DemoMain as a real child process: stdout holds nothing but protocol, and it ends cleanly. */
class DemoProcessTest {
    private static final long WAIT_S = 30;
    private final List<Process> processes = new ArrayList<>();

    @AfterEach
    void kill() {
        processes.forEach(Process::destroyForcibly);
    }

    private Process start(String... args) throws IOException {
        List<String> command = new ArrayList<>(List.of(
                Path.of(System.getProperty("java.home"), "bin", "java").toString(), "--enable-preview",
                "-cp", System.getProperty("java.class.path"), DemoMain.class.getName()));
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).start();
        processes.add(p);
        return p;
    }

    private static String readAll(java.io.InputStream in) {
        try {
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }

    @Test
    void stdioAnswersAndExitsZeroWhenStdinCloses() throws Exception {
        Process p = start("--world", "retail");
        CompletableFuture<String> stdout = CompletableFuture.supplyAsync(() -> readAll(p.getInputStream()));
        CompletableFuture<String> stderr = CompletableFuture.supplyAsync(() -> readAll(p.getErrorStream()));
        try (OutputStream in = p.getOutputStream()) {
            in.write(("{\"jsonrpc\":\"2.0\",\"id\":3,\"method\":\"tools/call\",\"params\":{\"name\":"
                    + "\"find_user_id_by_email\",\"arguments\":{\"email\":\"c1@example.com\"}}}\n")
                    .getBytes(StandardCharsets.UTF_8));
        }
        assertTrue(p.waitFor(WAIT_S, TimeUnit.SECONDS), "the demo did not exit after stdin closed");
        assertEquals(0, p.exitValue(), stderr.get());
        assertEquals("{\"id\":3,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"user_1\",\"type\":\"text\"}],"
                + "\"isError\":false}}\n", stdout.get(WAIT_S, TimeUnit.SECONDS));
        assertEquals("", stderr.get(WAIT_S, TimeUnit.SECONDS));
    }

    @Test
    void httpPrintsOnlyTheEndpointAndStopsOnSigterm() throws Exception {
        Process p = start("--http", "127.0.0.1:0");
        BufferedReader stdout = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        CompletableFuture<String> firstLine = CompletableFuture.supplyAsync(() -> {
            try {
                return stdout.readLine();
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
        });
        String line = firstLine.get(WAIT_S, TimeUnit.SECONDS);
        assertTrue(line != null && line.matches("http://127\\.0\\.0\\.1:[0-9]+/mcp"), "first line: " + line);
        try (HttpClient client = HttpClient.newBuilder().version(HttpClient.Version.HTTP_1_1).build()) {
            HttpResponse<String> init = client.send(HttpRequest.newBuilder(URI.create(line))
                    .timeout(Duration.ofSeconds(WAIT_S))
                    .POST(HttpRequest.BodyPublishers.ofString("{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"initialize\","
                            + "\"params\":{\"protocolVersion\":\"2025-06-18\"}}")).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertEquals(200, init.statusCode());
            assertEquals("demo-session-1", init.headers().firstValue("Mcp-Session-Id").orElseThrow());
        }
        // SIGTERM through the handle: Process.destroy() would also close our end of its pipes.
        assertTrue(p.toHandle().destroy());
        CompletableFuture<String> rest = CompletableFuture.supplyAsync(() -> {
            StringBuilder after = new StringBuilder();
            try {
                for (String more = stdout.readLine(); more != null; more = stdout.readLine()) {
                    after.append(more).append('\n');
                }
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return after.toString();
        });
        assertTrue(p.waitFor(WAIT_S, TimeUnit.SECONDS), "the demo did not stop on SIGTERM");
        assertEquals(143, p.exitValue(), "killed by SIGTERM, after its shutdown hook ran");
        assertEquals("", rest.get(WAIT_S, TimeUnit.SECONDS), "nothing after the endpoint line");
    }
}
