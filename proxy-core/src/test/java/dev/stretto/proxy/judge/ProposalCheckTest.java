package dev.stretto.proxy.judge;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import dev.stretto.proxy.ConfirmLog;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Each part of the model-free check, on episodes built for the case. */
class ProposalCheckTest {

    /** A user with two payment methods, keyed by id: an object of two objects is a list of records. */
    static final String USER_WITH_TWO_CARDS = """
            {"user_id":"user_1","payment_methods":{
              "credit_card_7447":{"id":"credit_card_7447","brand":"visa","last_four":"7447","source":"credit_card"},
              "credit_card_1920":{"id":"credit_card_1920","brand":"mastercard","last_four":"1920","source":"credit_card"}}}""";

    private static final String TWO_ORDERS = """
            {"orders":[
              {"order_id":"#W2378156","status":"pending","total":54.04,"items":[{"item_id":"1008292230"}]},
              {"order_id":"#W4316152","status":"delivered","total":154.5,"items":[{"item_id":"2000000001"}]}]}""";

    /** An episode: one lookup's successful result, then the agent's proposal and the customer's reply. */
    static Episode episode(String result, String proposal, String customer) {
        return episodeWithResults(List.of(result), proposal, customer);
    }

    static Episode episodeWithResults(List<String> results, String proposal, String customer) {
        List<Event> events = new ArrayList<>();
        int id = 0;
        for (String r : results) {
            String callId = Integer.toString(++id);
            events.add(new Event.Assistant(null, List.of(new ToolCall(callId, "lookup", CanonicalJson.parse("{}"))), null));
            events.add(new Event.ToolResult(callId, "lookup", false, r));
        }
        events.add(new Event.Assistant(proposal, List.of(), null));
        events.add(new Event.User(customer));
        return new Episode("s", "", 0, "retail", "unknown", 0.0, events);
    }

    private static List<ConfirmLog.Flag> check(Episode episode, String arguments) {
        return ProposalCheck.of(episode, CanonicalJson.parse(arguments), Exchange.of(episode));
    }

    private static ConfirmLog.Flag flag(String argument, String valueJson) {
        return new ConfirmLog.Flag(argument, CanonicalJson.parse(valueJson));
    }

    @Test
    void aValueFromARecordTheCustomerDidNotChooseIsFlagged() {
        Episode e = episode(USER_WITH_TWO_CARDS, "Which card: the Visa ending 7447 or the Mastercard ending 1920?",
                "The Visa ending 7447, please.");
        assertEquals(List.of(flag("payment_method_id", "\"credit_card_1920\"")),
                check(e, "{\"order_id\":\"#W1\",\"payment_method_id\":\"credit_card_1920\"}"));
    }

    @Test
    void aValueFromTheChosenRecordIsNotFlagged() {
        Episode e = episode(USER_WITH_TWO_CARDS, "Which card?", "The one ending 7447.");
        assertEquals(List.of(), check(e, "{\"payment_method_id\":\"credit_card_7447\"}"));
    }

    @Test
    void nothingIsFlaggedWhenNoRecordWasChosen() {
        Episode e = episode(USER_WITH_TWO_CARDS, "Shall I use one of your cards?", "Yes, go ahead.");
        assertEquals(List.of(), check(e, "{\"payment_method_id\":\"credit_card_1920\"}"));
    }

    @Test
    void failingTheCustomerTheProposalChoosesWhenItNamesExactlyOneRecord() {
        Episode one = episode(USER_WITH_TWO_CARDS, "I will charge the Visa ending 7447. Shall I?", "Yes.");
        assertEquals(List.of(flag("payment_method_id", "\"credit_card_1920\"")),
                check(one, "{\"payment_method_id\":\"credit_card_1920\"}"));
        Episode both = episode(USER_WITH_TWO_CARDS, "Visa 7447 or Mastercard 1920?", "Yes.");
        assertEquals(List.of(), check(both, "{\"payment_method_id\":\"credit_card_1920\"}"));
    }

    @Test
    void aCallThatAlsoPassesAFieldOfTheChosenRecordIsNotFlagged() {
        Episode e = episode(TWO_ORDERS, "Which order?", "Order #W2378156.");
        // The order is the other one, but the call also passes the chosen order's total.
        assertEquals(List.of(), check(e, "{\"order_id\":\"#W4316152\",\"amount\":54.04}"));
        assertEquals(List.of(flag("order_id", "\"#W4316152\"")), check(e, "{\"order_id\":\"#W4316152\",\"amount\":9}"));
    }

    @Test
    void eachValueOfAnArrayArgumentIsChecked() {
        String twoItems = """
                {"items":[{"item_id":"1008292230","name":"Desk lamp"},{"item_id":"2000000001","name":"Office chair"}]}""";
        Episode e = episode(twoItems, "Which item?", "Just the desk lamp.");
        assertEquals(List.of(flag("item_ids", "\"2000000001\"")), check(e, "{\"item_ids\":[\"3000000003\",\"2000000001\"]}"));
        // Passing the chosen item too means the call is not just the wrong item.
        assertEquals(List.of(), check(e, "{\"item_ids\":[\"1008292230\",\"2000000001\"]}"));
    }

