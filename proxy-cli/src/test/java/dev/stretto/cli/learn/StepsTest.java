package dev.stretto.cli.learn;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.List;
import org.junit.jupiter.api.Test;

class StepsTest {

    private static ToolCall call(String id, String tool) {
        return new ToolCall(id, tool, CanonicalJson.parse("{}"));
    }

    @Test
    void callsAreStepsInOrderAndRepliesAreAnsweredOnlyWhenTheUserSpeaksNext() {
        Episode e = new Episode("s", "s", 0, "d", "m", 1.0, List.of(
                new Event.User("hi"),
                new Event.Assistant(null, List.of(call("1", "a"), call("2", "b"), call("3", "c")), null),
                new Event.ToolResult("1", "a", false, "x"),
                new Event.ToolResult("2", "b", true, "boom"),
                new Event.Assistant("which one?", List.of(), null),
                new Event.User("the first"),
                new Event.Assistant("done", List.of(), null)));
        assertEquals(List.of(new Step("a", Step.OK, "x"), new Step("b", Step.FAILED, "boom"),
                        new Step("c", Step.FAILED, null), new Step(null, Step.ANSWERED, null),
                        new Step(null, Step.ENDED, null)),
                Steps.of(e));
    }

    @Test
    void vocabListsRespondThenToolsInByteOrderWithOneIdForAnythingElse() {
        Vocab v = Vocab.of(List.of(List.of(new Step("zeta", Step.OK, null), new Step("\uD83D\uDE00", Step.OK, null))),
                List.of("alpha", "\uFF5E"));
        // U+FF5E sorts before U+1F600 in UTF-8 (and after it in UTF-16).
        assertEquals(List.of("alpha", "zeta", "\uFF5E", "\uD83D\uDE00"), v.tools());
        assertEquals(5, v.size());
        assertEquals(6, v.modelSize());
        assertEquals(5, v.idOf("unknown"));
        assertEquals(0, v.id(new Step(null, Step.ENDED, null)));
    }
}
