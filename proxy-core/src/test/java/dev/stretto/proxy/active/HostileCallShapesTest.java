package dev.stretto.proxy.active;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.json.CanonicalJson;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every way a line can be a tools/call to some server, generated around two cancellations the
 * retail guards refuse (another customer's order, a reason the policy does not accept), sent by
 * a host authenticated as customer 7 with order {@code #W7a} looked up, to a {@link
 * ReadingServer} that records what each kind of server would have run on reading what the
 * proxy forwarded. Nothing the guards would refuse is run by any kind of server: each line is
 * checked as every server reads it, or refused. The controls show the same shapes with the
 * call the guards allow do run.
 */
class HostileCallShapesTest {

    private static final String GOOD = "{\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}";
    private static final String OTHERS_ORDER = "{\"order_id\":\"#W9a\",\"reason\":\"ordered by mistake\"}";
    private static final String BAD_REASON = "{\"order_id\":\"#W7a\",\"reason\":\"found it cheaper\"}";
    private static final String CANCEL = "cancel_pending_order";

    @TempDir
    Path tmp;

    /** One shape: the lines the host sends, and whether the guards' allowed cancellation is in it alone. */
    record Shape(String name, List<byte[]> lines, boolean runs) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Shape refused(String name, String... lines) {
        return new Shape(name, utf8(lines), false);
    }

    private static Shape runs(String name, String... lines) {
        return new Shape(name, utf8(lines), true);
    }

    private static List<byte[]> utf8(String... lines) {
        List<byte[]> out = new ArrayList<>();
        for (String l : lines) {
            out.add(l.getBytes(StandardCharsets.UTF_8));
        }
        return out;
    }

    private static String params(String args) {
        return "{\"name\":\"" + CANCEL + "\",\"arguments\":" + args + "}";
    }

    /** A tools/call with the envelope {@code head} (its id and method fields) and {@code params}. */
    private static String message(String head, String params) {
        return "{\"jsonrpc\":\"2.0\"," + head + ",\"params\":" + params + "}";
    }

    private static String call(String id, String args) {
        return message("\"id\":" + id + ",\"method\":\"tools/call\"", params(args));
    }

    static Stream<Shape> shapes() {
        List<Shape> s = new ArrayList<>();
        // Ids the spec does not allow, and numbers servers read apart.
        for (String id : List.of("null", "{\"k\":3}", "[1]", "[]", "{}", "true", "false", "1.5", "1e2", "1.0", "-0",
                "9007199254740993", "-9007199254740993", "1e400", "\"\"")) {
            s.add(refused("id " + id, call(id, OTHERS_ORDER)));
        }
        s.add(refused("no id (a notification)", message("\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("id 6 then null", message("\"id\":6,\"id\":null,\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("id null then 6", message("\"id\":null,\"id\":6,\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("escaped id key", message("\"\\u0069d\":null,\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("ID alone", message("\"ID\":6,\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("Id null and id", message("\"Id\":null,\"id\":7,\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        // The method, spelled otherwise.
        s.add(refused("method tools\\/call", message("\"id\":8,\"method\":\"tools\\/call\"", params(OTHERS_ORDER))));
        s.add(refused("method tools\\u002fcall", message("\"id\":9,\"method\":\"tools\\u002fcall\"", params(BAD_REASON))));
        s.add(refused("escaped method key", message("\"id\":10,\"\\u006dethod\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("Method alone", message("\"id\":11,\"Method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("METHOD alone", message("\"id\":12,\"METHOD\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("method ping then tools/call",
                message("\"id\":13,\"method\":\"ping\",\"method\":\"tools/call\"", params(OTHERS_ORDER))));
        s.add(refused("method tools/call then ping",
                message("\"id\":14,\"method\":\"tools/call\",\"method\":\"ping\"", params(OTHERS_ORDER))));
        s.add(refused("method tools/call then 5",
                message("\"id\":15,\"method\":\"tools/call\",\"method\":5", params(OTHERS_ORDER))));
        s.add(refused("method then Method",
                message("\"id\":16,\"method\":\"tools/call\",\"Method\":\"ping\"", params(OTHERS_ORDER))));
        // The params, duplicated or spelled otherwise.
        s.add(refused("params good then bad", message("\"id\":17,\"method\":\"tools/call\",\"params\":" + params(GOOD),
                params(OTHERS_ORDER))));
        s.add(refused("params bad then good", message("\"id\":18,\"method\":\"tools/call\",\"params\":"
                + params(OTHERS_ORDER), params(GOOD))));
        s.add(refused("Params alone", "{\"jsonrpc\":\"2.0\",\"id\":19,\"method\":\"tools/call\",\"Params\":"
                + params(OTHERS_ORDER) + "}"));
        s.add(refused("params then param\u017f (long s)", "{\"jsonrpc\":\"2.0\",\"id\":20,\"method\":\"tools/call\",\"params\":"
                + params(GOOD) + ",\"param\u017f\":" + params(OTHERS_ORDER) + "}"));
        s.add(refused("positional params", message("\"id\":21,\"method\":\"tools/call\"",
                "[\"" + CANCEL + "\"," + OTHERS_ORDER + "]")));
        s.add(refused("name read then cancel", message("\"id\":22,\"method\":\"tools/call\"",
                "{\"name\":\"get_order_details\",\"name\":\"" + CANCEL + "\",\"arguments\":" + OTHERS_ORDER + "}")));
        s.add(refused("name cancel then read", message("\"id\":23,\"method\":\"tools/call\"",
                "{\"name\":\"" + CANCEL + "\",\"name\":\"get_order_details\",\"arguments\":" + OTHERS_ORDER + "}")));
        s.add(refused("Name cancel", message("\"id\":24,\"method\":\"tools/call\"",
                "{\"name\":\"get_order_details\",\"Name\":\"" + CANCEL + "\",\"arguments\":" + OTHERS_ORDER + "}")));
        s.add(refused("arguments good then bad", message("\"id\":25,\"method\":\"tools/call\"",
                "{\"name\":\"" + CANCEL + "\",\"arguments\":" + GOOD + ",\"arguments\":" + OTHERS_ORDER + "}")));
        s.add(refused("arguments bad then good", message("\"id\":26,\"method\":\"tools/call\"",
                "{\"name\":\"" + CANCEL + "\",\"arguments\":" + OTHERS_ORDER + ",\"arguments\":" + GOOD + "}")));
        s.add(refused("arguments then Arguments", message("\"id\":27,\"method\":\"tools/call\"",
                "{\"name\":\"" + CANCEL + "\",\"arguments\":" + GOOD + ",\"Arguments\":" + OTHERS_ORDER + "}")));
        s.add(refused("arguments as a string", message("\"id\":28,\"method\":\"tools/call\"",
                "{\"name\":\"" + CANCEL + "\",\"arguments\":" + CanonicalJson.write(
                        com.fasterxml.jackson.databind.node.TextNode.valueOf(OTHERS_ORDER)) + "}")));
        s.add(refused("order_id twice, other last", call("29",
                "{\"order_id\":\"#W7a\",\"order_id\":\"#W9a\",\"reason\":\"ordered by mistake\"}")));
        s.add(refused("order_id twice, other first", call("30",
                "{\"order_id\":\"#W9a\",\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}")));
        s.add(refused("order_id then ORDER_ID", call("31",
                "{\"order_id\":\"#W7a\",\"ORDER_ID\":\"#W9a\",\"reason\":\"ordered by mistake\"}")));
        s.add(refused("ORDER_ID alone", call("32", "{\"ORDER_ID\":\"#W9a\",\"reason\":\"ordered by mistake\"}")));
        s.add(refused("reason then REASON", call("33",
                "{\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\",\"REASON\":\"found it cheaper\"}")));
        // How the line is framed and encoded.
        s.add(refused("byte order mark", "\uFEFF" + call("34", OTHERS_ORDER)));
        s.add(refused("NaN in an extra field", call("35", OTHERS_ORDER).replaceFirst("\\}$", ",\"x\":NaN}")));
        s.add(refused("a comment", "/* hi */" + call("36", OTHERS_ORDER)));
        s.add(refused("single quotes", call("37", OTHERS_ORDER).replace('"', '\'')));
        s.add(refused("a trailing comma", call("38", OTHERS_ORDER).replaceFirst("\\}\\}$", "},}")));
        s.add(refused("two messages on one line", "{\"jsonrpc\":\"2.0\",\"id\":39,\"method\":\"ping\"} "
                + call("40", OTHERS_ORDER)));
        s.add(refused("a carriage return inside", "{\"a\":1,\"b\":\r" + call("41", OTHERS_ORDER) + "\r}"));
        s.add(refused("split over three lines", "{\"jsonrpc\":\"2.0\",\"id\":42,\"method\":", "\"tools/call\"",
                ",\"params\":" + params(OTHERS_ORDER) + "}"));
        // Batches.
        s.add(refused("batch of one", "[" + call("50", OTHERS_ORDER) + "]"));
        s.add(refused("batch after a ping", "[{\"jsonrpc\":\"2.0\",\"id\":51,\"method\":\"ping\"}," + call("52", BAD_REASON) + "]"));
        s.add(refused("batch good and bad", "[" + call("53", GOOD) + "," + call("54", OTHERS_ORDER) + "]"));
        s.add(refused("batch with a null id", "[" + call("null", OTHERS_ORDER) + "]"));
        s.add(refused("nested batch", "[[" + call("55", OTHERS_ORDER) + "]]"));
        s.add(refused("batch of one id twice", "[" + call("56", GOOD) + "," + call("56", GOOD) + "]"));
        s.add(refused("batch holding a notification call", "[" + message("\"method\":\"tools/call\"", params(GOOD)) + "]"));

        // Controls: the allowed cancellation, in shapes every server reads alike.
        s.add(runs("plain", call("60", GOOD)));
        s.add(runs("string id", call("\"x-61\"", GOOD)));
        s.add(runs("method tools\\/call", message("\"id\":62,\"method\":\"tools\\/call\"", params(GOOD))));
        s.add(runs("escaped keys", message("\"\\u0069d\":63,\"\\u006dethod\":\"tools/call\"", params(GOOD))));
        s.add(runs("byte order mark", "\uFEFF" + call("64", GOOD)));
        s.add(runs("spaces and tabs", " {\t\"jsonrpc\" : \"2.0\" , \"id\" : 65 , \"method\" : \"tools/call\" , \"params\" : "
                + params(GOOD) + " }\t"));
        s.add(runs("extra fields", "{\"jsonrpc\":\"2.0\",\"id\":66,\"method\":\"tools/call\",\"x\":{\"method\":\"ping\"},"
                + "\"params\":{\"name\":\"" + CANCEL + "\",\"arguments\":" + GOOD + ",\"_meta\":{\"progressToken\":1}}}"));
        s.add(runs("batch of one", "[" + call("67", GOOD) + "]"));
        s.add(runs("batch with a ping", "[" + call("68", GOOD) + ",{\"jsonrpc\":\"2.0\",\"id\":69,\"method\":\"ping\"}]"));
        return s.stream();
    }

    /**
     * A policy that refuses what the guards refuse in these shapes: another customer's order,
     * a reason not accepted. Its conditions look up order_id and reason by JSON pointer.
     */
    private static final String POLICY = """
            {"rules": [
              {"id": "own-order", "tools": ["cancel_pending_order"], "arguments": {"/order_id": {"equals": "#W9a"}},
               "action": "deny"},
              {"id": "reason", "tools": ["cancel_pending_order"],
               "arguments": {"/reason": {"glob": "found*"}}, "action": "deny"}]}""";

    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void noServerRunsACallTheGuardsWouldRefuse(Shape shape) throws Exception {
        noServerRuns(shape, ActiveMode.builder().guards(Guards.forDomain("retail").orElseThrow()).build(), "guards");
    }

    /** The same shapes with a policy in place of the guards: each call is read as the policy reads it, or refused. */
    @ParameterizedTest(name = "{0}")
    @MethodSource("shapes")
    void noServerRunsACallThePolicyWouldRefuse(Shape shape) throws Exception {
        ActiveMode mode = ActiveMode.builder().toolPolicy(new ToolPolicy(
                dev.stretto.proxy.policy.PolicyReader.read(POLICY, "shapes.json"), null)).build();
        noServerRuns(shape, mode, "policy");
    }

    private void noServerRuns(Shape shape, ActiveMode mode, String what) throws Exception {
        List<ReadingServer.Ran> ran;
        List<String> received;
        try (ReadingServer server = new ReadingServer();
             LiveHost host = LiveHost.start(ProxyConfig.builder(server.spec()).record(tmp).domain("retail")
                     .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                     .active(mode).build())) {
            host.handshake();
            assertEquals("user_7", LiveHost.text(host.call(3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}")));
            host.call(4, "get_order_details", "{\"order_id\":\"#W7a\"}");
            for (byte[] line : shape.lines()) {
                ByteArrayOutputStream b = new ByteArrayOutputStream();
                b.writeBytes(line);
                b.write('\n');
                host.sendBytes(b.toByteArray());
            }
            // The server answers in order: once the ping's answer is back, it has read everything before it.
            host.send("{\"jsonrpc\":\"2.0\",\"id\":\"last\",\"method\":\"ping\"}");
            host.response("last");
            host.closeInput();
            assertEquals(0, host.exitStatus());
            ran = server.ran().stream().filter(r -> r.tool().equals(CANCEL)).toList();
            received = server.received();
        }
        JsonNode good = CanonicalJson.parse(GOOD);
        for (ReadingServer.Ran r : ran) {
            assertEquals(good, r.arguments(), "a " + r.reader() + " server ran a cancellation the " + what + " did not"
                    + " allow; the server got " + received);
        }
        if (shape.runs()) {
            assertTrue(ran.stream().anyMatch(r -> r.reader().equals("last-wins")), "the allowed call ran: " + received);
        } else {
            assertFalse(!ran.isEmpty(), "nothing of a refused line runs; the server got " + received);
        }
    }
}
