package dev.stretto.proxy.flow.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.proxy.flow.file.FlowFile;
import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Bindings.ArgCounts;
import dev.stretto.proxy.flow.model.Bindings.SourcePath;
import dev.stretto.proxy.flow.model.Bindings.ToolArg;
import dev.stretto.proxy.flow.model.Bindings.Traced;
import dev.stretto.proxy.flow.model.Flow;
import dev.stretto.proxy.testing.ReferenceData;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The binding rule, one scenario per part of it. */
class BinderTest {

    private static final String USER_41 = "{\"email\":\"c41@example.com\",\"orders\":[\"#W41a\",\"#W41b\"],"
            + "\"payment_methods\":{\"credit_card_41\":{\"source\":\"credit_card\"}},\"user_id\":\"user_41\"}";

    /** Builds episodes event by event; call ids count up. */
    static final class Talk {
        final List<Event> events = new ArrayList<>();
        final List<ToolCall> pending = new ArrayList<>();
        int next = 1;

        Talk user(String text) {
            events.add(new Event.User(text));
            return this;
        }

        Talk call(String tool, String args, String result) {
            String id = String.valueOf(next++);
            events.add(new Event.Assistant(null, List.of(new ToolCall(id, tool, CanonicalJson.parse(args))), null));
            events.add(new Event.ToolResult(id, tool, false, result));
            return this;
        }

        Talk failed(String tool, String args, String error) {
            String id = String.valueOf(next++);
            events.add(new Event.Assistant(null, List.of(new ToolCall(id, tool, CanonicalJson.parse(args))), null));
            events.add(new Event.ToolResult(id, tool, true, error));
            return this;
        }

        Talk pending(String tool, String args) {
            pending.add(new ToolCall(String.valueOf(next++), tool, CanonicalJson.parse(args)));
            return this;
        }

        BindingView view() {
            return BindingView.of(events, pending);
        }
    }

    private static Flow shop() throws IOException {
        return FlowFile.read(ReferenceData.file("home/shop.flow.json"));
    }

    private static String bound(Pick p) {
        return switch (p) {
            case Pick.Bound b -> CanonicalJson.write(b.arguments()) + " " + b.mention() + " " + b.chance();
            case Pick.Unbound u -> "unbound: " + u.why();
        };
    }

    private static Talk shopSession() {
        return new Talk().user("Hi, I'm c41@example.com. I want to cancel an order I no longer need.")
                .call("find_user_id_by_email", "{\"email\":\"c41@example.com\"}", "user_41");
    }

    @Test
    void theWholeOutputIsTheSourceOfTheUserIdWithTheUnmentionedChance() throws IOException {
        Binder b = new Binder(shop());
        assertEquals("{\"user_id\":\"user_41\"} NONE 0.875", bound(b.pick(shopSession().view(), "get_user_details", null)));
    }

    @Test
    void ordersComeFromTheUsersListInOrderSkippingValuesAlreadyPassed() throws IOException {
        Binder b = new Binder(shop());
        Talk t = shopSession().call("get_user_details", "{\"user_id\":\"user_41\"}", USER_41);
        assertEquals("{\"order_id\":\"#W41a\"} NONE 0.9285714285714286", bound(b.pick(t.view(), "get_order_details", null)));
        t.call("get_order_details", "{\"order_id\":\"#W41a\"}", "{\"order_id\":\"#W41a\"}");
        assertEquals("{\"order_id\":\"#W41b\"} NONE 0.9285714285714286", bound(b.pick(t.view(), "get_order_details", null)));
        t.call("get_order_details", "{\"order_id\":\"#W41b\"}", "{\"order_id\":\"#W41b\"}");
        assertEquals("unbound: nothing left to pass as `order_id`", bound(b.pick(t.view(), "get_order_details", null)));
    }

