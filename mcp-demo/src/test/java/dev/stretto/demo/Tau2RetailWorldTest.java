package dev.stretto.demo;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.json.CanonicalJson;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.PrintStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The tau2-retail world as an MCP client sees it: its listing, τ²'s answers through the stdio
 * server, a database of each session's own (over HTTP, two sessions at once), and {@code --db}.
 */
class Tau2RetailWorldTest {
    private static final String INIT = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":"
            + "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},\"clientInfo\":{\"name\":\"test\",\"version\":\"1\"}}}";

    @TempDir
    Path tmp;

    private static String call(int id, String tool, JsonNode arguments) {
        ObjectNode message = CanonicalJson.mapper().createObjectNode();
        message.put("jsonrpc", "2.0").put("id", id).put("method", "tools/call");
        message.putObject("params").put("name", tool).set("arguments", arguments);
        return message.toString();
    }

    /** Runs the demo in this JVM on {@code lines}; its stdout lines, or the exit code and stderr when it is not 0. */
    private static List<String> serve(List<String> args, List<String> lines) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DemoMain.run(args, new ByteArrayInputStream((String.join("\n", lines) + "\n")
                .getBytes(StandardCharsets.UTF_8)), out, new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(0, code, err.toString(StandardCharsets.UTF_8));
        return out.toString(StandardCharsets.UTF_8).lines().toList();
    }

    private static JsonNode json(String text) {
        try {
            return CanonicalJson.mapper().readTree(text);
        } catch (IOException e) {
            throw new AssertionError(text, e);
        }
    }

    @Test
    void listsTau2sSixteenToolsWithTheirKinds() {
        List<String> out = serve(List.of("--world", "tau2-retail"),
                List.of(INIT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/list\"}"));
        JsonNode tools = json(out.get(1)).get("result").get("tools");
        assertEquals(16, tools.size());
        List<String> names = new ArrayList<>();
        tools.forEach(t -> names.add(t.get("name").textValue()));
        assertEquals(List.of("calculate", "cancel_pending_order", "exchange_delivered_order_items",
                "find_user_id_by_name_zip", "find_user_id_by_email", "get_order_details", "get_product_details",
                "get_item_details", "get_user_details", "list_all_product_types", "modify_pending_order_address",
                "modify_pending_order_items", "modify_pending_order_payment", "modify_user_address",
                "return_delivered_order_items", "transfer_to_human_agents"), names);
        assertEquals("{\"readOnlyHint\":true}", tools.get(5).get("annotations").toString());
        assertEquals("{\"readOnlyHint\":false}", tools.get(2).get("annotations").toString());
        assertEquals("{}", tools.get(0).get("annotations").toString());
        JsonNode exchange = tools.get(2).get("inputSchema");
        assertEquals("[\"order_id\",\"item_ids\",\"new_item_ids\",\"payment_method_id\"]",
                exchange.get("required").toString());
        assertEquals("{\"type\":\"string\"}", exchange.get("properties").get("item_ids").get("items").toString());
        assertEquals("array", exchange.get("properties").get("item_ids").get("type").textValue());
    }

    @Test
    void answersTasksAsTau2DoesThroughTheStdioServer() throws IOException {
        Path goldens = dev.stretto.demo.tau2.Tau2Data.dir().resolve("goldens.jsonl");
        List<JsonNode> calls = new ArrayList<>();
        for (String line : Files.readAllLines(goldens, StandardCharsets.UTF_8)) {
            JsonNode c = json(line);
            // Task 16 cancels two orders and returns items after reading them; task 4 changes items twice.
            if (Set.of("task 16", "task 4").contains(c.get("session").textValue())) {
                calls.add(c);
            }
        }
        for (String task : List.of("task 16", "task 4")) {
            List<JsonNode> session = calls.stream().filter(c -> c.get("session").textValue().equals(task)).toList();
            List<String> lines = new ArrayList<>(List.of(INIT));
            for (int i = 0; i < session.size(); i++) {
                lines.add(call(i + 1, session.get(i).get("tool").textValue(), session.get(i).get("arguments")));
            }
            List<String> out = serve(List.of("--world", "tau2-retail"), lines);
            assertEquals(session.size() + 1, out.size());
            for (int i = 0; i < session.size(); i++) {
                JsonNode result = json(out.get(i + 1)).get("result");
                assertEquals(session.get(i).get("text").textValue(), result.get("content").get(0).get("text").textValue(),
                        task + " call " + (i + 1));
                assertEquals(session.get(i).get("error").booleanValue(), result.get("isError").booleanValue());
            }
        }
    }

