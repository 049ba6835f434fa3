package dev.stretto.proxy.flow.bind;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

import dev.stretto.proxy.flow.model.FlowManifest;
import dev.stretto.proxy.flow.model.LookupThresholds;
import dev.stretto.trace.manifest.ToolKind;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The verbs of a flow's writes, and the one the customer said a mention with. */
class WriteVerbsTest {

    private static final WriteVerbs RETAIL = new WriteVerbs(Set.of("cancel", "exchange", "modify", "return"));

    @Test
    void theVerbsAreTheFirstWordsOfTheWriteToolsOnly() {
        Map<String, ToolKind> tools = new LinkedHashMap<>();
        tools.put("exchange_delivered_order_items", ToolKind.WRITE);
        tools.put("return_delivered_order_items", ToolKind.WRITE);
        tools.put("cancelOrder", ToolKind.WRITE);
        tools.put("get_order_details", ToolKind.READ);
        tools.put("calculate", ToolKind.GENERIC);
        tools.put("9lives", ToolKind.WRITE);
        tools.put("_hidden", ToolKind.WRITE);
        WriteVerbs verbs = WriteVerbs.of(new FlowManifest("retail", tools, Map.of()));
        assertEquals(List.of("cancel", "exchange", "return"), List.copyOf(verbs.verbs()));
    }

    @Test
    void theLastVerbBeforeTheMentionInItsSentenceIsTheOne() {
        String customer = "you want to return the water bottle, and exchange the pet bed and office chair.\n";
        assertEquals("return", RETAIL.saidWith(customer, "Water Bottle"));
        assertEquals("exchange", RETAIL.saidWith(customer, "Pet Bed"));
        assertEquals("exchange", RETAIL.saidWith(customer, "Office Chair"));
    }

    @Test
    void aWordThatBeginsWithAVerbCountsAndASentenceEndStopsTheSearch() {
        assertEquals("exchange", RETAIL.saidWith("the lamp i exchanged: a desk lamp\n", "desk lamp"));
        assertNull(RETAIL.saidWith("i want to return things. the desk lamp is broken\n", "Desk Lamp"));
        assertNull(RETAIL.saidWith("return it\nthe desk lamp is broken\n", "Desk Lamp"));
        // A full stop inside a number or an id is no sentence end.
        assertEquals("return", RETAIL.saidWith("return the v2.5 desk lamp\n", "desk lamp"));
        // Only the first time the customer wrote it counts.
        assertNull(RETAIL.saidWith("my desk lamp broke; return the desk lamp\n", "desk lamp"));
    }

    @Test
    void noVerbNoMentionOrNoVerbsGiveNone() {
        assertNull(RETAIL.saidWith("change the desk lamp\n", "desk lamp"));
        assertNull(RETAIL.saidWith("return the desk lamp\n", "garden hose"));
        assertNull(RETAIL.saidWith("return the desk lamp\n", null));
        assertNull(RETAIL.saidWith("return the desk lamp\n", "#"));
        assertNull(WriteVerbs.NONE.saidWith("return the desk lamp\n", "desk lamp"));
        // The mention's leading #s go, as mentions compare it.
        assertEquals("cancel", RETAIL.saidWith("cancel order w1234567\n", "#W1234567"));
    }

    @Test
    void aCaseCarriesAVerbOnlyForAMentionAndOnlyAPlainWord() {
        assertEquals("mentioned:exchange", new LookupThresholds.When(LookupThresholds.Case.MENTIONED, "exchange")
                .wireName());
        for (String bad : List.of("", "Exchange", "ex-change", "é", "a".repeat(LookupThresholds.When.MAX_VERB + 1),
                "exchange ", "1")) {
            assertThrows(IllegalArgumentException.class,
                    () -> new LookupThresholds.When(LookupThresholds.Case.MENTIONED, bad), bad);
            assertNull(LookupThresholds.When.ofWireName("mentioned:" + bad), bad);
        }
        assertThrows(IllegalArgumentException.class,
                () -> new LookupThresholds.When(LookupThresholds.Case.UNMENTIONED, "exchange"));
        assertEquals(new LookupThresholds.When(LookupThresholds.Case.AFTER_MENTION, "exchange"),
                LookupThresholds.When.ofWireName("after_mention:exchange"));
        assertNull(LookupThresholds.When.ofWireName("unmentioned:exchange"));
        assertNull(LookupThresholds.When.ofWireName("said:exchange"));
        assertEquals(new LookupThresholds.When(LookupThresholds.Case.MENTIONED, "return"),
                LookupThresholds.When.ofWireName("mentioned:return"));
    }

    @Test
    void hostileCustomerTextsNeverBreakItAndStayLinear() {
        Random random = new Random(26);
        String alphabet = "abcdefghijklmnopqrstuvwxyz .!?\n#:-0123456789éü\u0000\u202e";
        assertTimeoutPreemptively(Duration.ofSeconds(20), () -> {
            for (int n = 0; n < 200; n++) {
                StringBuilder text = new StringBuilder();
                int length = random.nextInt(n % 20 == 0 ? 200_000 : 2_000);
                for (int i = 0; i < length; i++) {
                    text.append(alphabet.charAt(random.nextInt(alphabet.length())));
                }
                String customer = text.append(" return the lamp\n").toString();
                String verb = RETAIL.saidWith(customer, "the lamp");
                // Whatever came before, the found verb is one of the flow's, or none.
                if (verb != null && !RETAIL.verbs().contains(verb)) {
                    throw new AssertionError(verb);
                }
            }
            // A mention after a million letters of one word, with no sentence end.
            String huge = "returnreturn".repeat(100_000) + " desk lamp";
            assertEquals("return", RETAIL.saidWith(huge, "desk lamp"));
        });
    }
}
