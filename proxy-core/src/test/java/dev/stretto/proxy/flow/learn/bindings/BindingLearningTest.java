package dev.stretto.proxy.flow.learn.bindings;

import static dev.stretto.proxy.flow.learn.bindings.Story.call;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Bindings.Agreed;
import dev.stretto.proxy.flow.model.Bindings.SiteSource;
import dev.stretto.proxy.flow.model.Bindings.SourcePath;
import dev.stretto.proxy.flow.model.Bindings.Tally;
import dev.stretto.proxy.flow.model.Bindings.ToolArg;
import dev.stretto.proxy.flow.model.Bindings.UsedPicks;
import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * What binding learning counts (stretto-learn 3.9), scenario by scenario: the statistics of
 * the first pass and those of replaying the binding rule.
 */
class BindingLearningTest {

    private static final Set<String> LOOKUPS = Set.of("find_user", "get_user", "get_order", "search", "get_items",
            "list_categories");

    private static Bindings learn(boolean constants, Episode... episodes) {
        BindingStats stats = new BindingStats(LOOKUPS, constants);
        for (Episode e : episodes) {
            stats.add(e);
        }
        return new BindingReplay(stats.bindings()).replay(List.of(episodes), n -> { });
    }

    private static Story userWithOrders(String user, String... orders) {
        String list = String.join("\",\"", orders);
        return new Story()
                .lookup("1", "find_user", "{\"email\":\"" + user + "@example.com\"}", user)
                .lookup("2", "get_user", "{\"user_id\":\"" + user + "\"}",
                        "{\"orders\":[\"" + list + "\"],\"user_id\":\"" + user + "\"}");
    }

    private static String order(String id, String product) {
        return "{\"order_id\":\"" + id + "\",\"product_id\":\"" + product + "\"}";
    }

    @Test
    void argumentsAreCountedAndTracedToTheMostRecentOutputHoldingThem() {
        Episode e = userWithOrders("u1", "#A1", "#B2")
                .lookup("3", "get_order", "{\"order_id\":\"#A1\"}", order("#A1", "p1"))
                .episode("s1");
        Bindings b = learn(false, e, e);
        assertEquals(new Bindings.ArgCounts(2, Map.of("order_id", 2L)), b.args().get("get_order"));
        assertEquals(new Bindings.Traced(2, Map.of(new SourcePath("get_user", "$.orders[*]"), 2L)),
                b.sources().get(new ToolArg("get_order", "order_id")));
        assertEquals(new Bindings.Traced(2, Map.of(new SourcePath("find_user", "$"), 2L)),
                b.sources().get(new ToolArg("get_user", "user_id")));
        assertEquals(new Bindings.Traced(2, Map.of()), b.sources().get(new ToolArg("find_user", "email")));
    }

    @Test
    void siteSourcesAreKeptForArgumentsFoundAtMoreThanOneSource() {
        // order ids come from the user's orders after get_user, and from a search's hits after search.
        Episode fromUser = userWithOrders("u1", "#A1")
                .lookup("3", "get_order", "{\"order_id\":\"#A1\"}", order("#A1", "p1"))
                .episode("s1");
        Episode fromSearch = new Story()
                .lookup("1", "search", "{\"q\":\"lamp\"}", "{\"hits\":[{\"id\":\"#Z9\"}]}")
                .lookup("2", "get_order", "{\"order_id\":\"#Z9\"}", order("#Z9", "p2"))
                .episode("s2");
        Bindings b = learn(false, fromUser, fromSearch, fromSearch);
        assertEquals(List.of(
                        new SiteSource("get_order", "order_id", "get_user", new SourcePath("get_user", "$.orders[*]"), 1),
                        new SiteSource("get_order", "order_id", "search", new SourcePath("search", "$.hits[*].id"), 2)),
                b.siteSources());
        // get_user's user_id has one source only: no site entries for it.
        assertTrue(b.siteSources().stream().noneMatch(s -> s.tool().equals("get_user")));
    }

    @Test
    void aLookupLaterInTheSameTurnHasThePreviousLookupAsItsSite() {
        Episode e = new Story()
                .lookup("1", "search", "{\"q\":\"x\"}", "{\"hits\":[{\"id\":\"#Z9\"},{\"id\":\"#Y8\"}]}")
                .lookup("2", "get_user", "{\"user_id\":\"u1\"}", "{\"orders\":[\"#A1\"],\"user_id\":\"u1\"}")
                .turn(call("3", "get_order", "{\"order_id\":\"#Z9\"}"), call("4", "get_order", "{\"order_id\":\"#A1\"}"))
                .result("3", "get_order", order("#Z9", "p1"))
                .result("4", "get_order", order("#A1", "p2"))
                .episode("s1");
        Bindings b = learn(false, e);
        assertEquals(List.of(
                        new SiteSource("get_order", "order_id", "get_order", new SourcePath("get_user", "$.orders[*]"), 1),
                        new SiteSource("get_order", "order_id", "get_user", new SourcePath("search", "$.hits[*].id"), 1)),
                b.siteSources());
    }