    @Test
    void pendingCallsCountAsMade() throws IOException {
        Binder b = new Binder(shop());
        Talk t = shopSession().call("get_user_details", "{\"user_id\":\"user_41\"}", USER_41)
                .pending("get_order_details", "{\"order_id\":\"#W41a\"}");
        assertEquals("{\"order_id\":\"#W41b\"} NONE 0.9285714285714286", bound(b.pick(t.view(), "get_order_details", null)));
    }

    @Test
    void aValueTheCustomerMentionedWinsWithOrWithoutItsHashAndUsesTheMentionedChance() throws IOException {
        Binder b = new Binder(shop());
        Talk t = new Talk().user("Please cancel W41B.").call("get_user_details", "{\"user_id\":\"user_41\"}", USER_41);
        assertEquals("{\"order_id\":\"#W41b\"} PICKED 0.5", bound(b.pick(t.view(), "get_order_details", null)));
    }

    @Test
    void anArgumentOnlyTheCustomerCanGiveHasNoSource() throws IOException {
        Binder b = new Binder(shop());
        assertEquals("unbound: no source for `email` (the LLM supplies it)",
                bound(b.pick(shopSession().view(), "find_user_id_by_email", null)));
        assertEquals("unbound: never called in training", bound(b.pick(shopSession().view(), "cancel_pending_order", null)));
    }

    @Test
    void failedResultsAreNoSource() throws IOException {
        Binder b = new Binder(shop());
        Talk t = new Talk().failed("find_user_id_by_email", "{\"email\":\"x@y\"}", "user_9");
        assertEquals("unbound: nothing left to pass as `user_id`", bound(b.pick(t.view(), "get_user_details", null)));
    }

    // --- format-2 fields, on bindings built for each case ---

    private static Bindings bindings(Map<String, ArgCounts> args, Map<ToolArg, Traced> sources,
                                     Map<String, Bindings.Agreed> agreed, Map<String, Bindings.UsedPicks> namedOther,
                                     Map<String, Bindings.UsedPicks> describedRead, List<Bindings.SiteSource> siteSources,
                                     Map<ToolArg, Traced> lists, Map<String, Long> bare,
                                     Map<ToolArg, String> constants) {
        Map<ToolArg, com.fasterxml.jackson.databind.JsonNode> c = new java.util.HashMap<>();
        constants.forEach((k, v) -> c.put(k, CanonicalJson.parse(v)));
        return new Bindings(args, sources, agreed, namedOther, describedRead, siteSources, lists, bare, c);
    }

    private static final Map<String, ArgCounts> ORDER_ARGS = Map.of("get_order_details",
            new ArgCounts(10, Map.of("order_id", 10L)));
    private static final Map<ToolArg, Traced> ORDER_SOURCES = Map.of(new ToolArg("get_order_details", "order_id"),
            new Traced(10, Map.of(new SourcePath("get_user_details", "$.orders[*]"), 10L)));
    private static final Map<String, Bindings.Agreed> ORDER_AGREED = Map.of("get_order_details",
            new Bindings.Agreed(new Bindings.Tally(8, 10), new Bindings.Tally(3, 3)));

    @Test
    void namedOtherAppliesWhenTheCustomerNamedAnotherValueAtTheSources() {
        Bindings bs = bindings(ORDER_ARGS, ORDER_SOURCES, ORDER_AGREED,
                Map.of("get_order_details", new Bindings.UsedPicks(1, 6)), Map.of(), List.of(), Map.of(), Map.of(), Map.of());
        Talk t = new Talk().user("It's about #W41a.").call("get_user_details", "{\"user_id\":\"user_41\"}", USER_41)
                .call("get_order_details", "{\"order_id\":\"#W41a\"}", "{\"order_id\":\"#W41a\"}");
        double unmentioned = 9.0 / 12.0;
        assertEquals("{\"order_id\":\"#W41b\"} OTHER " + (1 + 2 * unmentioned) / 8.0,
                bound(new Binder(bs, false).pick(t.view(), "get_order_details", null)));
        // Without named_other counts the unmentioned chance applies.
        Bindings none = bindings(ORDER_ARGS, ORDER_SOURCES, ORDER_AGREED, Map.of(), Map.of(), List.of(), Map.of(),
                Map.of(), Map.of());
        assertEquals("{\"order_id\":\"#W41b\"} OTHER 0.75", bound(new Binder(none, false).pick(t.view(), "get_order_details", null)));
    }