    @Test
    void valuesWithoutADigitAreNotChecked() {
        Episode e = episode(USER_WITH_TWO_CARDS, "Which card?", "The one ending 7447.");
        assertEquals(List.of(), check(e, "{\"brand\":\"mastercard\"}"));
    }

    @Test
    void numbersAreStatedAsNumbersAndNotInsideLongerNumbers() {
        String args = "{\"total\":154.5}";
        assertEquals(List.of(flag("total", "154.5")), check(episode(TWO_ORDERS, "?", "The one for $54.04."), args));
        assertEquals(List.of(), check(episode(TWO_ORDERS, "?", "The one for $154.04."), args));
        assertEquals(List.of(), check(episode(TWO_ORDERS, "?", "The one for 54.045."), args));
        assertEquals(List.of(), check(episode(TWO_ORDERS, "?", "The one for 1,54.04."), args));
    }

    @Test
    void aNumberIsComparedAsAPersonWritesIt() {
        String prices = "{\"variants\":[{\"item_id\":\"a1\",\"price\":1200.0},{\"item_id\":\"b2\",\"price\":55.0}]}";
        Episode e = episode(prices, "?", "The one at 1200 dollars.");
        assertEquals(List.of(flag("price", "55")), check(e, "{\"price\":55}"));
    }

    @Test
    void idsAreAlsoStatedByTheirDigitsAndOrderIdsWithoutTheirHash() {
        assertEquals(List.of(flag("payment_method_id", "\"credit_card_1920\"")),
                check(episode("{\"methods\":[{\"id\":\"credit_card_4196779\"},{\"id\":\"credit_card_1920\"}]}", "?",
                        "Use card 4196779."), "{\"payment_method_id\":\"credit_card_1920\"}"));
        assertEquals(List.of(flag("order_id", "\"#W4316152\"")),
                check(episode(TWO_ORDERS, "?", "It's order w2378156."), "{\"order_id\":\"#W4316152\"}"));
    }

    @Test
    void onlyValuesOfFourOrMoreCharactersUniqueToOneRecordNameIt() {
        String records = "{\"rows\":[{\"id\":\"r1x\",\"kind\":\"lamp\",\"code\":\"A\"},{\"id\":\"r2x\",\"kind\":\"lamp\"}]}";
        // "r1x" is too short and "lamp" is in both records: nothing is chosen.
        assertEquals(List.of(), check(episode(records, "?", "r1x, the lamp."), "{\"id\":\"r2x\"}"));
    }

    @Test
    void theLatestResultHoldingTheValueIsTheOneChecked() {
        String older = "{\"rows\":[{\"id\":\"x-1111\",\"tag\":\"alpha\"},{\"id\":\"x-2222\",\"tag\":\"bravo\"}]}";
        String newer = "{\"rows\":[{\"id\":\"x-2222\",\"tag\":\"charlie\"},{\"id\":\"x-3333\",\"tag\":\"delta\"}]}";
        Episode e = episodeWithResults(List.of(older, newer), "?", "The alpha one.");
        // In the newer list, "alpha" names nothing, so nothing is chosen there.
        assertEquals(List.of(), check(e, "{\"id\":\"x-2222\"}"));
        Episode f = episodeWithResults(List.of(older, newer), "?", "The delta one.");
        assertEquals(List.of(flag("id", "\"x-2222\"")), check(f, "{\"id\":\"x-2222\"}"));
    }

    @Test
    void failedAndPlainTextResultsHoldNoRecords() {
        List<Event> events = new ArrayList<>();
        events.add(new Event.Assistant(null, List.of(new ToolCall("1", "lookup", CanonicalJson.parse("{}"))), null));
        events.add(new Event.ToolResult("1", "lookup", true, USER_WITH_TWO_CARDS));
        events.add(new Event.Assistant(null, List.of(new ToolCall("2", "lookup", CanonicalJson.parse("{}"))), null));
        events.add(new Event.ToolResult("2", "lookup", false, "credit_card_7447 and credit_card_1920"));
        events.add(new Event.User("The one ending 7447."));
        Episode e = new Episode("s", "", 0, "retail", "unknown", 0.0, events);
        assertEquals(List.of(), check(e, "{\"payment_method_id\":\"credit_card_1920\"}"));
    }

    @Test
    void recordsAreFoundAtAnyDepth() {
        String nested = "{\"user\":{\"orders\":{\"list\":[{\"order_id\":\"#W1111\"},{\"order_id\":\"#W2222\"}]}}}";
        assertEquals(List.of(flag("order_id", "\"#W2222\"")),
                check(episode(nested, "?", "Cancel #W1111."), "{\"order_id\":\"#W2222\"}"));
    }

    @Test
    void listsOfRecordsAreArraysAndObjectsWithTwoOrMoreObjects() {
        JsonNode root = CanonicalJson.parse("{\"a\":[{\"x\":1},{\"x\":2},3],\"b\":[{\"y\":1},\"s\"],"
                + "\"c\":{\"p\":{\"z\":1},\"q\":{\"z\":2},\"r\":5}}");
        List<String> lists = RecordLists.in(root).stream()
                .map(l -> String.join(",", l.stream().map(CanonicalJson::write).toList()))
                .toList();
        assertEquals(List.of("{\"x\":1},{\"x\":2}", "{\"z\":1},{\"z\":2}"), lists);
    }
}