    @Test
    void listsAreTracedToAPathHoldingEveryItem() {
        Episode e = new Story()
                .lookup("1", "get_order", "{\"order_id\":\"#A1\"}", "{\"item_ids\":[\"i1\",\"i2\",\"i3\"]}")
                .lookup("2", "get_items", "{\"ids\":[\"i1\",\"i3\"]}", "[]")
                .lookup("3", "get_items", "{\"ids\":[\"i1\",\"zz\"]}", "[]")
                .episode("s1");
        Bindings b = learn(false, e);
        assertEquals(new Bindings.Traced(2, Map.of(new SourcePath("get_order", "$.item_ids[*]"), 1L)),
                b.lists().get(new ToolArg("get_items", "ids")));
        assertEquals(null, b.sources().get(new ToolArg("get_items", "ids")));
    }

    @Test
    void aListNobodyHeldStillGetsAnEntry() {
        Episode e = new Story().lookup("1", "get_items", "{\"ids\":[\"i1\"]}", "[]").episode("s1");
        assertEquals(new Bindings.Traced(1, Map.of()), learn(false, e).lists().get(new ToolArg("get_items", "ids")));
    }

    @Test
    void bareCountsCallsWithoutArgumentsOfLookupsWithNoRequiredArgument() {
        Story s = new Story();
        for (int i = 0; i < 3; i++) {
            s.lookup("b" + i, "list_categories", "{}", "[\"a\",\"b\"]");
        }
        s.lookup("p", "list_categories", "{\"page\":\"2\"}", "[\"c\"]");
        // search is always called bare: nothing to learn; get_user always with its argument.
        s.lookup("q", "search", "{}", "[]");
        s.lookup("u", "get_user", "{\"user_id\":\"u1\"}", "{}");
        Bindings b = learn(false, s.episode("s1"));
        assertEquals(Map.of("list_categories", 3L), b.bare());
    }

    @Test
    void bareIsKeptEvenAtZeroWhenAnOptionalArgumentIsPassedSometimes() {
        Story s = new Story();
        for (int i = 0; i < 5; i++) {
            s.lookup("p" + i, "list_categories", i < 4 ? "{\"page\":\"1\"}" : "{\"sort\":\"name\"}", "[]");
        }
        assertEquals(Map.of("list_categories", 0L), learn(false, s.episode("s1")).bare());
    }

    @Test
    void constantsAreLearnedOnlyWhenAsked() {
        Story s = new Story().user("Show me my stuff");
        for (int i = 0; i < 5; i++) {
            s.lookup("c" + i, "search", "{\"kind\":\"order\",\"q\":\"q" + i + "\"}", "[]");
        }
        Episode e = s.episode("s1");
        assertEquals(Map.of(new ToolArg("search", "kind"), CanonicalJson.parse("\"order\"")),
                learn(true, e).constants());
        assertEquals(Map.of(), learn(false, e).constants());
    }

    @Test
    void constantsNeedFiveCallsOneValueAndNoSource() {
        Story fewer = new Story();
        for (int i = 0; i < 4; i++) {
            fewer.lookup("c" + i, "search", "{\"kind\":\"order\"}", "[]");
        }
        assertEquals(Map.of(), learn(true, fewer.episode("s1")).constants());

        Story traced = new Story().lookup("0", "get_user", "{\"user_id\":\"u1\"}", "{\"kind\":\"order\"}");
        for (int i = 0; i < 5; i++) {
            traced.lookup("c" + i, "search", "{\"kind\":\"order\"}", "[]");
        }
        assertEquals(Map.of(), learn(true, traced.episode("s1")).constants());
    }

    @Test
    void aConstantTheCustomerSaidIsNotLearned() {
        Story s = new Story().user("I'm ACME-1234, always.");
        for (int i = 0; i < 5; i++) {
            s.lookup("c" + i, "search", "{\"account\":\"acme-1234\",\"q\":\"q" + i + "\"}", "[]");
        }
        assertEquals(Map.of(), learn(true, s.episode("s1")).constants());
    }