    @Test
    void describedReadAppliesWhenASiblingsResultHeldAKeyTheCustomerGaveThatAnotherLacks() {
        Bindings bs = bindings(ORDER_ARGS, ORDER_SOURCES, ORDER_AGREED, Map.of(),
                Map.of("get_order_details", new Bindings.UsedPicks(0, 4)), List.of(), Map.of(), Map.of(), Map.of());
        String user = "{\"orders\":[\"#A1\",\"#B1\",\"#C1\"],\"user_id\":\"u7\"}";
        Talk t = new Talk().user("The one with tracking 998877, please.")
                .call("get_user_details", "{\"user_id\":\"u7\"}", user)
                .call("get_order_details", "{\"order_id\":\"#A1\"}", "{\"tracking\":\"111222\",\"user_id\":\"u7\"}")
                .call("get_order_details", "{\"order_id\":\"#B1\"}", "{\"tracking\":\"998877\",\"user_id\":\"u7\"}");
        assertEquals("{\"order_id\":\"#C1\"} DESCRIBED " + (0 + 2 * 0.75) / 6.0,
                bound(new Binder(bs, false).pick(t.view(), "get_order_details", null)));
    }

    @Test
    void aKeyTheAgentPassedBeforeAnyResultHeldItCountsAsGiven() {
        Bindings bs = bindings(ORDER_ARGS, ORDER_SOURCES, ORDER_AGREED, Map.of(),
                Map.of("get_order_details", new Bindings.UsedPicks(0, 4)), List.of(), Map.of(), Map.of(), Map.of());
        String user = "{\"orders\":[\"#A1\",\"#B1\",\"#C1\"],\"user_id\":\"u7\"}";
        Talk t = new Talk().user("The blue one.")
                .call("find_by_tracking", "{\"tracking\":\"TRK-4455\"}", "not found")
                .call("get_user_details", "{\"user_id\":\"u7\"}", user)
                .call("get_order_details", "{\"order_id\":\"#A1\"}", "{\"tracking\":\"TRK-4455\"}")
                .call("get_order_details", "{\"order_id\":\"#B1\"}", "{\"tracking\":\"TRK-0000\"}");
        assertEquals("{\"order_id\":\"#C1\"} DESCRIBED 0.25",
                bound(new Binder(bs, false).pick(t.view(), "get_order_details", null)));
    }

    @Test
    void aKeyEveryLookedUpSiblingHoldsDescribesNothing() {
        Bindings bs = bindings(ORDER_ARGS, ORDER_SOURCES, ORDER_AGREED, Map.of(),
                Map.of("get_order_details", new Bindings.UsedPicks(0, 4)), List.of(), Map.of(), Map.of(), Map.of());
        String user = "{\"orders\":[\"#A1\",\"#B1\",\"#C1\"],\"user_id\":\"user_77\"}";
        Talk t = new Talk().user("I'm user_77.")
                .call("get_user_details", "{\"user_id\":\"user_77\"}", user)
                .call("get_order_details", "{\"order_id\":\"#A1\"}", "{\"user_id\":\"user_77\"}")
                .call("get_order_details", "{\"order_id\":\"#B1\"}", "{\"user_id\":\"user_77\"}");
        assertEquals("{\"order_id\":\"#C1\"} NONE 0.75", bound(new Binder(bs, false).pick(t.view(), "get_order_details", null)));
    }

