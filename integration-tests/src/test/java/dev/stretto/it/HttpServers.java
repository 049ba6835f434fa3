package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.Map;

/** The HTTP MCP servers the tests run as real processes, and a plain client to poke them. */
final class HttpServers {

    private HttpServers() {
    }

    /** A loopback port nothing listens on (it was free a moment ago). */
    static int freePort() throws IOException {
        try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            return socket.getLocalPort();
        }
    }

    /** {@code stretto-mcp-demo --http 127.0.0.1:0 [extra...]}; its URL is its first stdout line. */
    record Demo(Proc proc, String url) implements AutoCloseable {

        static Demo start(String... extra) throws Exception {
            List<String> command = new java.util.ArrayList<>(List.of(Repo.bin("stretto-mcp-demo"), "--http", "127.0.0.1:0"));
            command.addAll(List.of(extra));
            Proc p = Proc.start(command);
            String url = p.nextLine();
            assertTrue(url.matches("http://127\\.0\\.0\\.1:\\d+/mcp"), "the demo's URL line: " + url);
            return new Demo(p, url);
        }

        @Override
        public void close() throws InterruptedException {
            proc.close();
        }
    }

    /** The installed reference server's launcher; fails (never skips) when it is missing. */
    static Path referenceServer() {
        Path bin = Repo.root().resolve(".cache/reference-server/node_modules/.bin/mcp-server-everything");
        if (!Files.isExecutable(bin)) {
            fail("the reference MCP server is not installed at " + bin + "; run bin/lib/npm-install reference-server"
                    + " (bin/test does so before mvn verify)");
        }
        return bin;
    }

    /** {@code PORT=<free> mcp-server-everything streamableHttp}, once it says it listens. */
    record Reference(Proc proc, String url) implements AutoCloseable {

        static Reference start() throws Exception {
            Path bin = referenceServer();
            int port = freePort();
            Proc p = Proc.start(List.of(bin.toString(), "streamableHttp"), null, Map.of("PORT", Integer.toString(port)));
            try {
                awaitListening(p, port);
                return new Reference(p, "http://127.0.0.1:" + port + "/mcp");
            } catch (Throwable t) {
                p.close();
                throw t;
            }
        }

        @Override
        public void close() throws InterruptedException {
            proc.close();
        }
    }

    /**
     * Waits until {@code port} accepts connections, trying again every 50 ms for at most 30 s.
     * (The reference server says "listening" on stderr, but which stream a Node server logs to
     * is its own business; the port is what counts.)
     */
    static void awaitListening(Proc server, int port) throws Exception {
        long deadline = System.nanoTime() + 30_000_000_000L;
        while (true) {
            try (java.net.Socket socket = new java.net.Socket()) {
                socket.connect(new java.net.InetSocketAddress(InetAddress.getLoopbackAddress(), port), 1000);
                return;
            } catch (IOException notYet) {
                if (!server.process().isAlive()) {
                    fail("the server exited with " + server.process().exitValue() + " before it listened on port "
                            + port + "; stderr:\n" + server.stderr());
                }
                if (System.nanoTime() > deadline) {
                    fail("the server did not listen on port " + port + " within 30 s; stderr:\n" + server.stderr());
                }
                Thread.sleep(50);
            }
        }
    }

    /** POSTs one JSON-RPC message as an MCP client would, with the given extra headers. */
    static HttpResponse<String> post(String url, String body, Map<String, String> headers) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10))
                .header("Content-Type", "application/json")
                .header("Accept", "application/json, text/event-stream")
                .POST(HttpRequest.BodyPublishers.ofString(body));
        headers.forEach(b::header);
        try (HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build()) {
            return client.send(b.build(), HttpResponse.BodyHandlers.ofString());
        }
    }
}
