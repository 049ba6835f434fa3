package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.SessionLog;
import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.LogBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The conversion rules from log entries to episode events, other than turns. */
class EpisodeConversionTest {

    private static final String CALL = "{\"jsonrpc\":\"2.0\",\"id\":1,\"method\":\"tools/call\",\"params\":{\"name\":\"t\"}}";

    private static Event.ToolResult onlyResult(SessionLog log) {
        return Episode.of(log).events().stream()
                .filter(e -> e instanceof Event.ToolResult)
                .map(e -> (Event.ToolResult) e)
                .reduce((a, b) -> {
                    throw new AssertionError("more than one result");
                })
                .orElseThrow();
    }

    private static Event.ToolResult resultOf(String response) {
        return onlyResult(new LogBuilder().line(0, Source.CLIENT, CALL).line(1, Source.SERVER, response).build());
    }

    @Test
    void missingArgumentsBecomeAnEmptyObject() {
        SessionLog log = new LogBuilder().line(0, Source.CLIENT, CALL).build();
        assertEquals("{}", Episode.of(log).calls().getFirst().arguments().toString());
    }

    @Test
    void aJsonRpcErrorIsAnErrorWhoseContentIsItsMessage() {
        assertEquals(new Event.ToolResult("1", "t", true, "Unknown tool: t"),
                resultOf("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":-32602,\"message\":\"Unknown tool: t\"}}"));
    }

    @Test
    void aJsonRpcErrorWithoutAMessageIsWrittenAsJson() {
        assertEquals("{\"code\":-32000,\"data\":{\"a\":null,\"b\":1.5}}",
                resultOf("{\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"data\":{\"b\":1.50,\"a\":null},\"code\":-32000}}")
                        .content());
    }

    @Test
    void isErrorTrueIsAnError() {
        Event.ToolResult r = resultOf("{\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"Error: no\"}],"
                + "\"isError\":true}}");
        assertTrue(r.error());
        assertEquals("Error: no", r.content());
    }

    @Test
    void textItemsAreJoinedWithNewlinesAndOtherItemsSkipped() {
        Event.ToolResult r = resultOf("{\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"a\"},"
                + "{\"type\":\"image\",\"data\":\"xx\"},{\"type\":\"text\",\"text\":\"b\"}]}}");
        assertFalse(r.error());
        assertEquals("a\nb", r.content());
    }

    @Test
    void withoutTextItemsTheStructuredContentIsTheContent() {
        assertEquals("{\"n\":1,\"z\":[true]}", resultOf(
                "{\"id\":1,\"result\":{\"content\":[],\"structuredContent\":{\"z\":[true],\"n\":1}}}").content());
    }

    @Test
    void withNeitherTheWholeResultIsTheContent() {
        assertEquals("{\"content\":[{\"data\":\"xx\",\"type\":\"image\"}]}",
                resultOf("{\"id\":1,\"result\":{\"content\":[{\"type\":\"image\",\"data\":\"xx\"}]}}").content());
    }

    @Test
    void onlyTheFirstResponseToACallIsItsResult() {
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, CALL)
                .result(1, 1, "server's")
                .line(2, Source.PROXY, "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"proxy's\","
                        + "\"type\":\"text\"}],\"isError\":false}}")
                .build();
        assertEquals("server's", onlyResult(log).content());
    }

    @Test
    void aProxyRefusalIsTheResultAndMarksTheCallRefused() {
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, CALL)
                .line(1, Source.PROXY, "{\"id\":1,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"Refused by the "
                        + "policy check\",\"type\":\"text\"}],\"isError\":true}}")
                .build();
        assertTrue(Timeline.of(log).calls().getFirst().isRefused());
        assertTrue(onlyResult(log).error());
    }

    @Test
    void aNumberIdAndAStringIdAreDifferentCalls() {
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, CALL)
                .result(1, "\"1\"", "for the string id")
                .build();
        assertEquals(1, Episode.of(log).events().size());
    }

    @Test
    void aResponseFromTheClientIsNeverACallsResult() {
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, CALL)
                .line(1, Source.CLIENT, "{\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}")
                .build();
        assertEquals(1, Episode.of(log).events().size());
    }

    @Test
    void batchesAreReadMessageByMessage() {
        SessionLog log = new LogBuilder()
                .line(0, Source.CLIENT, "[" + CALL + ",{\"jsonrpc\":\"2.0\",\"id\":2,\"method\":\"tools/call\","
                        + "\"params\":{\"name\":\"u\",\"arguments\":{\"x\":1}}}]")
                .line(1, Source.SERVER, "[{\"id\":2,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"two\"}]}},"
                        + "{\"id\":1,\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"one\"}]}}]")
                .build();
        Episode ep = Episode.of(log);
        assertEquals(3, ep.events().size());
        assertEquals(List.of("1", "2"), ep.calls().stream().map(ToolCall::id).toList());
        assertEquals("two", ((Event.ToolResult) ep.events().get(1)).content());
    }

    @Test
    void contextLinesBecomeUserAndAssistantMessages() {
        SessionLog log = new LogBuilder()
                .user(0, "hi")
                .line(1, Source.CONTEXT, "{\"role\":\"user\",\"content\":[\"not\",\"text\"]}")
                .assistant(2, "hello")
                .line(3, Source.CONTEXT, "{\"role\":\"assistant\",\"content\":\"\"}")
                .line(4, Source.CONTEXT, "{\"role\":\"system\",\"content\":\"ignored\"}")
                .raw(5, Source.CONTEXT, "not json")
                .build();
        assertEquals(List.of(new Event.User("hi"), new Event.User(""),
                new Event.Assistant("hello", List.of(), null)), Episode.of(log).events());
    }

    @Test
    void theAgentModelComesFromTheHeaderElseClientInfoElseUnknown() {
        String init = "{\"jsonrpc\":\"2.0\",\"id\":0,\"method\":\"initialize\",\"params\":{\"clientInfo\":{\"name\":\"host\"}}}";
        assertEquals("m", Episode.of(new LogBuilder().agentModel("m").line(0, Source.CLIENT, init).build()).agentModel());
        assertEquals("host", Episode.of(new LogBuilder().line(0, Source.CLIENT, init).build()).agentModel());
        assertEquals("unknown", Episode.of(new LogBuilder().build()).agentModel());
    }

    @Test
    void theDomainComesFromTheHeaderElseMcp() {
        assertEquals("orders", Episode.of(new LogBuilder().domain("orders").build()).domain());
        assertEquals("mcp", Episode.of(new LogBuilder().build()).domain());
    }

    @Test
    void anEpisodeFromALogHasTheSessionAsIdAndNoRewardYet() {
        Episode ep = Episode.of(new LogBuilder().build());
        assertEquals("20260101T000000.000Z-1", ep.id());
        assertEquals("", ep.taskId());
        assertEquals(0, ep.trial());
        assertEquals(0.0, ep.reward());
        assertEquals(1.0, ep.withReward(1.0).reward());
    }
}
