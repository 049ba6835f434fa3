package dev.stretto.proxy.flow.arbiter;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.stretto.proxy.flow.FlowTesting;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.Sites;
import dev.stretto.proxy.oracle.Question;
import dev.stretto.proxy.oracle.Request;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.manifest.Manifest;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class NextStepRequestTest {

    static final String ARBITER = "retail-5-sessions-shipped-arbiter.flow.json";

    private static final String CTX = "A customer-service agent is working on the customer's request. Between its"
            + " messages to the customer it can look things up with tools. It makes changes (cancellations,"
            + " modifications, exchanges, returns, bookings) and transfers only after the customer confirms them.";

    private static ToolCall call(String id, String tool, String args) {
        return new ToolCall(id, tool, CanonicalJson.parse(args));
    }

    private static Episode episode(Event... events) {
        return new Episode("s", "s", 0, "retail", "m", 0.0, List.of(events));
    }

    @Test
    void theQuestionsAreWordForWordWithTheToolQuestionAtASiteOfTwoLookups() {
        Flow flow = FlowTesting.flow(ARBITER);
        Episode e = episode(new Event.User("Where is order #W1?"),
                new Event.Assistant(null, List.of(call("3", "get_order_details", "{\"order_id\":\"#W1\"}")), null),
                new Event.ToolResult("3", "get_order_details", false, "{\"status\":\"pending\"}"));
        Request r = new NextStepRequest(flow).request(new Sites.Site("get_order_details", false),
                List.of("get_order_details", "get_product_details"), e);
        assertEquals("jev-latest", r.model());
        assertEquals(List.of("go_on", "next", "pred_list_pending", "pred_must_ask", "pred_needs_options", "tool"),
                List.copyOf(r.questions().keySet()));
        String lead = CTX + " It has just received the result of `get_order_details`. ";
        String orderDoc = "Get the status and details of an order.";
        String productDoc = flow.manifest().docs().get("get_product_details").summary();
        assertEquals(new Question.Choice(lead + "What does it do next? Pick the lookup it makes now, or 'respond' if"
                + " it hands back.", Map.of(
                "respond", "Hand back: the agent writes to the customer now (to ask for missing details or a"
                        + " confirmation, report what it found, or answer), or it makes a change or a transfer.",
                "get_order_details", orderDoc,
                "get_product_details", Clip.clip(productDoc, 250))), r.questions().get("next"));
        assertEquals(new Question.Noul(lead + "Does it make another lookup now, before it writes to the customer or"
                + " makes any change?", new Question.NoulCriteria(
                "It still needs information it can look up before it can reply or act.",
                "It has what it needs for now: it writes to the customer, or makes a change.")),
                r.questions().get("go_on"));
        assertEquals(new Question.Choice(lead + "Suppose it makes one more lookup now: which one?", Map.of(
                "get_order_details", orderDoc, "get_product_details", Clip.clip(productDoc, 250))),
                r.questions().get("tool"));
        assertEquals(new Question.Noul(CTX + " Does the agent need something only the customer can give before any"
                + " further lookup would help, such as identification, a choice between options, or a confirmation?",
                new Question.NoulCriteria("The next useful step is a question to the customer.",
                        "The agent can make progress with lookups alone.")), r.questions().get("pred_must_ask"));
    }

    @Test
    void aFailedCallIsToldAsAnErrorAndOneLookupAsksNoToolQuestion() {
        Flow flow = FlowTesting.flow(ARBITER);
        Episode e = episode(new Event.Assistant(null, List.of(call("1", "find_user_id_by_email", "{}")), null),
                new Event.ToolResult("1", "find_user_id_by_email", true, "Error: User not found"));
        Request r = new NextStepRequest(flow).request(new Sites.Site("find_user_id_by_email", true),
                List.of("get_user_details"), e);
        assertFalse(r.questions().containsKey("tool"));
        assertEquals(CTX + " Its last tool call, `find_user_id_by_email`, returned an error. Does it make another"
                + " lookup now, before it writes to the customer or makes any change?",
                r.questions().get("go_on").instructions());
    }

    @Test
    void aSiteThatOffersNothingAsksNothing() {
        NextStepRequest requests = new NextStepRequest(FlowTesting.flow(ARBITER));
        assertThrows(IllegalArgumentException.class,
                () -> requests.request(new Sites.Site("calculate", false), List.of(), episode()));
    }

    @Test
    void aLookupWithoutSummaryIsCalledByNameAndFeedsAreHinted() {
        Flow shop = FlowTesting.flow("home/shop.flow.json");
        Sites s = shop.sites();
        Flow fed = FlowTesting.withSites(FlowTesting.withDocs(shop, Map.of()), new Sites(s.reads(), s.next(),
                Map.of("get_order_details", Map.of(new Sites.Feed("cancel_pending_order", "order_id"), 4L,
                        new Sites.Feed("cancel_pending_order", "reason"), 1L)), false));
        NextStepRequest requests = new NextStepRequest(fed);
        assertEquals("Call get_user_details.", requests.doc("get_user_details"));
        assertEquals("Call get_order_details. Its results supply `order_id` for `cancel_pending_order`, `reason` for"
                + " `cancel_pending_order`.", requests.doc("get_order_details"));
    }

    @Test
    void aLongSummaryIsTrimmedAndClippedTo250CharactersCountingEachEmojiOnce() {
        Flow shop = FlowTesting.flow("home/shop.flow.json");
        String summary = "\u00a0 " + "\uD83D\uDE00".repeat(249) + "abc \n";
        Flow f = FlowTesting.withDocs(shop, Map.of("get_user_details", new Manifest.ToolDoc(summary, Map.of())));
        assertEquals("\uD83D\uDE00".repeat(249) + "a\u2026", new NextStepRequest(f).doc("get_user_details"));
    }

    @Test
    void clippingKeepsTextsAtTheLimitWholeAndTrimsUnicodeWhiteSpace() {
        assertEquals("abc", Clip.clip("\u3000 abc\u2028\u0085", 3));
        assertEquals("ab\u2026", Clip.clip("abc", 2));
        assertEquals("", Clip.clip(" \t ", 2));
    }

    @Test
    void theStateHoldsTheCustomersRequestLaterMessagesTheAgentsLastWordsAndTheCalls() {
        List<Event> events = new ArrayList<>();
        events.add(new Event.User("  first " + "x".repeat(1000)));
        for (int i = 1; i <= 5; i++) {
            events.add(new Event.User("later " + i));
        }
        events.add(new Event.Assistant("Let me check.", List.of(), null));
        events.add(new Event.Assistant("", List.of(), null));
        for (int i = 1; i <= 22; i++) {
            events.add(new Event.Assistant(null, List.of(call("c" + i, "t" + i, "{\"n\":" + i + "}")), null));
            if (i != 21) {
                events.add(new Event.ToolResult("c" + i, "t" + i, i == 20, "r" + i));
            }
        }
        String state = CanonicalJson.write(StateSlice.of(episode(events.toArray(Event[]::new))));
        StringBuilder earlier = new StringBuilder();
        for (int i = 3; i <= 18; i++) {
            earlier.append(earlier.isEmpty() ? "" : ",").append("\"t").append(i).append("({\\\"n\\\":").append(i)
                    .append("}) \u2192 ok\"");
        }
        assertEquals("{\"agent_last_message\":\"Let me check.\","
                + "\"customer_request\":\"first " + "x".repeat(994) + "\u2026\","
                + "\"earlier_lookups\":[" + earlier + "],"
                + "\"later_customer_messages\":[\"later 2\",\"later 3\",\"later 4\",\"later 5\"],"
                + "\"latest_results\":["
                + "{\"arguments\":{\"n\":19},\"result\":\"r19\",\"tool_call\":\"t19\"},"
                + "{\"arguments\":{\"n\":20},\"error\":true,\"result\":\"r20\",\"tool_call\":\"t20\"},"
                + "{\"arguments\":{\"n\":21},\"error\":true,\"result\":\"(no result recorded)\",\"tool_call\":\"t21\"},"
                + "{\"arguments\":{\"n\":22},\"result\":\"r22\",\"tool_call\":\"t22\"}]}", state);
    }

    @Test
    void aConversationWithoutCustomerOrCallsHasANullRequestAndNoLatestResults() {
        assertEquals("{\"customer_request\":null,\"latest_results\":[]}",
                CanonicalJson.write(StateSlice.of(episode(new Event.Assistant("  ", List.of(), null)))));
    }

    @Test
    void theRequestsStateIsWrittenWithSortedKeysAndHashesToItsKey() {
        Flow flow = FlowTesting.flow(ARBITER);
        Episode e = episode(new Event.User("hi"),
                new Event.Assistant(null, List.of(call("1", "get_user_details", "{\"user_id\":\"u\"}")), null),
                new Event.ToolResult("1", "get_user_details", false, "{\"z\":1}"));
        Request r = new NextStepRequest(flow).request(new Sites.Site("get_user_details", false),
                List.of("get_order_details"), e);
        assertEquals("{\"model\":\"jev-latest\",\"state\":{\"customer_request\":\"hi\",\"latest_results\":[{\"arguments\":"
                        + "{\"user_id\":\"u\"},\"result\":\"{\\\"z\\\":1}\",\"tool_call\":\"get_user_details\"}]},\"questions\":",
                r.toJson().substring(0, r.toJson().indexOf("\"questions\":") + 12));
    }
}
