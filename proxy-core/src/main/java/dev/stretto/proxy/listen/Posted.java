package dev.stretto.proxy.listen;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.stretto.proxy.http.JsonCompactor;
import dev.stretto.trace.json.JsonRpcId;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A POST body read as the transport's messages: one JSON-RPC message, or a batch of them (an
 * array, as revision 2025-03-26 allows). Each message keeps its bytes as the host sent them,
 * on one line (a body spread over several lines loses only the white space between tokens),
 * for the server.
 *
 * @param messages the messages, in the body's order
 * @param batch    whether the body was an array
 */
record Posted(List<Message> messages, boolean batch) {

    /** The kinds of message a host may POST. */
    enum Kind { REQUEST, NOTIFICATION, RESPONSE }

    /**
     * One message.
     *
     * @param kind        what it is
     * @param method      the method, for a request or notification
     * @param id          the id as JSON text, for a request or response
     * @param key         the id as servers tell ids apart ({@code 5} and {@code 5.0} are one)
     * @param progress    the key of {@code params._meta.progressToken}, for a request that has one
     * @param cancelled   the key of {@code params.requestId}, for {@code notifications/cancelled}
     * @param line        the bytes for the server, one line without terminator
     */
    record Message(Kind kind, String method, String id, String key, String progress, String cancelled, byte[] line) {

        boolean isInitialize() {
            return kind == Kind.REQUEST && "initialize".equals(method);
        }
    }

    /** The body is not JSON (JSON-RPC's parse error). */
    static final class NotJson extends Exception {
        NotJson(String message) {
            super(message);
        }
    }

    /** The body is JSON but not a message or batch of them (JSON-RPC's invalid request). */
    static final class NotMessage extends Exception {
        NotMessage(String message) {
            super(message);
        }
    }

    private static final JsonFactory FACTORY = new JsonFactory();
    private static final ObjectMapper JSON = new ObjectMapper(FACTORY);

    /** Whether the body is a single {@code initialize} request. */
    boolean isInitialize() {
        return !batch && messages.getFirst().isInitialize();
    }

    /** The requests among the messages. */
    List<Message> requests() {
        return messages.stream().filter(m -> m.kind() == Kind.REQUEST).toList();
    }

    static Posted parse(byte[] body) throws NotJson, NotMessage {
        List<byte[]> elements = new ArrayList<>();
        boolean batch;
        try (JsonParser p = FACTORY.createParser(body)) {
            JsonToken first = p.nextToken();
            if (first == null) {
                throw new NotJson("the body is empty");
            }
            batch = first == JsonToken.START_ARRAY;
            if (batch) {
                JsonToken t;
                while ((t = p.nextToken()) != JsonToken.END_ARRAY) {
                    if (t == null) {
                        throw new NotJson("the batch is not closed");
                    }
                    elements.add(slice(body, p));
                }
            } else {
                elements.add(slice(body, p));
            }
            if (p.nextToken() != null) {
                throw new NotJson("there is more after the message");
            }
        } catch (IOException e) {
            throw new NotJson("the body is not JSON");
        }
        if (elements.isEmpty()) {
            throw new NotMessage("the batch is empty");
        }
        List<Message> messages = new ArrayList<>();
        for (byte[] element : elements) {
            messages.add(message(element));
        }
        return new Posted(List.copyOf(messages), batch);
    }

    // The value the parser is at, as the bytes it came from.
    private static byte[] slice(byte[] body, JsonParser p) throws IOException {
        int start = (int) p.currentTokenLocation().getByteOffset();
        p.skipChildren();
        int end = (int) p.currentLocation().getByteOffset();
        return JsonCompactor.oneLine(Arrays.copyOfRange(body, start, end));
    }

    private static Message message(byte[] line) throws NotMessage {
        JsonNode node;
        try {
            node = JSON.readTree(line);
        } catch (IOException cannotHappen) {
            throw new NotMessage("a message is not JSON");
        }
        if (!node.isObject()) {
            throw new NotMessage("a message is not a JSON object");
        }
        if (!"2.0".equals(node.path("jsonrpc").textValue())) {
            throw new NotMessage("a message lacks \"jsonrpc\":\"2.0\"");
        }
        JsonNode method = node.get("method");
        JsonNode id = node.get("id");
        if (id != null && !(id.isTextual() || finite(id))) {
            throw new NotMessage("an id must be a string or a number");
        }
        String idText = id == null ? null : id.toString();
        String key = id == null ? null : JsonRpcId.flightKey(id);
        if (method != null) {
            if (!method.isTextual()) {
                throw new NotMessage("a method must be a string");
            }
            JsonNode params = node.get("params");
            if (params != null && !params.isObject() && !params.isArray()) {
                throw new NotMessage("params must be an object or an array");
            }
            if (id != null) {
                return new Message(Kind.REQUEST, method.textValue(), idText, key,
                        keyOf(node.path("params").path("_meta").get("progressToken")), null, line);
            }
            String cancelled = "notifications/cancelled".equals(method.textValue())
                    ? flightOf(node.path("params").get("requestId")) : null;
            return new Message(Kind.NOTIFICATION, method.textValue(), null, null, null, cancelled, line);
        }
        if (id != null && (node.has("result") || node.has("error"))) {
            return new Message(Kind.RESPONSE, null, idText, key, null, null, line);
        }
        throw new NotMessage("a message is neither a request, a notification nor a response");
    }

    /** The key of a progress token (a string or a number), or null for none. */
    static String keyOf(JsonNode token) {
        return flightOf(token);
    }

    private static String flightOf(JsonNode id) {
        return id == null || !(id.isTextual() || finite(id)) ? null : JsonRpcId.flightKey(id);
    }

    // 1e999 reads as infinity, which no JSON can say back.
    private static boolean finite(JsonNode n) {
        return n.isNumber() && (!n.isFloatingPointNumber() || Double.isFinite(n.doubleValue()));
    }
}
