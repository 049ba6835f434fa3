package dev.stretto.proxy.active;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.core.json.JsonReadFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.UpstreamSpec;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.channels.Channels;
import java.nio.channels.Pipe;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A retail MCP server in the test's JVM, behind a pair of pipes, that records every line the
 * proxy sent it and what several kinds of server would have run on reading those lines: every
 * {@code tools/call} each one would take, whatever its id (none, null, an object), inside a
 * batch or not. The kinds are the ways real servers read JSON-RPC differently:
 *
 * <ul>
 *   <li>{@code last-wins}: Jackson's tree, a duplicated key's last value (Jackson, JavaScript,
 *       Python);</li>
 *   <li>{@code first-wins}: a duplicated key's first value;</li>
 *   <li>{@code case-insensitive}: keys matched case-insensitively with Unicode folding, as Go's
 *       {@code encoding/json} binds them to fields ({@code "Method"}, {@code "paramſ"}), the
 *       last of several; invalid UTF-8 replaced;</li>
 *   <li>{@code lenient}: a line split at carriage returns (Python's and Java's line readers),
 *       invalid UTF-8 replaced (Node's), then JSON5-like leniency: NaN, comments, single
 *       quotes, unquoted names, trailing commas;</li>
 *   <li>{@code coercing}: string arguments parsed as JSON, positional params taken as name
 *       and arguments;</li>
 *   <li>{@code stream}: every line received read as one stream of JSON values, lines joined
 *       (Go's {@code json.Decoder}), resuming after a syntax error at the next line.</li>
 * </ul>
 *
 * <p>It answers as the last-wins kind reads: customer N is {@code user_N} ({@code
 * cN@example.com}), whose order {@code #WNa} is pending.
 */
final class ReadingServer implements AutoCloseable {

    /** A call a kind of server would have run: the tool and its arguments as it read them. */
    record Ran(String reader, String tool, JsonNode arguments) {
    }

    private static final ObjectMapper STRICT = new ObjectMapper();
    private static final JsonFactory LENIENT = JsonFactory.builder()
            .enable(JsonReadFeature.ALLOW_NON_NUMERIC_NUMBERS, JsonReadFeature.ALLOW_JAVA_COMMENTS,
                    JsonReadFeature.ALLOW_SINGLE_QUOTES, JsonReadFeature.ALLOW_UNQUOTED_FIELD_NAMES,
                    JsonReadFeature.ALLOW_TRAILING_COMMA, JsonReadFeature.ALLOW_LEADING_ZEROS_FOR_NUMBERS,
                    JsonReadFeature.ALLOW_BACKSLASH_ESCAPING_ANY_CHARACTER, JsonReadFeature.ALLOW_UNESCAPED_CONTROL_CHARS)
            .build();
    private static final JsonNodeFactory NODES = JsonNodeFactory.instance;

    private final Pipe toServer;
    private final Pipe fromServer;
    private final OutputStream out;
    private final List<String> received = new ArrayList<>();
    private final List<Ran> ran = new ArrayList<>();
    private final StringBuilder stream = new StringBuilder();
    private final Thread reader;

    ReadingServer() throws IOException {
        toServer = Pipe.open();
        fromServer = Pipe.open();
        out = Channels.newOutputStream(fromServer.sink());
        InputStream in = Channels.newInputStream(toServer.source());
        reader = Thread.ofVirtual().name("reading-server").start(() -> serve(in));
    }

    /** The server as the proxy's upstream. */
    UpstreamSpec.Streams spec() {
        return UpstreamSpec.Streams.of("reading-server", Channels.newInputStream(fromServer.source()),
                Channels.newOutputStream(toServer.sink()));
    }

    /** Every line the proxy sent, as text (invalid UTF-8 replaced). */
    synchronized List<String> received() {
        return List.copyOf(received);
    }

    /** Every call some kind of server would have run, in order. */
    synchronized List<Ran> ran() {
        return List.copyOf(ran);
    }

    private void serve(InputStream in) {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        try (in; out) {
            int b;
            while ((b = in.read()) >= 0) {
                if (b == '\n') {
                    take(line.toByteArray());
                    line.reset();
                } else {
                    line.write(b);
                }
            }
        } catch (IOException e) {
            // The proxy closed the pipes: the session is over.
        }
    }

    private void take(byte[] line) throws IOException {
        String text = new String(line, StandardCharsets.UTF_8);
        synchronized (this) {
            received.add(text);
            runAll(line, text);
        }
        JsonNode message;
        try {
            message = STRICT.readTree(line);
        } catch (IOException e) {
            return;
        }
        if (message != null && message.isObject()) {
            answer(message);
        } else if (message != null && message.isArray()) {
            List<String> answers = new ArrayList<>();
            for (JsonNode m : message) {
                String a = answerOf(m);
                if (a != null) {
                    answers.add(a);
                }
            }
            if (!answers.isEmpty()) {
                write("[" + String.join(",", answers) + "]");
            }
        }
    }

    private void answer(JsonNode message) throws IOException {
        String a = answerOf(message);
        if (a != null) {
            write(a);
        }
    }

    private void write(String line) throws IOException {
        out.write((line + "\n").getBytes(StandardCharsets.UTF_8));
        out.flush();
    }

    /** The answer to one request, or null for anything else. */
    private static String answerOf(JsonNode m) {
        JsonNode id = m.get("id");
        if (!m.isObject() || id == null || id.isNull() || !m.path("method").isTextual()) {
            return null;
        }
        ObjectNode result = NODES.objectNode();
        switch (m.path("method").textValue()) {
            case "initialize" -> {
                result.put("protocolVersion", "2025-06-18");
                result.putObject("capabilities").putObject("tools");
                result.putObject("serverInfo").put("name", "reading-server").put("version", "0");
            }
            case "tools/list" -> result.putArray("tools");
            case "tools/call" -> {
                String text = toolAnswer(m.path("params").path("name").asText(), m.path("params").path("arguments"));
                result.putArray("content").addObject().put("type", "text").put("text", text);
                result.put("isError", false);
            }
            default -> {
            }
        }
        ObjectNode answer = NODES.objectNode();
        answer.put("jsonrpc", "2.0");
        answer.set("id", id);
        answer.set("result", result);
        return answer.toString();
    }

    private static String toolAnswer(String tool, JsonNode args) {
        return switch (tool) {
            case "find_user_id_by_email" -> "user_" + args.path("email").asText().replaceAll("[^0-9]", "");
            case "get_order_details" -> {
                String order = args.path("order_id").asText();
                yield "{\"order_id\":\"" + order + "\",\"status\":\"pending\",\"user_id\":\"user_"
                        + order.replaceAll("[^0-9]", "") + "\"}";
            }
            case "get_user_details" -> "{\"payment_methods\":{},\"user_id\":\"" + args.path("user_id").asText() + "\"}";
            default -> "{\"done\":\"" + tool + "\"}";
        };
    }

    // ---- what each kind of server runs

    private void runAll(byte[] line, String text) {
        try {
            runMessage("last-wins", STRICT.readTree(line), false);
        } catch (IOException | RuntimeException e) {
            // Not JSON to this reader: it runs nothing.
        }
        try (JsonParser p = STRICT.getFactory().createParser(line)) {
            runMessage("first-wins", tree(p, true), false);
        } catch (IOException | RuntimeException e) {
            // Nothing.
        }
        try {
            runMessage("coercing", STRICT.readTree(line), true);
        } catch (IOException | RuntimeException e) {
            // Nothing.
        }
        try {
            runFolded(STRICT.readTree(text));
        } catch (IOException | RuntimeException e) {
            // Nothing.
        }
        for (String part : text.split("\r")) {
            try (JsonParser p = LENIENT.createParser(part)) {
                runMessage("lenient", tree(p, false), false);
            } catch (IOException | RuntimeException e) {
                // Nothing.
            }
        }
        stream.append(text).append('\n');
        runStream();
    }

    /** A tools/call (or a batch holding some) as a reader that matches keys exactly takes it. */
    private void runMessage(String reader, JsonNode m, boolean coercing) {
        if (m == null) {
            return;
        }
        if (m.isArray()) {
            for (JsonNode e : m) {
                runMessage(reader, e, coercing);
            }
            return;
        }
        if (!m.isObject() || !"tools/call".equals(m.path("method").textValue())) {
            return;
        }
        JsonNode params = m.get("params");
        JsonNode name;
        JsonNode args;
        if (coercing && params != null && params.isArray()) {
            name = params.get(0);
            args = params.get(1);
        } else {
            name = params == null ? null : params.get("name");
            args = params == null ? null : params.get("arguments");
        }
        if (coercing && args != null && args.isTextual()) {
            try {
                args = STRICT.readTree(args.textValue());
            } catch (IOException e) {
                return;
            }
        }
        if (name != null && name.isTextual() && (args == null || args.isNull() || args.isObject())) {
            ran.add(new Ran(reader, name.textValue(), args == null || args.isNull() ? NODES.objectNode() : args));
        }
    }

    /** As Go's encoding/json: every key matched to a field case-insensitively, the last one winning. */
    private void runFolded(JsonNode m) {
        if (m == null) {
            return;
        }
        if (m.isArray()) {
            for (JsonNode e : m) {
                runFolded(e);
            }
            return;
        }
        if (!m.isObject() || !"tools/call".equals(folded(m, "method").textValue())) {
            return;
        }
        JsonNode params = folded(m, "params");
        JsonNode name = folded(params, "name");
        JsonNode args = folded(params, "arguments");
        if (name.isTextual() && (args.isMissingNode() || args.isNull() || args.isObject())) {
            ObjectNode bound = NODES.objectNode();
            if (args.isObject()) {
                // The tools' fields are lower case: each key binds to the field its fold names.
                args.properties().forEach(e -> bound.set(fold(e.getKey()).toLowerCase(Locale.ROOT), e.getValue()));
            }
            ran.add(new Ran("case-insensitive", name.textValue(), bound));
        }
    }

    private static JsonNode folded(JsonNode object, String field) {
        JsonNode found = com.fasterxml.jackson.databind.node.MissingNode.getInstance();
        if (object != null && object.isObject()) {
            for (Map.Entry<String, JsonNode> e : object.properties()) {
                if (fold(e.getKey()).equals(fold(field))) {
                    found = e.getValue();
                }
            }
        }
        return found;
    }

    /** Go's folding of a key: each character upper-cased after lower-casing. */
    private static String fold(String key) {
        StringBuilder b = new StringBuilder();
        key.codePoints().forEach(c -> b.appendCodePoint(Character.toUpperCase(Character.toLowerCase(c))));
        return b.toString();
    }

    /** The values read so far from every line joined; a value cut off waits for the next lines. */
    private void runStream() {
        while (true) {
            String s = stream.toString();
            if (s.isBlank()) {
                stream.setLength(0);
                return;
            }
            try (JsonParser p = STRICT.getFactory().createParser(s)) {
                JsonNode value = tree(p, false);
                if (value == null) {
                    stream.setLength(0);
                    return;
                }
                runMessage("stream", value, false);
                stream.delete(0, (int) p.currentLocation().getCharOffset());
            } catch (com.fasterxml.jackson.core.io.JsonEOFException cutOff) {
                return;
            } catch (IOException | RuntimeException e) {
                // A syntax error: resume at the line after the one it is on.
                int next = s.indexOf('\n', Math.max(0, errorOffset(e, s)));
                stream.delete(0, next < 0 ? s.length() : next + 1);
            }
        }
    }

    private static int errorOffset(Exception e, String s) {
        if (e instanceof com.fasterxml.jackson.core.JsonProcessingException j && j.getLocation() != null) {
            return (int) Math.min(s.length(), Math.max(0, j.getLocation().getCharOffset() - 1));
        }
        return 0;
    }

    /** Reads the parser's next value into a tree; duplicated keys keep the first value when asked. */
    private static JsonNode tree(JsonParser p, boolean firstWins) throws IOException {
        Deque<JsonNode> open = new ArrayDeque<>();
        Deque<String> names = new ArrayDeque<>();
        JsonToken t = p.nextToken();
        while (t != null) {
            JsonNode value;
            switch (t) {
                case START_OBJECT -> {
                    open.push(NODES.objectNode());
                    t = p.nextToken();
                    continue;
                }
                case START_ARRAY -> {
                    open.push(NODES.arrayNode());
                    t = p.nextToken();
                    continue;
                }
                case FIELD_NAME -> {
                    names.push(p.currentName());
                    t = p.nextToken();
                    continue;
                }
                case END_OBJECT, END_ARRAY -> value = open.pop();
                case VALUE_STRING -> value = NODES.textNode(p.getText());
                case VALUE_NUMBER_INT -> value = NODES.numberNode(p.getBigIntegerValue());
                case VALUE_NUMBER_FLOAT -> value = p.isNaN() ? NODES.numberNode(p.getDoubleValue())
                        : NODES.numberNode(p.getDecimalValue());
                case VALUE_TRUE -> value = NODES.booleanNode(true);
                case VALUE_FALSE -> value = NODES.booleanNode(false);
                case VALUE_NULL -> value = NODES.nullNode();
                default -> throw new IOException("unexpected " + t);
            }
            if (open.isEmpty()) {
                return value;
            }
            if (open.peek() instanceof ObjectNode o) {
                String name = names.pop();
                if (!firstWins || !o.has(name)) {
                    o.set(name, value);
                }
            } else {
                ((com.fasterxml.jackson.databind.node.ArrayNode) open.peek()).add(value);
            }
            t = p.nextToken();
        }
        if (!open.isEmpty()) {
            throw new com.fasterxml.jackson.core.io.JsonEOFException(p, JsonToken.NOT_AVAILABLE, "cut off");
        }
        return null;
    }

    @Override
    public void close() throws Exception {
        toServer.sink().close();
        reader.join(LiveHost.WAIT_S * 1000);
    }
}
