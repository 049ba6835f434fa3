package dev.stretto.proxy.oauth;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/**
 * The sign-in's own HTTP exchanges when a connection fails: a server that resets the connection
 * a request came on (as one does to a pooled connection it closed while the person signed in)
 * is asked once more on a new one, and one that keeps doing so is a failed sign-in that names
 * the server, not an unreachable MCP server.
 */
class OAuthHttpTest {

    /** A server on 127.0.0.1 that resets the first {@code resets} connections after reading a request, then answers. */
    private static final class ResettingServer implements AutoCloseable {
        final ServerSocket socket = new ServerSocket(0, 8, InetAddress.getLoopbackAddress());
        final AtomicInteger connections = new AtomicInteger();
        final List<String> requestLines = new CopyOnWriteArrayList<>();
        final Thread acceptor;

        ResettingServer(int resets) throws IOException {
            acceptor = Thread.ofVirtual().start(() -> {
                while (!socket.isClosed()) {
                    try (Socket c = socket.accept()) {
                        int n = connections.incrementAndGet();
                        BufferedReader in = new BufferedReader(new InputStreamReader(c.getInputStream(),
                                StandardCharsets.ISO_8859_1));
                        requestLines.add(in.readLine());
                        int length = 0;
                        for (String h = in.readLine(); h != null && !h.isEmpty(); h = in.readLine()) {
                            if (h.toLowerCase().startsWith("content-length:")) {
                                length = Integer.parseInt(h.substring(15).strip());
                            }
                        }
                        in.skip(length);
                        if (n <= resets) {
                            c.setSoLinger(true, 0);
                            continue;
                        }
                        byte[] body = "{\"access_token\":\"at-1\",\"token_type\":\"Bearer\"}"
                                .getBytes(StandardCharsets.UTF_8);
                        OutputStream out = c.getOutputStream();
                        out.write(("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nConnection: close\r\n"
                                + "Content-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.ISO_8859_1));
                        out.write(body);
                        out.flush();
                    } catch (IOException e) {
                        // closed, or the client went away
                    }
                }
            });
        }

        URI url(String path) {
            return URI.create("http://127.0.0.1:" + socket.getLocalPort() + path);
        }

        @Override
        public void close() throws Exception {
            socket.close();
            acceptor.join(Duration.ofSeconds(10));
        }
    }

    private static OAuthHttp http(HttpClient client) {
        return new OAuthHttp(client, Duration.ofSeconds(10));
    }

    @Test
    void aTokenRequestWhoseConnectionIsResetIsSentOnceMoreOnANewOne() throws Exception {
        try (ResettingServer server = new ResettingServer(1); HttpClient client = HttpClient.newHttpClient()) {
            OAuthHttp.Answer a = http(client).postForm(server.url("/token"), Map.of("grant_type", "client_credentials"),
                    Map.of());
            assertEquals(200, a.status());
            assertEquals("at-1", a.json().get("access_token").asText());
            assertEquals(2, server.connections.get());
            assertEquals(List.of("POST /token HTTP/1.1", "POST /token HTTP/1.1"), server.requestLines);
        }
    }

    @Test
    void aServerThatKeepsResettingIsAFailedSignInNamingIt() throws Exception {
        try (ResettingServer server = new ResettingServer(Integer.MAX_VALUE);
             HttpClient client = HttpClient.newHttpClient()) {
            AuthorizationFailedException e = assertThrows(AuthorizationFailedException.class,
                    () -> http(client).postForm(server.url("/token"), Map.of("grant_type", "client_credentials"),
                            Map.of()));
            assertTrue(e.getMessage().startsWith("cannot reach http://127.0.0.1:" + server.socket.getLocalPort() + " ("),
                    e.getMessage());
            assertEquals(2, server.connections.get(), "asked twice, no more");
        }
    }
}