    @Test
    void agreedSplitsPicksTheCustomerMentionedFromOthers() {
        // Not mentioned: the rule picks the first order, as the agent did.
        Episode first = userWithOrders("u1", "#A1", "#B2")
                .lookup("3", "get_order", "{\"order_id\":\"#A1\"}", order("#A1", "p1")).episode("s1");
        // Mentioned: the customer names #B2, the rule picks it, as the agent did.
        Episode named = new Story().user("What about order #B2?")
                .lookup("1", "get_user", "{\"user_id\":\"u1\"}", "{\"orders\":[\"#A1\",\"#B2\"],\"user_id\":\"u1\"}")
                .lookup("2", "get_order", "{\"order_id\":\"#B2\"}", order("#B2", "p2")).episode("s2");
        // Not mentioned, and the agent took the second order: the rule's first pick disagrees.
        Episode second = userWithOrders("u3", "#C3", "#D4")
                .lookup("3", "get_order", "{\"order_id\":\"#D4\"}", order("#D4", "p4")).episode("s3");
        Bindings b = learn(false, first, named, second);
        assertEquals(new Agreed(new Tally(1, 2), new Tally(1, 1)), b.agreed().get("get_order"));
        // get_user's user_id comes from find_user's bare output: mentioned nowhere, agreed twice.
        assertEquals(new Agreed(new Tally(2, 2), new Tally(0, 0)), b.agreed().get("get_user"));
        // find_user's email has no source, so the rule never binds it and nothing is tallied.
        assertEquals(null, b.agreed().get("find_user"));
    }

    @Test
    void callsEarlierInTheSameTurnCountAsMadeWhenReplaying() {
        Episode e = userWithOrders("u1", "#A1", "#B2")
                .turn(call("3", "get_order", "{\"order_id\":\"#A1\"}"), call("4", "get_order", "{\"order_id\":\"#B2\"}"))
                .result("3", "get_order", order("#A1", "p1"))
                .result("4", "get_order", order("#B2", "p2"))
                .episode("s1");
        // The second call's pick skips #A1, already passed in the turn, and agrees on #B2.
        assertEquals(new Agreed(new Tally(2, 2), new Tally(0, 0)), learn(false, e).agreed().get("get_order"));
    }

    @Test
    void namedOtherCountsPicksMadeWhileTheCustomerNamedAValueAlreadyUsed() {
        Episode used = new Story().user("Cancel #A1 please")
                .lookup("1", "get_user", "{\"user_id\":\"u1\"}", "{\"orders\":[\"#A1\",\"#B2\"],\"user_id\":\"u1\"}")
                .lookup("2", "get_order", "{\"order_id\":\"#A1\"}", order("#A1", "p1"))
                .lookup("3", "get_order", "{\"order_id\":\"#B2\"}", order("#B2", "p2"))
                .episode("s1");
        Episode unused = new Story().user("Cancel #C3 please")
                .lookup("1", "get_user", "{\"user_id\":\"u2\"}", "{\"orders\":[\"#C3\",\"#D4\"],\"user_id\":\"u2\"}")
                .lookup("2", "get_order", "{\"order_id\":\"#C3\"}", order("#C3", "p3"))
                .episode("s2");
        Bindings b = learn(false, used, unused);
        // After #A1's (#C3's) result the rule offers #B2 (#D4), unmentioned while #A1 (#C3) was named.
        assertEquals(Map.of("get_order", new UsedPicks(1, 2)), b.namedOther());
        assertEquals(Map.of(), b.describedRead());
    }

    @Test
    void describedReadCountsPicksAfterASiblingsResultHeldAKeyTheCustomerGave() {
        Episode e = new Story().user("It's the order with the P-1234 lamp")
                .lookup("1", "get_user", "{\"user_id\":\"u1\"}",
                        "{\"orders\":[\"#A1\",\"#B2\",\"#C3\"],\"user_id\":\"u1\"}")
                .lookup("2", "get_order", "{\"order_id\":\"#A1\"}", order("#A1", "P-9999"))
                .lookup("3", "get_order", "{\"order_id\":\"#B2\"}", order("#B2", "P-1234"))
                .episode("s1");
        Bindings b = learn(false, e, e);
        // After #B2's result, #C3 is the rule's pick; the agent had found the described order.
        assertEquals(Map.of("get_order", new UsedPicks(0, 2)), b.describedRead());
        assertEquals(Map.of(), b.namedOther());
    }

    @Test
    void failedResultsAreNoSources() {
        Episode e = new Story()
                .turn(call("1", "get_user", "{\"user_id\":\"u1\"}"))
                .failed("1", "get_user", "{\"orders\":[\"#A1\"]}")
                .lookup("2", "get_order", "{\"order_id\":\"#A1\"}", order("#A1", "p1"))
                .episode("s1");
        assertEquals(new Bindings.Traced(1, Map.of()), learn(false, e).sources().get(new ToolArg("get_order", "order_id")));
    }
}
