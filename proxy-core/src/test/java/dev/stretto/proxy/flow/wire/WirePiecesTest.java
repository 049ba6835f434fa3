package dev.stretto.proxy.flow.wire;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.node.IntNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.databind.node.TextNode;
import dev.stretto.proxy.flow.decide.Decision;
import dev.stretto.proxy.flow.decide.Policy;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Lookups on the wire, the appended item and the flow log's lines (formats 3.6, 3.7). */
class WirePiecesTest {

    @Test
    void aLookupRequestHasSortedKeysAndTheProxysId() {
        assertEquals("{\"id\":\"stretto-12\",\"jsonrpc\":\"2.0\",\"method\":\"tools/call\",\"params\":{\"arguments\":"
                        + "{\"a\":\"\u00e9\\u0001\",\"b\":1.0},\"name\":\"get_x\"}}",
                LookupRequest.line(12, "get_x", CanonicalJson.parse("{\"b\":1.0,\"a\":\"\u00e9\\u0001\"}")));
    }

    @Test
    void aLookupsTextJoinsEveryItemWithTextAndAnErrorIsItsMessage() {
        assertEquals(new LookupAnswer("one\ntwo", false), LookupAnswer.of(CanonicalJson.parse(
                "{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"one\"},{\"type\":\"image\",\"data\":\"x\"},"
                        + "{\"type\":\"resource\",\"text\":\"two\"}]}}")));
        assertEquals(new LookupAnswer("nope", true), LookupAnswer.of(CanonicalJson.parse(
                "{\"result\":{\"content\":[{\"type\":\"text\",\"text\":\"nope\"}],\"isError\":true}}")));
        assertEquals(new LookupAnswer("not found", true), LookupAnswer.of(CanonicalJson.parse(
                "{\"error\":{\"code\":-32602,\"message\":\"not found\"}}")));
        assertEquals(new LookupAnswer("error", true), LookupAnswer.of(CanonicalJson.parse("{\"error\":{\"code\":1}}")));
        assertEquals(new LookupAnswer("", false), LookupAnswer.of(CanonicalJson.parse("{\"result\":{}}")));
    }

    @Test
    void theAppendedItemListsEachLookupAndGoesLastInTheContent() {
        List<Appendix.Made> made = List.of(
                new Appendix.Made("get_user_details", CanonicalJson.parse("{\"user_id\":\"user_41\"}"),
                        new LookupAnswer("{\"a\":1}", false)),
                new Appendix.Made("get_order_details", CanonicalJson.parse("{\"order_id\":\"#1\"}"),
                        new LookupAnswer("boom", true)));
        assertEquals("--- Also looked up automatically (current results; no need to repeat these calls) ---\n\n"
                + "get_user_details {\"user_id\":\"user_41\"}:\n{\"a\":1}\n\n"
                + "get_order_details {\"order_id\":\"#1\"} (error):\nboom", Appendix.text(made));
        String reply = Appendix.reply(CanonicalJson.parse(
                "{\"jsonrpc\":\"2.0\",\"id\":7,\"result\":{\"isError\":false,\"content\":[{\"type\":\"text\",\"text\":\"ok\"}],"
                        + "\"n\":1.50}}"), made.subList(0, 1));
        assertEquals("{\"id\":7,\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":\"ok\",\"type\":\"text\"},"
                + "{\"text\":\"" + Appendix.HEADER + "\\n\\nget_user_details {\\\"user_id\\\":\\\"user_41\\\"}:\\n"
                + "{\\\"a\\\":1}\",\"type\":\"text\"}],\"isError\":false,\"n\":1.5}}", reply);
    }

    @Test
    void aResultWithoutContentGetsOne() {
        String reply = Appendix.reply(CanonicalJson.parse("{\"id\":\"a\",\"result\":{\"structuredContent\":{}}}"),
                List.of(new Appendix.Made("t", CanonicalJson.parse("{}"), new LookupAnswer("x", false))));
        assertEquals("{\"id\":\"a\",\"result\":{\"content\":[{\"text\":\"" + Appendix.HEADER + "\\n\\nt {}:\\nx\","
                + "\"type\":\"text\"}],\"structuredContent\":{}}}", reply);
    }

    @Test
    void aDecisionLineCarriesThePolicyAndShadowWhenTheyApply() {
        ObjectNode args = (ObjectNode) CanonicalJson.parse("{\"order_id\":\"#W1\"}");
        Policy policy = new Policy("reach", 0.3, 0.1, true, null, 0.025, "t-1", 4, List.of(
                new Policy.Option("get_order_details", 0.5, 0.25, 0.9, args, null),
                new Policy.Option("get_user_details", 0.0, 0.125, null, null, "already looked up")));
        Decision d = new Decision(true, "get_order_details", args, null, "get_user_details",
                Map.of("get_order_details", 0.5, "respond", 0.0), 0.5, 0.9, null, Map.of(), null, policy);
        assertEquals("{\"action\":\"lookup\",\"address\":\"decide#2\",\"after\":\"req-9\",\"arguments\":{\"order_id\":\"#W1\"},"
                + "\"binding\":0.9,\"key\":null,\"ms\":12,\"oracle\":{},\"policy\":{\"decider\":\"reach\",\"epsilon\":0.1,"
                + "\"events\":4,\"explored\":true,\"greedy\":null,\"options\":[{\"arguments\":{\"order_id\":\"#W1\"},"
                + "\"binding\":0.9,\"habit\":0.25,\"p\":0.5,\"tool\":\"get_order_details\"},{\"arguments\":null,"
                + "\"binding\":null,\"habit\":0.125,\"p\":0.0,\"tool\":\"get_user_details\",\"unbound\":"
                + "\"already looked up\"}],\"propensity\":0.025,\"task_id\":\"t-1\",\"threshold\":0.3},"
                + "\"predicates\":{},\"prob\":0.5,\"probs\":{\"get_order_details\":0.5,\"respond\":0.0},\"shadow\":true,"
                + "\"site\":\"get_user_details\",\"tool\":\"get_order_details\"}",
                FlowLogLines.decision(d, TextNode.valueOf("req-9"), 2, 12, true));
    }

    @Test
    void aRunLineListsItsSitesAndSurprise() {
        RunRecord run = new RunRecord("find_user_id_by_email", true, 8, List.of(new RunRecord.Decide(0, 3),
                new RunRecord.Outcome(0, false, -2.0794415416798357), new RunRecord.Decide(1, 0)));
        assertEquals("{\"after\":3,\"run\":{\"call\":\"find_user_id_by_email\",\"failed\":true,\"max_lookups\":8,"
                + "\"sites\":[[\"decide#0\",3,0.0],[\"outcome#0\",false,-2.0794415416798357],[\"decide#1\",0,0.0]],"
                + "\"surprise\":2.0794415416798357}}", FlowLogLines.run(IntNode.valueOf(3), run));
        assertEquals("-0.0", CanonicalJson.formatDouble(new RunRecord("x", false, 8, List.of()).surprise()));
    }
}
