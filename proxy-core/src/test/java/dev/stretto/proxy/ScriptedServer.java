package dev.stretto.proxy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A small MCP server in the test's JVM, for listener tests: answers {@code initialize} with the
 * version asked, {@code ping}, and {@code tools/call} of a few tools that do what the transport
 * has to carry: {@code echo} (its arguments back), {@code progress} (three progress
 * notifications for the call's token and a log message, then the answer), {@code ask} (a
 * {@code sampling/createMessage} to the host, whose answer's text comes back), {@code gated}
 * (one progress notification, then waits for a {@code notifications/go} from the host before
 * the second and the answer) and {@code hold} (never answers; its id goes to {@link #HELD}, so
 * that a test knows the call reached the server). Every line it writes is the compact JSON
 * below, so tests compare bytes.
 */
final class ScriptedServer {
    private static final ObjectMapper JSON = new ObjectMapper();

    /** The ids of the {@code hold} calls the servers of this JVM have received, in order. */
    static final BlockingQueue<String> HELD = new LinkedBlockingQueue<>();

    private ScriptedServer() {
    }

    static InProcessServer start() throws Exception {
        return InProcessServer.start(ScriptedServer::serve);
    }

    static UpstreamSpec spec() throws Exception {
        return start().spec("scripted");
    }

    private static void serve(java.io.InputStream in, OutputStream out) throws Exception {
        BlockingQueue<JsonNode> answers = new LinkedBlockingQueue<>();
        BlockingQueue<Boolean> go = new LinkedBlockingQueue<>();
        BufferedReader reader = new BufferedReader(new InputStreamReader(in, StandardCharsets.UTF_8));
        Object lock = new Object();
        String line;
        while ((line = reader.readLine()) != null) {
            JsonNode m = JSON.readTree(line);
            String method = m.path("method").asText(null);
            JsonNode id = m.get("id");
            if (method == null) {
                answers.add(m);
                continue;
            }
            if (id == null) {
                if (method.equals("notifications/go")) {
                    go.add(true);
                }
                continue;
            }
            String idText = id.toString();
            switch (method) {
                case "initialize" -> write(out, lock, "{\"jsonrpc\":\"2.0\",\"id\":" + idText + ",\"result\":{"
                        + "\"protocolVersion\":" + m.path("params").path("protocolVersion").toString()
                        + ",\"capabilities\":{\"tools\":{}},\"serverInfo\":{\"name\":\"scripted\",\"version\":\"1\"}}}");
                case "ping" -> write(out, lock, "{\"jsonrpc\":\"2.0\",\"id\":" + idText + ",\"result\":{}}");
                case "tools/call" -> {
                    String tool = m.path("params").path("name").asText();
                    JsonNode token = m.path("params").path("_meta").get("progressToken");
                    Thread.ofVirtual().start(() -> call(out, lock, tool, idText, token, m, answers, go));
                }
                default -> write(out, lock, "{\"jsonrpc\":\"2.0\",\"id\":" + idText
                        + ",\"error\":{\"code\":-32601,\"message\":\"Method not found\"}}");
            }
        }
    }

    private static void call(OutputStream out, Object lock, String tool, String id, JsonNode token, JsonNode m,
                             BlockingQueue<JsonNode> answers, BlockingQueue<Boolean> go) {
        try {
            switch (tool) {
                case "progress" -> {
                    for (int i = 1; i <= 3; i++) {
                        write(out, lock, progress(token, i));
                    }
                    write(out, lock, "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/message\",\"params\":{"
                            + "\"level\":\"info\",\"data\":\"working on " + id.replace("\"", "") + "\"}}");
                    write(out, lock, text(id, "done"));
                }
                case "ask" -> {
                    write(out, lock, "{\"jsonrpc\":\"2.0\",\"id\":\"ask-" + id.replace("\"", "")
                            + "\",\"method\":\"sampling/createMessage\",\"params\":{\"messages\":[],\"maxTokens\":5}}");
                    JsonNode answer = answers.poll(30, TimeUnit.SECONDS);
                    write(out, lock, text(id, answer == null ? "no answer"
                            : answer.path("result").path("content").path("text").asText()));
                }
                case "gated" -> {
                    write(out, lock, progress(token, 1));
                    go.poll(30, TimeUnit.SECONDS);
                    write(out, lock, progress(token, 2));
                    write(out, lock, text(id, "opened"));
                }
                case "hold" -> HELD.add(id);
                default -> write(out, lock, "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{"
                        + "\"type\":\"text\",\"text\":" + JSON.writeValueAsString(m.path("params").path("arguments")
                        .toString()) + "}]}}");
            }
        } catch (Exception e) {
            throw new IllegalStateException(e);
        }
    }

    private static String progress(JsonNode token, int n) {
        return "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/progress\",\"params\":{\"progressToken\":"
                + token + ",\"progress\":" + n + ",\"total\":3}}";
    }

    private static String text(String id, String text) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"result\":{\"content\":[{\"type\":\"text\",\"text\":\""
                + text + "\"}]}}";
    }

    private static void write(OutputStream out, Object lock, String line) throws java.io.IOException {
        synchronized (lock) {
            out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
            out.flush();
        }
    }
}
