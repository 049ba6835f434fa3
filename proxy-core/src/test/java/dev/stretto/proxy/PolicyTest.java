package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.trace.log.SessionLog;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The policy as the API hands it to a harness: read from a file, built in code, given to any
 * number of sessions through {@link ActiveSettings.Builder#policy}, its verdicts read back
 * from the session's recording and replayed.
 */
class PolicyTest {

    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    @Test
    void aPolicyFileIsReadWithWhatItHolds() throws Exception {
        Path file = tmp.resolve("p.yaml");
        Files.writeString(file, "rules:\n  - {id: no-writes, tools: [\"write_*\"], action: deny}\n"
                + "  - {id: ask, annotations: {readOnlyHint: false}, action: ask}\n"
                + "budgets:\n  - {id: b, per_minute: 10, action: log}\npinning: log\nask_timeout: 2.5\n");
        Policy p = Policy.read(file);
        assertEquals(file.toString(), p.source());
        Map<String, PolicyAction> actions = new LinkedHashMap<>();
        actions.put("no-writes", PolicyAction.DENY);
        actions.put("ask", PolicyAction.ASK);
        actions.put("b", PolicyAction.LOG);
        assertEquals(actions, p.actions());
        assertEquals("log", p.pinning());
        assertEquals(java.time.Duration.ofMillis(2500), p.askTimeout());
        assertTrue(p.asks());
        assertEquals("deny", p.document().at("/rules/0/action").asText(), "the YAML as a JSON document");
    }

    @Test
    void aPolicyBuiltInCodeIsCheckedAsAFileIs() throws Exception {
        ObjectNode doc = JSON.createObjectNode();
        doc.putArray("rules").addObject().put("id", "x").put("tools", "move_file").put("action", "hide");
        PolicyException e = assertThrows(PolicyException.class, () -> Policy.of(doc, "the harness's policy"));
        assertEquals(List.of(new PolicyProblem("the harness's policy", 0, 0, "at /rules/0/tools: tools is a list of tool"
                + " names or globs, such as [\"read_*\"] (leave it out for every tool)")), e.problems());
        ((ObjectNode) doc.at("/rules/0")).putArray("tools").add("move_file");
        Policy p = Policy.of(doc, "the harness's policy");
        doc.removeAll();
        assertEquals(PolicyAction.HIDE, p.actions().get("x"), "the document was copied");
    }

    @Test
    void aSessionAppliesThePolicyAndItsVerdictsAreInTheRecording() throws Exception {
        Policy p = Policy.parse("{\"rules\": [{\"id\": \"no-writes\", \"tools\": [\"write_*\"], \"action\": \"deny\","
                + " \"reason\": \"this session only reads\"}]}", "reads.json");
        MemoryRecording recording = new MemoryRecording();
        ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("cat"))
                .active(ActiveSettings.builder().policy(p).build())
                .recordTo(recording)
                .build();
        String write = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"write_file\","
                + "\"arguments\":{\"path\":\"/a\"}}}";
        String read = "{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\",\"params\":{\"name\":\"read_file\","
                + "\"arguments\":{\"path\":\"/a\"}}}";
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Proxy.run(config, new ByteArrayInputStream((write + "\n" + read + "\n").getBytes(StandardCharsets.UTF_8)), out);
        assertEquals("{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the policy check, so"
                + " write_file was not run and nothing changed: this session only reads (policy rule no-writes).\","
                + "\"type\":\"text\"}],\"isError\":true}}\n" + read + "\n", out.toString(StandardCharsets.UTF_8),
                "cat echoes what reaches it: the write never did");
        SessionLog log = recording.sessionLog();
        List<PolicyVerdict> verdicts = PolicyVerdict.in(log);
        assertEquals(1, verdicts.size());
        assertEquals(new PolicyVerdict(verdicts.getFirst().tMs(), PolicyVerdict.Kind.CALL, "write_file", "1",
                JSON.readTree("{\"path\":\"/a\"}"), PolicyAction.DENY, "no-writes", List.of("no-writes"),
                "this session only reads", null, null), verdicts.getFirst());
        PolicyReplay replay = PolicyReplay.of(log, p);
        assertEquals(2, replay.calls());
        assertEquals(List.of("write_file"), replay.verdicts().stream().map(PolicyVerdict::name).toList());
    }
}