    @Test
    void siteSourcesOrderTheSourcesAtASiteOnceTheyCountFiveValues() {
        Map<String, ArgCounts> args = Map.of("get_user_details", new ArgCounts(9, Map.of("user_id", 9L)));
        SourcePath email = new SourcePath("find_user_id_by_email", "$");
        SourcePath order = new SourcePath("get_order_details", "$.user_id");
        Map<ToolArg, Traced> sources = Map.of(new ToolArg("get_user_details", "user_id"),
                new Traced(9, Map.of(email, 6L, order, 3L)));
        Talk t = new Talk().call("find_user_id_by_email", "{\"email\":\"a@b.c\"}", "user_1")
                .call("get_order_details", "{\"order_id\":\"#X\"}", "{\"user_id\":\"user_2\"}");
        Bindings plain = bindings(args, sources, Map.of(), Map.of(), Map.of(), List.of(), Map.of(), Map.of(), Map.of());
        assertEquals("{\"user_id\":\"user_2\"} NONE 0.5", bound(new Binder(plain, false).pick(t.view(), "get_user_details", null)));
        List<Bindings.SiteSource> learned = List.of(
                new Bindings.SiteSource("get_user_details", "user_id", "get_order_details", email, 4),
                new Bindings.SiteSource("get_user_details", "user_id", "get_order_details", order, 1));
        Bindings bySite = bindings(args, sources, Map.of(), Map.of(), Map.of(), learned, Map.of(), Map.of(), Map.of());
        assertEquals("{\"user_id\":\"user_1\"} NONE 0.5", bound(new Binder(bySite, false).pick(t.view(), "get_user_details", null)));
        List<Bindings.SiteSource> few = List.of(
                new Bindings.SiteSource("get_user_details", "user_id", "get_order_details", email, 3),
                new Bindings.SiteSource("get_user_details", "user_id", "get_order_details", order, 1));
        Bindings tooFew = bindings(args, sources, Map.of(), Map.of(), Map.of(), few, Map.of(), Map.of(), Map.of());
        assertEquals("{\"user_id\":\"user_2\"} NONE 0.5", bound(new Binder(tooFew, false).pick(t.view(), "get_user_details", null)));
    }

