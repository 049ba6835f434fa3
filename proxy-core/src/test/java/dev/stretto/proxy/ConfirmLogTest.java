package dev.stretto.proxy;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.stretto.trace.json.CanonicalJson;
import dev.stretto.trace.log.LogFormatException;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Confirm logs read back: every key the judge writes, a line cut short, a line that is not one. */
class ConfirmLogTest {

    private static final String SECOND = "{\"arguments\":{\"payment_method_id\":\"credit_card_1920\"},\"enforced\":true,"
            + "\"error\":\"no yes/no answer to proposed\",\"fails\":true,\"key\":\"a\",\"ms\":812,\"p_yes\":0.15,"
            + "\"proposal_check\":[{\"argument\":\"payment_method_id\",\"value\":\"credit_card_1920\"}],\"second_key\":\"b\","
            + "\"second_shadow\":true,\"tool\":\"modify_pending_order_payment\",\"unknown\":false,\"word_list\":false}";

    @Test
    void readsEveryKeyOfAJudgmentLine() throws Exception {
        ConfirmLog.Judged j = ConfirmLog.parse(SECOND + "\n", "c.jsonl").judgments().getFirst();
        assertEquals("modify_pending_order_payment", j.tool());
        assertEquals("{\"payment_method_id\":\"credit_card_1920\"}", CanonicalJson.write(j.arguments()));
        assertFalse(j.wordList());
        assertTrue(j.enforced() && j.fails() && j.refused() && j.secondShadow());
        assertFalse(j.unknown());
        assertEquals(List.of("payment_method_id"), j.proposalCheck().stream().map(ConfirmLog.Flag::argument).toList());
        assertEquals("a", j.key());
        assertEquals("b", j.secondKey());
        assertEquals(0.15, j.pYes());
        assertNull(j.pSecond());
        assertNull(j.skipped());
        assertEquals("no yes/no answer to proposed", j.error());
        assertEquals(812, j.ms());
    }

    @Test
    void aLastLineCutShortIsLeftOutAndBlankLinesAreSkipped() throws Exception {
        ConfirmLog log = ConfirmLog.parse(SECOND + "\n\n" + SECOND.substring(0, 40), "c.jsonl");
        assertEquals(1, log.judgments().size());
    }

    @Test
    void aLineThatIsNotAJudgmentIsAnErrorNamingTheFileAndLine() {
        LogFormatException e = assertThrows(LogFormatException.class,
                () -> ConfirmLog.parse(SECOND + "\n{\"tool\":\"x\",\"arguments\":{},\"fails\":\"no\"}\n", "c.jsonl"));
        assertEquals("c.jsonl:2: \"fails\" must be true or false", e.getMessage());
        e = assertThrows(LogFormatException.class, () -> ConfirmLog.parse("nope\n" + SECOND + "\n", "c.jsonl"));
        assertTrue(e.getMessage().startsWith("c.jsonl:1: not JSON ("), e.getMessage());
    }
}
