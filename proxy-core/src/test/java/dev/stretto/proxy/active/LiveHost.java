package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.Proxy;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.trace.testing.HostPipe;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

/**
 * An MCP host for a proxy session run in-process ({@code Proxy.run} on a thread of its own):
 * it writes lines to the proxy's input when the test says so and reads what the proxy writes,
 * line by line, failing loudly when nothing comes in time.
 */
final class LiveHost implements AutoCloseable {
    static final ObjectMapper JSON = new ObjectMapper();
    static final long WAIT_S = 30;

    private final HostPipe pipe = new HostPipe();
    private final CompletableFuture<Integer> status = new CompletableFuture<>();
    private final List<JsonNode> received = new ArrayList<>();

    /** Runs one session between the host's streams. */
    @FunctionalInterface
    interface SessionRun {
        int run(InputStream in, OutputStream out) throws Exception;
    }

    private LiveHost() {
    }

    /** A host for {@code Proxy.run(config, ...)}. */
    static LiveHost start(ProxyConfig config) {
        return start((in, out) -> Proxy.run(config, in, out).exitStatus());
    }

    /** A host for any session runner. */
    static LiveHost start(SessionRun session) {
        LiveHost host = new LiveHost();
        Thread.ofVirtual().name("live-host-session").start(() -> {
            try {
                host.status.complete(session.run(host.pipe.in(), host.pipe.out()));
            } catch (Throwable t) {
                host.status.completeExceptionally(t);
            }
        });
        return host;
    }

    /** The host stops reading what the proxy writes, until {@link #readAgain()}. */
    void stopReading() {
        pipe.stopReading();
    }

    void readAgain() {
        pipe.readAgain();
    }

    /** Writes {@code line} and its newline to the proxy. */
    LiveHost send(String line) {
        return sendBytes((line + "\n").getBytes(StandardCharsets.UTF_8));
    }

    LiveHost sendBytes(byte[] bytes) {
        pipe.send(bytes);
        return this;
    }

    /** Ends the proxy's input. */
    void closeInput() {
        pipe.closeInput();
    }

    /** The next line from the proxy, if one comes within {@code ms}; null otherwise. */
    String pollLine(long ms) throws InterruptedException {
        return pipe.poll(ms, TimeUnit.MILLISECONDS);
    }

    /** The next line from the proxy. */
    String nextLine() throws InterruptedException {
        String l = pipe.poll(WAIT_S, TimeUnit.SECONDS);
        if (l == null) {
            fail("no line from the proxy within " + WAIT_S + " s");
        }
        return l;
    }

    /** The next message from the proxy. */
    JsonNode next() throws Exception {
        JsonNode m = JSON.readTree(nextLine());
        received.add(m);
        return m;
    }

    /** Messages up to and including the response with {@code id}; returns that response. */
    JsonNode response(Object id) throws Exception {
        while (true) {
            JsonNode m = next();
            if (!m.has("method") && m.has("id") && m.get("id").asText().equals(String.valueOf(id))) {
                return m;
            }
        }
    }

    /** Sends a request and returns its response. */
    JsonNode ask(int id, String method, String params) throws Exception {
        send(request(id, method, params));
        return response(id);
    }

    /** Calls a tool and returns the response. */
    JsonNode call(int id, String tool, String arguments) throws Exception {
        send(callLine(id, tool, arguments));
        return response(id);
    }

    /** initialize, initialized and tools/list (ids 1 and 2); returns the tools/list response. */
    JsonNode handshake() throws Exception {
        ask(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test-host\","
                + "\"version\":\"0\"}}");
        send("{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}");
        return ask(2, "tools/list", null);
    }

    /** Every message read so far. */
    List<JsonNode> received() {
        return received;
    }

    /** Whatever the proxy wrote, every byte. */
    byte[] output() {
        return pipe.output();
    }

    /** Waits for the session to end and returns its exit status. */
    int exitStatus() throws Exception {
        return status.get(WAIT_S, TimeUnit.SECONDS);
    }

    static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    static String callLine(int id, String tool, String arguments) {
        return request(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    /** The text of a tools/call result's first content item. */
    static String text(JsonNode response) {
        return response.path("result").path("content").path(0).path("text").asText();
    }

    @Override
    public void close() {
        pipe.readAgain();
        pipe.closeInput();
    }
}
