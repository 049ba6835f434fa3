package dev.stretto.proxy.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class ExchangeTest {

    private static Episode of(Event... events) {
        return new Episode("s", "", 0, "retail", "unknown", 0.0, List.of(events));
    }

    private static Event.Assistant said(String text) {
        return new Event.Assistant(text, List.of(), null);
    }

    private static Event.Assistant called() {
        return new Event.Assistant(null, List.of(new ToolCall("1", "get_order_details", CanonicalJson.parse("{}"))), null);
    }

    @Test
    void theCustomersLastMessageAndTheAgentsLastTextBeforeIt() {
        Exchange e = Exchange.of(of(new Event.User("Hi"), said("Which order?"), new Event.User("#W1"), called(),
                said("Shall I cancel #W1?"), said(""), called(), new Event.User("Yes."), said("Cancelling now.")));
        assertEquals(new Exchange("Shall I cancel #W1?", "Yes."), e);
    }

    @Test
    void twoCustomerMessagesInARowKeepTheSameProposal() {
        assertEquals(new Exchange("Shall I?", "Wait."),
                Exchange.of(of(said("Shall I?"), new Event.User("Yes."), new Event.User("Wait."))));
    }

    @Test
    void aConversationWithoutACustomerMessageGivesEmptyTexts() {
        assertEquals(new Exchange("", ""), Exchange.of(of(said("Hello"), called())));
        assertEquals(new Exchange("", "Cancel it."), Exchange.of(of(called(), new Event.User("Cancel it."))));
    }

    @Test
    void theStateClipsByCodePointsNotUtf16Units() {
        // Each emoji is one code point and two UTF-16 units.
        String proposal = "A" + "😀".repeat(1600);
        String customer = "😀".repeat(700) + "Z";
        var state = new Exchange(proposal, customer).state("cancel_pending_order", CanonicalJson.parse("{\"b\":1,\"a\":2}"));
        assertEquals("😀".repeat(1500), state.get("agent_said_last").textValue());
        assertEquals("😀".repeat(600), state.get("customer_replied").textValue());
        assertEquals("{\"arguments\":{\"a\":2,\"b\":1},\"tool\":\"cancel_pending_order\"}",
                CanonicalJson.write(state.get("call_about_to_be_made")));
    }

    @Test
    void shortTextsAreKeptWhole() {
        var state = new Exchange("x".repeat(1500), "y".repeat(600)).state("t", CanonicalJson.parse("{}"));
        assertEquals(1500, state.get("agent_said_last").textValue().length());
        assertEquals(600, state.get("customer_replied").textValue().length());
    }
}