    @Test
    void aListArgumentTakesTheWholeListOfTheMostRecentOutputNotYetPassed() {
        Map<String, ArgCounts> args = Map.of("get_items", new ArgCounts(5, Map.of("item_ids", 5L)));
        Map<ToolArg, Traced> lists = Map.of(new ToolArg("get_items", "item_ids"),
                new Traced(5, Map.of(new SourcePath("get_order_details", "$.items[*].item_id"), 5L)));
        Bindings bs = bindings(args, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), lists, Map.of(), Map.of());
        Talk t = new Talk().user("items 1 and 2")
                .call("get_order_details", "{\"order_id\":\"#A\"}", "{\"items\":[{\"item_id\":\"3\"}]}")
                .call("get_order_details", "{\"order_id\":\"#B\"}", "{\"items\":[{\"item_id\":\"1\"},{\"item_id\":\"2\"}]}");
        Binder b = new Binder(bs, false);
        assertEquals("{\"item_ids\":[\"1\",\"2\"]} PICKED 0.5", bound(b.pick(t.view(), "get_items", null)));
        t.call("get_items", "{\"item_ids\":[\"1\",\"2\"]}", "ok");
        assertEquals("{\"item_ids\":[\"3\"]} NONE 0.5", bound(b.pick(t.view(), "get_items", null)));
        t.call("get_items", "{\"item_ids\":[\"3\"]}", "ok");
        assertEquals("unbound: no list left to pass as `item_ids`", bound(b.pick(t.view(), "get_items", null)));
        Map<ToolArg, Traced> unusable = Map.of(new ToolArg("get_items", "item_ids"),
                new Traced(30, Map.of(new SourcePath("get_order_details", "$.items[*].item_id"), 2L)));
        Bindings none = bindings(args, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), unusable, Map.of(), Map.of());
        assertEquals("unbound: no source for the list `item_ids` (the LLM supplies it)",
                bound(new Binder(none, false).pick(t.view(), "get_items", null)));
    }

    @Test
    void aLookupWithoutRequiredArgumentsBindsOnceWithTheBareChance() {
        Map<String, ArgCounts> args = Map.of("list_all_product_types", new ArgCounts(4, Map.of("page", 1L)));
        Bindings bs = bindings(args, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), Map.of(),
                Map.of("list_all_product_types", 3L), Map.of());
        Binder b = new Binder(bs, false);
        Talk t = new Talk().user("what do you sell?");
        assertEquals("{} PICKED " + 4.0 / 6.0, bound(b.pick(t.view(), "list_all_product_types", null)));
        t.call("list_all_product_types", "{}", "[]");
        assertEquals("unbound: already looked up", bound(b.pick(t.view(), "list_all_product_types", null)));
        Bindings noBare = bindings(args, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), Map.of(), Map.of(), Map.of());
        assertEquals("{} PICKED 1.0", bound(new Binder(noBare, false).pick(new Talk().view(), "list_all_product_types", null)));
    }

    @Test
    void constantsArePassedVerbatimForRequiredAndOtherArguments() {
        Map<String, ArgCounts> args = Map.of("get_product_details",
                new ArgCounts(6, Map.of("product_id", 6L, "detail", 6L, "locale", 2L)));
        Map<ToolArg, Traced> sources = Map.of(new ToolArg("get_product_details", "product_id"),
                new Traced(6, Map.of(new SourcePath("get_order_details", "$.items[*].product_id"), 6L)));
        Bindings bs = bindings(args, sources, Map.of(), Map.of(), Map.of(), List.of(), Map.of(), Map.of(),
                Map.of(new ToolArg("get_product_details", "detail"), "{\"level\":2}",
                        new ToolArg("get_product_details", "locale"), "\"en\""));
        Talk t = new Talk().call("get_order_details", "{\"order_id\":\"#A\"}",
                "{\"items\":[{\"name\":\"Desk lamp\",\"product_id\":\"p1\"},{\"name\":\"Blue kettle\",\"product_id\":\"p2\"}]}");
        assertEquals("{\"detail\":{\"level\":2},\"locale\":\"en\",\"product_id\":\"p1\"} NONE 0.5",
                bound(new Binder(bs, false).pick(t.view(), "get_product_details", null)));
        // A sibling of four characters or more the customer mentioned makes its value mentioned.
        t.user("the blue kettle is broken");
        assertEquals("{\"detail\":{\"level\":2},\"locale\":\"en\",\"product_id\":\"p2\"} PICKED 0.5",
                bound(new Binder(bs, false).pick(t.view(), "get_product_details", null)));
    }

    @Test
    void anArgumentThatNeverTookAStringCannotBeBound() {
        Map<String, ArgCounts> args = Map.of("calculate", new ArgCounts(3, Map.of("amount", 3L)));
        Bindings bs = bindings(args, Map.of(), Map.of(), Map.of(), Map.of(), List.of(), Map.of(), Map.of(), Map.of());
        assertEquals("unbound: `amount` never took a string in training",
                bound(new Binder(bs, false).pick(new Talk().view(), "calculate", null)));
    }

    @Test
    void aLookupTrainingNeverMadeIsBoundByArgumentNameWhenEveryReadIsOffered() throws IOException {
        Bindings bs = shop().bindings();
        Talk t = new Talk().user("the desk lamp one")
                .call("get_order_details", "{\"order_id\":\"#A\"}",
                        "{\"items\":[{\"item_id\":\"i1\",\"name\":\"Kettle\"},{\"item_id\":\"i2\"}],\"order_id\":\"#A\"}")
                .call("get_order_details", "{\"order_id\":\"#B\"}",
                        "{\"items\":[{\"item_id\":\"i7\",\"name\":\"x\"}],\"order_id\":\"#B\"}");
        Binder everyRead = new Binder(bs, true);
        assertEquals("{\"item_id\":\"i7\"} NONE 0.5", bound(everyRead.pick(t.view(), "get_item_details", List.of("item_id"))));
        t.user("actually item I2");
        assertEquals("{\"item_id\":\"i2\"} PICKED 0.5", bound(everyRead.pick(t.view(), "get_item_details", List.of("item_id"))));
        assertEquals("unbound: no source for `sku` (the LLM supplies it)",
                bound(everyRead.pick(t.view(), "get_item_details", List.of("sku"))));
        assertEquals("{} PICKED 0.5", bound(everyRead.pick(t.view(), "list_all_product_types", List.of())));
        assertEquals("unbound: never called in training",
                bound(new Binder(bs, false).pick(t.view(), "get_item_details", List.of("item_id"))));
        assertEquals("unbound: never called in training", bound(everyRead.pick(t.view(), "get_item_details", null)));
    }

    @Test
    void aResultThatIsNotJsonIsOneStringOrItsTrimmedLines() {
        assertEquals("\"user_41\"", CanonicalJson.write(ToolOutput.parse("user_41")));
        assertEquals("[\"a1\",\"b2\"]", CanonicalJson.write(ToolOutput.parse("  a1 \n\n b2\n")));
        assertEquals("{\"k\":1}", CanonicalJson.write(ToolOutput.parse("{\"k\":1}")));
        assertEquals("\"one line \"", CanonicalJson.write(ToolOutput.parse("one line ")));
    }

    @Test
    void pathsWalkMembersAndListElements() {
        var out = CanonicalJson.parse("{\"items\":[{\"product_id\":\"p1\",\"name\":\"Lamp\"},{\"product_id\":7}],"
                + "\"orders\":[\"#1\",\"#2\"],\"user\":\"u\"}");
        assertEquals(List.of(new JsonPaths.Hit("p1", List.of("Lamp"))), JsonPaths.at(out, "$.items[*].product_id"));
        assertEquals(List.of(new JsonPaths.Hit("#1", List.of()), new JsonPaths.Hit("#2", List.of())),
                JsonPaths.at(out, "$.orders[*]"));
        assertEquals(List.of(), JsonPaths.at(out, "$"));
        assertEquals(List.of(new JsonPaths.Hit("u", List.of())), JsonPaths.at(CanonicalJson.parse("\"u\""), "$"));
        assertEquals(List.of(), JsonPaths.at(out, "orders"));
    }

    @Test
    void mentionsIgnoreCaseSpacesAndLeadingHashes() {
        assertEquals(true, Mentions.mentions("order w41a please\n", " #W41A "));
        assertEquals(false, Mentions.mentions("order 41 please\n", "##"));
        assertEquals(false, Mentions.mentions("anything\n", ""));
        assertEquals(true, Mentions.keyish("ab12"));
        assertEquals(false, Mentions.keyish("a12"));
        assertEquals(false, Mentions.keyish("abcd"));
    }

    @Test
    void aCallMakesALookupWhenItHasTheToolAndEveryBoundArgumentsText() {
        List<ToolCall> calls = List.of(
                new ToolCall("1", "get_order_details", CanonicalJson.parse("{\"order_id\":\"#W41b\"}")),
                new ToolCall("2", "get_user_details", CanonicalJson.parse("{\"user_id\":\"user_41\"}")),
                new ToolCall("3", "get_order_details", CanonicalJson.parse("{\"order_id\":\"#W41a\",\"verbose\":1}")),
                new ToolCall("4", "get_order_details", CanonicalJson.parse("{\"order_id\":\"#W41a\"}")));
        // Arguments the flow did not bind may differ; a number matches its JSON text.
        assertEquals("3", BindingView.firstMaking(calls, "get_order_details",
                CanonicalJson.parse("{\"order_id\":\"#W41a\"}")).id());
        assertEquals("2", BindingView.firstMaking(calls, "get_user_details",
                CanonicalJson.parse("{\"user_id\":\"user_41\"}")).id());
        assertEquals("3", BindingView.firstMaking(calls, "get_order_details",
                CanonicalJson.parse("{\"verbose\":\"1\"}")).id());
        assertNull(BindingView.firstMaking(calls, "get_order_details", CanonicalJson.parse("{\"order_id\":\"#W9\"}")));
        assertNull(BindingView.firstMaking(calls, "get_product_details", CanonicalJson.parse("{}")));
    }
}
