package dev.stretto.it;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * τ²'s retail tools through the launchers: bin/stretto-proxy with the retail guards in front of
 * bin/stretto-mcp-demo --world tau2-retail, replaying task 16's expert calls (a user found by
 * name and zip, three orders read, two cancelled, items of a third returned). Every answer is
 * τ²'s own, from testdata/tau2-retail/goldens.jsonl; two writes the policy forbids, sent among
 * them, are refused without reaching the server; and the next session starts on a fresh copy of
 * the database, its orders pending again.
 */
class Tau2RetailIT {

    private static List<JsonNode> task(String id) throws Exception {
        List<JsonNode> calls = new ArrayList<>();
        for (String line : Files.readAllLines(Repo.root().resolve("testdata/tau2-retail/goldens.jsonl"),
                StandardCharsets.UTF_8)) {
            JsonNode c = SessionLogFile.JSON.readTree(line);
            if (c.get("session").textValue().equals("task " + id)) {
                calls.add(c);
            }
        }
        return calls;
    }

    private static Proc proxy() throws Exception {
        return Proc.proxy(Map.of(), "--domain", "retail", "--guards", "--", Repo.bin("stretto-mcp-demo"), "--world",
                "tau2-retail");
    }

    private static JsonNode result(Host host, int id, String tool, String arguments) throws Exception {
        host.send(Host.call(id, tool, arguments));
        return host.response(id).get("result");
    }

    @Test
    void aTaskGetsTau2sAnswersAndTheGuardsRefuseWhatThePolicyForbids() throws Exception {
        List<JsonNode> calls = task("16");
        try (Proc p = proxy()) {
            Host host = new Host(p);
            host.send(Host.initialize(0, "2025-06-18", "{}"));
            host.response(0);
            host.send(Host.INITIALIZED);
            int id = 1;
            boolean mutated = false;
            for (JsonNode c : calls) {
                String tool = c.get("tool").textValue();
                if (tool.equals("cancel_pending_order") && !mutated) {
                    mutated = true;
                    JsonNode refused = result(host, 100, tool, c.get("arguments").deepCopy()
                            .<com.fasterxml.jackson.databind.node.ObjectNode>require().put("reason", "found it cheaper")
                            .toString());
                    assertTrue(refused.get("content").get(0).get("text").textValue()
                            .endsWith("'found it cheaper' is not an accepted reason (policy check retail.cancel_reason)."),
                            refused.toString());
                    // Another user's pending order, looked up first, so that whose it is can be seen.
                    result(host, 101, "get_order_details", "{\"order_id\":\"#W6779827\"}");
                    JsonNode other = result(host, 102, tool, "{\"order_id\":\"#W6779827\",\"reason\":\"no longer needed\"}");
                    assertTrue(other.get("content").get(0).get("text").textValue().contains(
                            "the order belongs to ethan_lopez_6291, not the authenticated user (policy check retail.own_order)"),
                            other.toString());
                }
                JsonNode r = result(host, id++, tool, c.get("arguments").toString());
                assertEquals(c.get("text").textValue(), r.get("content").get(0).get("text").textValue(),
                        "call " + (id - 1) + " " + tool);
                assertEquals(c.get("error").booleanValue(), r.get("isError").booleanValue());
            }
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
            assertTrue(mutated);
            assertTrue(p.stderr().contains("stretto-proxy: refused cancel_pending_order"), p.stderr());
        }
        try (Proc p = proxy()) {
            Host host = new Host(p);
            host.send(Host.initialize(0, "2025-06-18", "{}"));
            host.response(0);
            JsonNode r = result(host, 1, "get_order_details", "{\"order_id\":\"#W5199551\"}");
            assertEquals(calls.get(2).get("text").textValue(), r.get("content").get(0).get("text").textValue(),
                    "a new session reads the order as the database has it, pending");
            p.closeStdin();
            assertEquals(0, p.waitFor(), p.stderr());
        }
    }
}
