package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Predicate;

/**
 * The MCP host's side of a proxy process: writes lines to its stdin, reads what the proxy
 * writes to stdout as JSON-RPC messages, and keeps both in order for the checks.
 */
final class Host {
    final Proc proxy;
    /** Every line the host sent, as sent. */
    final List<String> sent = new ArrayList<>();
    /** Every line the host received, in order. */
    final List<String> received = new ArrayList<>();

    Host(Proc proxy) {
        this.proxy = proxy;
    }

    void send(String line) throws IOException {
        sent.add(line);
        proxy.send(line);
    }

    /** The next message from the proxy (failing the test if none comes in time). */
    JsonNode next() throws Exception {
        String line = proxy.nextLine();
        received.add(line);
        return SessionLogFile.JSON.readTree(line);
    }

    /** Reads messages up to and including the first that {@code stop} accepts; returns them all. */
    List<JsonNode> until(Predicate<JsonNode> stop) throws Exception {
        List<JsonNode> read = new ArrayList<>();
        JsonNode m;
        do {
            m = next();
            read.add(m);
        } while (!stop.test(m));
        return read;
    }

    /** Reads up to the response with {@code id}; returns everything read, the response last. */
    List<JsonNode> untilResponse(int id) throws Exception {
        return until(m -> isResponse(m, id));
    }

    /** The response with {@code id}, skipping the notifications before it. */
    JsonNode response(int id) throws Exception {
        return untilResponse(id).getLast();
    }

    static boolean isResponse(JsonNode m, int id) {
        return !m.has("method") && m.path("id").isInt() && m.get("id").asInt() == id;
    }

    static boolean isMethod(JsonNode m, String method) {
        return method.equals(m.path("method").asText(null));
    }

    static String initialize(int id, String version, String capabilities) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"initialize\",\"params\":{\"protocolVersion\":\""
                + version + "\",\"capabilities\":" + capabilities + ",\"clientInfo\":{\"name\":\"it-host\",\"version\":\"0\"}}}";
    }

    static final String INITIALIZED = "{\"jsonrpc\":\"2.0\",\"method\":\"notifications/initialized\"}";

    static String request(int id, String method, String params) {
        return "{\"jsonrpc\":\"2.0\",\"id\":" + id + ",\"method\":\"" + method + "\""
                + (params == null ? "" : ",\"params\":" + params) + "}";
    }

    static String call(int id, String tool, String arguments) {
        return request(id, "tools/call", "{\"name\":\"" + tool + "\",\"arguments\":" + arguments + "}");
    }

    /** Checks that the log holds every line the host sent, verbatim and in order, as client entries. */
    void assertEverySentLineLogged(SessionLogFile log) {
        List<String> logged = new ArrayList<>();
        for (int i : log.indexesFrom("client")) {
            logged.add(log.messageText(i));
        }
        assertEquals(sent, logged, "the host's lines, verbatim and in order, as client entries");
    }

    /** Checks that the log's server and proxy entries are what the host received, in order. */
    void assertEveryReceivedLineLogged(SessionLogFile log) throws Exception {
        List<JsonNode> logged = new ArrayList<>();
        for (int i = 0; i < log.entries().size(); i++) {
            String from = log.entries().get(i).path("from").asText();
            if (from.equals("server") || from.equals("proxy")) {
                logged.add(log.entries().get(i).get("message"));
            }
        }
        List<JsonNode> got = new ArrayList<>();
        for (String line : received) {
            got.add(SessionLogFile.JSON.readTree(line));
        }
        // The log may hold lines the host had not read yet when the test stopped reading.
        assertEquals(got, logged.subList(0, Math.min(got.size(), logged.size())),
                "what the host received is logged, in the same order");
    }

    static ObjectNode object() {
        return SessionLogFile.JSON.createObjectNode();
    }
}
