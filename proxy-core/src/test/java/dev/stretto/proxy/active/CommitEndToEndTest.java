package dev.stretto.proxy.active;

import static dev.stretto.proxy.active.RetailGuardsEndToEndTest.onlyLog;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ProxyConfig;
import dev.stretto.proxy.ShutdownTimings;
import dev.stretto.proxy.UpstreamSpec;
import dev.stretto.proxy.guard.Guards;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogEntry;
import dev.stretto.trace.log.Payload;
import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code stretto_commit} through the real proxy in front of the real retail demo. */
class CommitEndToEndTest {

    private static final String LISTED = "{\"annotations\":{\"destructiveHint\":true,\"readOnlyHint\":false},"
            + "\"description\":\"Make several changes in one call, in order, once the user has confirmed all of them. Each"
            + " call is checked against the policy first; the first call that is refused or fails stops the rest. Returns"
            + " each call's result.\",\"inputSchema\":{\"properties\":{\"calls\":{\"items\":{\"properties\":{\"arguments\":"
            + "{\"type\":\"object\"},\"name\":{\"description\":\"One of the other tools.\",\"type\":\"string\"}},\"required\":"
            + "[\"name\",\"arguments\"],\"type\":\"object\"},\"minItems\":1,\"type\":\"array\"}},\"required\":[\"calls\"],"
            + "\"type\":\"object\"},\"name\":\"stretto_commit\"}";

    private static ProxyConfig.Builder config(Path logs, boolean guards) {
        ActiveMode.Builder mode = ActiveMode.builder().commit(true);
        if (guards) {
            mode.guards(Guards.forDomain("retail").orElseThrow());
        }
        return ProxyConfig.builder(Demo.retail()).record(logs).domain("retail")
                .shutdown(new ShutdownTimings(Duration.ofSeconds(5), Duration.ofSeconds(2)))
                .active(mode.build());
    }

    private static String cancel(String order, String reason) {
        return "{\"name\":\"cancel_pending_order\",\"arguments\":{\"order_id\":\"" + order + "\",\"reason\":\"" + reason + "\"}}";
    }

    private static String commit(String... calls) {
        return "{\"calls\":[" + String.join(",", calls) + "]}";
    }

    /** Customer 7 authenticated, with both orders looked up. */
    private static void customer7WithBothOrders(LiveHost host) throws Exception {
        assertEquals("user_7", LiveHost.text(host.call(3, "find_user_id_by_email", "{\"email\":\"c7@example.com\"}")));
        host.call(4, "get_user_details", "{\"user_id\":\"user_7\"}");
        host.call(5, "get_order_details", "{\"order_id\":\"#W7a\"}");
        host.call(6, "get_order_details", "{\"order_id\":\"#W7b\"}");
    }

    private static List<String> lines(SessionLog log, Source from) {
        List<String> out = new ArrayList<>();
        for (LogEntry e : log.entries()) {
            if (e.from() == from && e.payload() instanceof Payload.Message m) {
                out.add(m.json());
            }
        }
        return out;
    }

