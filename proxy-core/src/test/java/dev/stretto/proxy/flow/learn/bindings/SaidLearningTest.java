package dev.stretto.proxy.flow.learn.bindings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import dev.stretto.proxy.flow.model.Bindings;
import dev.stretto.proxy.flow.model.Bindings.ToolArg;
import dev.stretto.trace.episode.Episode;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.Test;

/**
 * Learning the values the customer said ({@code --bind-said}): a string argument counts under
 * its shape when the customer's words so far hold it as a whole token (any case) and no
 * earlier result held it; the replay of the binding rule then agrees with the agent's said
 * picks.
 */
class SaidLearningTest {

    private static final ToolArg ORDER = new ToolArg("get_order", "order_id");

    private static Bindings learn(boolean said, Episode... episodes) {
        BindingStats stats = new BindingStats(Set.of("find_user", "get_user", "get_order"), false, said);
        for (Episode e : episodes) {
            stats.add(e);
        }
        return new BindingReplay(stats.bindings()).replay(List.of(episodes), n -> { });
    }

    /** The customer names an order (as {@code says} spells it), and the agent reads it straight away. */
    private static Episode named(String id, String says, String order) {
        return new Story().user("Hello! You received your order " + says + ", and I want it exchanged.")
                .lookup("1", "find_user", "{\"email\":\"a@example.com\"}", "user_1")
                .lookup("2", "get_order", "{\"order_id\":\"" + order + "\"}", "{\"order_id\":\"" + order + "\"}")
                .episode(id);
    }

    @Test
    void aValueTheCustomerSaidAsAWholeTokenCountsUnderItsShapeInAnyCase() {
        Bindings b = learn(true, named("s1", "#W2378156", "#W2378156"), named("s2", "(#w1000001)", "#W1000001"),
                named("s3", "W1000002", "W1000002"));
        assertEquals(Map.of(ORDER, new Bindings.Said(3, Map.of("#W9999999", 2L, "W9999999", 1L))), b.said());
        assertEquals(List.of("#W9999999"), b.said().get(ORDER).usable());
        // The replay binds the said order before the agent reads it, and it is the agent's: mentioned, agreed.
        assertEquals(new Bindings.Agreed(new Bindings.Tally(0, 0), new Bindings.Tally(2, 2)), b.agreed().get("get_order"));
    }

    @Test
    void withoutTheOptionNothingIsLearnedAndTheOrderHasNoSource() {
        Bindings b = learn(false, named("s1", "#W2378156", "#W2378156"), named("s2", "#W1000001", "#W1000001"));
        assertEquals(Map.of(), b.said());
        assertNull(b.agreed().get("get_order"));
    }

    @Test
    void partOfATokenAnEarlierResultOrAValueSaidLaterDoesNotCount() {
        Episode inside = named("s1", "#W2378156x", "#W2378156");
        Episode held = new Story().user("It is #W2378156.")
                .lookup("1", "get_user", "{\"user_id\":\"u\"}", "{\"orders\":[\"#W2378156\"]}")
                .lookup("2", "get_order", "{\"order_id\":\"#W2378156\"}", "{}").episode("s2");
        Episode later = new Story().lookup("1", "get_order", "{\"order_id\":\"#W2378156\"}", "{}")
                .user("That was #W2378156.").episode("s3");
        assertEquals(Map.of(), learn(true, inside, held, later).said());
    }

    @Test
    void theShapeKeepsTheValuesOwnCharacters() {
        Episode e = new Story().user("my code is ab-12.x9, thanks")
                .lookup("1", "get_order", "{\"order_id\":\"AB-12.x9\"}", "{}").episode("s1");
        assertEquals(new Bindings.Said(1, Map.of("AB-99.x9", 1L)), learn(true, e).said().get(ORDER));
    }
}
