package dev.stretto.trace.episode;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.log.Source;
import dev.stretto.trace.testing.LogBuilder;
import java.time.Duration;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** The searchable text answers exactly as indexOf does, and keeps a long burst of calls linear. */
class SearchableTextTest {

    @Test
    void everyAnswerIsIndexOfsOnRandomTextAndValues() {
        Random r = new Random(42);
        String alphabet = "ab#W1\n\u00e9\u4e2d\ud83d\ude00";
        SearchableText text = new SearchableText();
        StringBuilder plain = new StringBuilder();
        for (int round = 0; round < 2000; round++) {
            StringBuilder piece = new StringBuilder();
            for (int i = r.nextInt(40); i > 0; i--) {
                piece.append(alphabet.charAt(r.nextInt(alphabet.length())));
            }
            text.append(piece);
            plain.append(piece);
            for (int q = 0; q < 5; q++) {
                StringBuilder value = new StringBuilder();
                for (int i = 2 + r.nextInt(7); i > 0; i--) {
                    value.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
                String v = q == 0 && plain.length() > 10 ? plain.substring(plain.length() - 8, plain.length() - 2) : value.toString();
                assertEquals(plain.indexOf(v) >= 0, text.contains(v), "'" + v + "' after " + plain.length() + " chars");
            }
        }
        assertEquals(plain.toString(), text.text().toString());
    }

    @Test
    void manyAppendsBetweenQuestionsStillAnswerAsIndexOf() {
        Random r = new Random(7);
        String alphabet = "ab#W1\n\u00e9\u4e2d";
        SearchableText text = new SearchableText();
        StringBuilder plain = new StringBuilder();
        for (int round = 0; round < 300; round++) {
            // Up to a few thousand characters between questions: the filter outgrows itself unasked.
            for (int pieces = r.nextInt(r.nextInt(10) == 0 ? 400 : 5); pieces > 0; pieces--) {
                StringBuilder piece = new StringBuilder();
                for (int i = r.nextInt(20); i > 0; i--) {
                    piece.append(alphabet.charAt(r.nextInt(alphabet.length())));
                }
                text.append(piece);
                plain.append(piece);
            }
            for (int q = r.nextInt(3); q > 0; q--) {
                int from = plain.length() > 8 ? r.nextInt(plain.length() - 6) : 0;
                String v = r.nextBoolean() && plain.length() > 8 ? plain.substring(from, from + 2 + r.nextInt(5))
                        : "b" + alphabet.charAt(r.nextInt(alphabet.length())) + "W" + alphabet.charAt(r.nextInt(alphabet.length()));
                assertEquals(plain.indexOf(v) >= 0, text.contains(v), "'" + v + "' after " + plain.length() + " chars");
            }
        }
        assertEquals(plain.toString(), text.text().toString());
    }

    @Test
    void aValueAcrossTwoAppendsIsFound() {
        SearchableText t = new SearchableText().append("user").append('_').append("61\n");
        assertTrue(t.contains("user_61"));
        assertTrue(t.contains("r_6"));
        assertFalse(t.contains("user_62"));
    }

    @Test
    void tenThousandQuickCallsInOneTurnAreFollowedInLinearTime() {
        LogBuilder lb = new LogBuilder();
        for (int i = 0; i < 10_000; i++) {
            lb.call(2L * i, i, "cancel_pending_order", "{\"order_id\":\"#W" + i + "a\",\"reason\":\"found it cheaper\"}");
            lb.line(2L * i + 1, Source.PROXY, "{\"id\":" + i + ",\"jsonrpc\":\"2.0\",\"result\":{\"content\":[{\"text\":"
                    + "\"Refused by the policy check, so cancel_pending_order was not run and nothing changed: 'found it"
                    + " cheaper' is not an accepted reason (policy check retail.cancel_reason) " + i + ".\",\"type\":\"text\"}],"
                    + "\"isError\":true}}");
        }
        var log = lb.build();
        Timeline tl = assertTimeoutPreemptively(Duration.ofSeconds(10), () -> Timeline.of(log),
                "10,000 calls answered within the turn window, each checked against the turn's results");
        assertEquals(1, tl.turns().size(), "each call follows the last answer within 500 ms");
        assertEquals(10_000, tl.calls().size());
    }
}