    @Test
    void theToolIsListedAfterTheServersOwnWhichAreUnchangedAndTheInstructionsMentionIt(@TempDir Path tmp) throws Exception {
        String listLine;
        JsonNode init;
        try (LiveHost host = LiveHost.start(config(tmp, false).build())) {
            init = host.ask(1, "initialize", "{\"protocolVersion\":\"2025-06-18\",\"capabilities\":{},"
                    + "\"clientInfo\":{\"name\":\"t\",\"version\":\"0\"}}");
            host.send(LiveHost.request(2, "tools/list", null));
            listLine = host.nextLine();
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        assertEquals("A demo server for stretto-proxy: two tools that echo their arguments. " + CommitTool.INSTRUCTIONS,
                init.path("result").path("instructions").asText());
        SessionLog log = onlyLog(tmp);
        List<String> server = lines(log, Source.SERVER);
        JsonNode original = CanonicalJson.parse(server.get(1));
        JsonNode listed = CanonicalJson.parse(listLine);
        assertEquals(original.get("id"), listed.get("id"));
        JsonNode tools = listed.path("result").path("tools");
        assertEquals(original.path("result").path("tools").size() + 1, tools.size());
        for (int i = 0; i < tools.size() - 1; i++) {
            assertEquals(original.path("result").path("tools").get(i), tools.get(i), "tool " + i + " as the server listed it");
        }
        assertEquals(LISTED, CanonicalJson.write(tools.get(tools.size() - 1)));
        assertEquals(CanonicalJson.write(listed), listLine, "written with sorted keys, compact");
        // The server's answer is logged first, then the proxy's, with the same id.
        List<String> proxy = lines(log, Source.PROXY);
        assertEquals(listLine, proxy.get(1));
        assertTrue(log.entries().indexOf(log.entries().stream().filter(e -> e.payload() instanceof Payload.Message m
                && m.json().equals(server.get(1))).findFirst().orElseThrow())
                < log.entries().indexOf(log.entries().stream().filter(e -> e.payload() instanceof Payload.Message m
                && m.json().equals(listLine)).findFirst().orElseThrow()));
    }

    @Test
    void aTwoCallCommitMakesBothCallsInOrderAndNeverForwardsItself(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(config(tmp, true).build())) {
            host.handshake();
            customer7WithBothOrders(host);
            JsonNode done = host.call(7, "stretto_commit", commit(cancel("#W7a", "ordered by mistake"),
                    cancel("#W7b", "no longer needed")));
            assertEquals("cancel_pending_order {\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}:\n"
                    + "{\"order_id\":\"#W7a\",\"status\":\"cancelled\"}\n\n"
                    + "cancel_pending_order {\"order_id\":\"#W7b\",\"reason\":\"no longer needed\"}:\n"
                    + "{\"order_id\":\"#W7b\",\"status\":\"cancelled\"}", LiveHost.text(done));
            assertFalse(done.path("result").path("isError").asBoolean());
            host.closeInput();
            assertEquals(0, host.exitStatus());
            assertTrue(host.received().stream().noneMatch(m -> m.path("id").asText().startsWith("stretto-")),
                    "the host never sees the proxy's own requests' answers");
        }
        SessionLog log = onlyLog(tmp);
        assertTrue(lines(log, Source.CLIENT).stream().anyMatch(l -> l.contains("stretto_commit")));
        assertEquals(List.of("{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                        + "{\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"},\"name\":\"cancel_pending_order\"}}",
                "{\"id\":\"stretto-2\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                        + "{\"order_id\":\"#W7b\",\"reason\":\"no longer needed\"},\"name\":\"cancel_pending_order\"}}"),
                lines(log, Source.PROXY).stream().filter(l -> l.contains("\"id\":\"stretto-")).toList());
        Episode ep = Episode.of(log);
        assertEquals(List.of("stretto_commit", "cancel_pending_order", "cancel_pending_order"),
                ep.calls().subList(4, 7).stream().map(c -> c.name()).toList());
    }

    @Test
    void aCommitWhoseSecondCallIsRefusedStopsThereAndReportsTheThirdNotRun(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(config(tmp, true).build())) {
            host.handshake();
            customer7WithBothOrders(host);
            JsonNode done = host.call(7, "stretto_commit", commit(cancel("#W7a", "ordered by mistake"),
                    cancel("#W7b", "found it cheaper"), cancel("#W7b", "no longer needed")));
            assertEquals("cancel_pending_order {\"order_id\":\"#W7a\",\"reason\":\"ordered by mistake\"}:\n"
                    + "{\"order_id\":\"#W7a\",\"status\":\"cancelled\"}\n\n"
                    + "cancel_pending_order {\"order_id\":\"#W7b\",\"reason\":\"found it cheaper\"} was refused by the"
                    + " policy check: 'found it cheaper' is not an accepted reason (policy check retail.cancel_reason)\n\n"
                    + "cancel_pending_order {\"order_id\":\"#W7b\",\"reason\":\"no longer needed\"} was not run",
                    LiveHost.text(done));
            assertTrue(done.path("result").path("isError").asBoolean());
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        assertEquals(1, lines(onlyLog(tmp), Source.PROXY).stream().filter(l -> l.contains("\"method\":\"tools/call\"")).count(),
                "only the first call was made");
    }

    @Test
    void invalidInputIsAnsweredWithTheExactMessageAndRunsNothing(@TempDir Path tmp) throws Exception {
        List<String> invalid = List.of("{}", "{\"calls\":[]}", "{\"calls\":{}}", "{\"calls\":[{\"arguments\":{}}]}",
                "{\"calls\":[{\"name\":\"stretto_commit\",\"arguments\":{}}]}",
                "{\"calls\":[{\"name\":\"get_order_details\",\"arguments\":[]}]}");
        try (LiveHost host = LiveHost.start(config(tmp, false).build())) {
            host.handshake();
            int id = 10;
            for (String args : invalid) {
                JsonNode answer = host.call(id++, "stretto_commit", args);
                assertEquals(CommitTool.INVALID, LiveHost.text(answer), args);
                assertTrue(answer.path("result").path("isError").asBoolean());
            }
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        assertTrue(lines(onlyLog(tmp), Source.PROXY).stream().noneMatch(l -> l.contains("stretto-1")), "nothing was run");
        assertEquals("stretto_commit takes {\"calls\": [{\"name\": tool, \"arguments\": {...}}, ...]}, one or more calls"
                + " of the server's tools; nothing was run.", CommitTool.INVALID);
    }

    @Test
    void withoutGuardsAFailedCallStopsTheCommitAndMissingArgumentsAreEmpty(@TempDir Path tmp) throws Exception {
        try (LiveHost host = LiveHost.start(config(tmp, false).build())) {
            host.handshake();
            JsonNode done = host.call(3, "stretto_commit", commit("{\"name\":\"get_order_details\"}",
                    cancel("#X1", "no longer needed"), cancel("#W1a", "no longer needed")));
            assertEquals("get_order_details {} (error):\nError: Missing argument: order_id (a string)\n\n"
                    + "cancel_pending_order {\"order_id\":\"#X1\",\"reason\":\"no longer needed\"} was not run\n\n"
                    + "cancel_pending_order {\"order_id\":\"#W1a\",\"reason\":\"no longer needed\"} was not run",
                    LiveHost.text(done));
            host.closeInput();
            assertEquals(0, host.exitStatus());
        }
        Episode ep = Episode.of(onlyLog(tmp));
        assertTrue(ep.events().stream().anyMatch(e -> e instanceof Event.ToolResult r && r.callId().equals("stretto-1")
                && r.error()));
    }

    @Test
    void aServerThatDiesMidCommitEndsItWithWhatItHas(@TempDir Path tmp) throws Exception {
        // Answers the first of the proxy's calls, and exits on reading the second.
        String script = "while IFS= read -r l; do case \"$l\" in"
                + " *stretto-1*) printf '%s\\n' '{\"id\":\"stretto-1\",\"jsonrpc\":\"2.0\",\"result\":{\"content\":"
                + "[{\"text\":\"one\",\"type\":\"text\"}],\"isError\":false}}';;"
                + " *stretto-2*) exit 4;; esac; done";
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("sh", "-c", script)).record(tmp)
                .active(ActiveMode.builder().commit(true).build()).build();
        try (LiveHost host = LiveHost.start(config)) {
            JsonNode done = host.call(1, "stretto_commit", commit("{\"name\":\"a\",\"arguments\":{}}",
                    "{\"name\":\"b\",\"arguments\":{}}", "{\"name\":\"c\",\"arguments\":{}}"));
            assertEquals("a {}:\none\n\nb {} got no answer from the server\n\nc {} was not run", LiveHost.text(done));
            assertTrue(done.path("result").path("isError").asBoolean());
            assertEquals(4, host.exitStatus(), "the proxy exits with the server's status, the host's input still open");
        }
    }
}