    @Test
    void eachHttpSessionHasItsOwnDatabase() throws Exception {
        McpHandler handler = new McpHandler(new ToolBox(new Tau2RetailWorld(dev.stretto.demo.tau2.RetailDb.bundled()),
                Set.of(), Map.of()));
        try (HttpTransport server = HttpTransport.start(handler, new InetSocketAddress("127.0.0.1", 0), Optional.empty(),
                Duration.ofSeconds(5)); HttpClient client = HttpClient.newHttpClient()) {
            URI uri = server.endpoint();
            String a = initialize(client, uri);
            String b = initialize(client, uri);
            ObjectNode cancel = CanonicalJson.mapper().createObjectNode().put("order_id", "#W5199551")
                    .put("reason", "no longer needed");
            ObjectNode read = CanonicalJson.mapper().createObjectNode().put("order_id", "#W5199551");
            assertTrue(toolText(client, uri, a, call(1, "cancel_pending_order", cancel)).contains("\"status\": \"cancelled\""));
            assertTrue(toolText(client, uri, a, call(2, "get_order_details", read)).contains("\"status\": \"cancelled\""));
            assertTrue(toolText(client, uri, b, call(1, "get_order_details", read)).contains("\"status\": \"pending\""));
            assertEquals("Error: Non-pending order cannot be cancelled",
                    toolText(client, uri, a, call(3, "cancel_pending_order", cancel)));
        }
    }

    private static String initialize(HttpClient client, URI uri) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).POST(HttpRequest.BodyPublishers.ofString(INIT))
                .build(), HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        return r.headers().firstValue("Mcp-Session-Id").orElseThrow();
    }

    private static String toolText(HttpClient client, URI uri, String session, String body) throws Exception {
        HttpResponse<String> r = client.send(HttpRequest.newBuilder(uri).header("Mcp-Session-Id", session)
                .header("MCP-Protocol-Version", "2025-06-18").POST(HttpRequest.BodyPublishers.ofString(body)).build(),
                HttpResponse.BodyHandlers.ofString());
        assertEquals(200, r.statusCode(), r.body());
        String[] events = r.body().split("\n\n");
        String last = events[events.length - 1].substring("event: message\ndata: ".length());
        return json(last).get("result").get("content").get(0).get("text").textValue();
    }

    @Test
    void servesTheDatabaseDbNames() throws IOException {
        Path db = tmp.resolve("db.json");
        Files.writeString(db, """
                {"products": {}, "orders": {}, "users": {"ada_1": {"user_id": "ada_1",
                 "name": {"first_name": "Ada", "last_name": "Lovelace"},
                 "address": {"address1": "1 St James's Square", "address2": "", "city": "London",
                             "country": "UK", "state": "", "zip": "SW1Y"},
                 "email": "ada@example.com",
                 "payment_methods": {"gift_card_1": {"source": "gift_card", "id": "gift_card_1", "balance": 12}},
                 "orders": []}}}
                """);
        ObjectNode email = CanonicalJson.mapper().createObjectNode().put("email", "ADA@example.com");
        ObjectNode user = CanonicalJson.mapper().createObjectNode().put("user_id", "ada_1");
        List<String> out = serve(List.of("--world", "tau2-retail", "--db", db.toString()),
                List.of(INIT, call(1, "find_user_id_by_email", email), call(2, "get_user_details", user)));
        assertEquals("ada_1", json(out.get(1)).get("result").get("content").get(0).get("text").textValue());
        assertEquals("{\"user_id\": \"ada_1\", \"name\": {\"first_name\": \"Ada\", \"last_name\": \"Lovelace\"}, "
                + "\"address\": {\"address1\": \"1 St James's Square\", \"address2\": \"\", \"city\": \"London\", "
                + "\"country\": \"UK\", \"state\": \"\", \"zip\": \"SW1Y\"}, \"email\": \"ada@example.com\", "
                + "\"payment_methods\": {\"gift_card_1\": {\"source\": \"gift_card\", \"id\": \"gift_card_1\", "
                + "\"balance\": 12.0}}, \"orders\": []}",
                json(out.get(2)).get("result").get("content").get(0).get("text").textValue());
    }

    @Test
    void aBadDatabaseOrADbWithoutTheWorldIsAUsageError() throws IOException {
        Path bad = tmp.resolve("bad.json");
        Files.writeString(bad, "{\"products\": {}, \"users\": {\"u\": {\"user_id\": 7}}, \"orders\": {}}");
        assertEquals("stretto-mcp-demo: --db " + bad + ": not a τ² retail database: users.u.name should be present"
                + " (see --help)", usageError("--world", "tau2-retail", "--db", bad.toString()));
        assertEquals("stretto-mcp-demo: --db " + tmp.resolve("none.json") + ": cannot read it: no such file (see --help)",
                usageError("--world", "tau2-retail", "--db", tmp.resolve("none.json").toString()));
        assertEquals("stretto-mcp-demo: --db needs --world tau2-retail (the only world with a database) (see --help)",
                usageError("--db", bad.toString()));
    }

    private static String usageError(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = DemoMain.run(List.of(args), new ByteArrayInputStream(new byte[0]), out,
                new PrintStream(err, true, StandardCharsets.UTF_8));
        assertEquals(2, code);
        assertEquals(0, out.size());
        return err.toString(StandardCharsets.UTF_8).strip();
    }
}
