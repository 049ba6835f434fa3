package dev.stretto.proxy.flow.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.proxy.flow.predict.AgentStep;
import dev.stretto.proxy.flow.predict.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

class VocabTest {

    @Test
    void vocabListsRespondThenToolsInByteOrderWithOneIdForAnythingElse() {
        Vocab v = Vocab.of(List.of(List.of(new AgentStep("zeta", Step.OK, null),
                        new AgentStep("\uD83D\uDE00", Step.OK, null))),
                List.of("alpha", "\uFF5E"));
        // U+FF5E sorts before U+1F600 in UTF-8 (and after it in UTF-16).
        assertEquals(List.of("alpha", "zeta", "\uFF5E", "\uD83D\uDE00"), v.tools());
        assertEquals(5, v.size());
        assertEquals(6, v.modelSize());
        assertEquals(5, v.idOf("unknown"));
        assertEquals(0, v.id(new AgentStep(null, Step.ENDED, null)));
    }
}
