package dev.stretto.proxy.flow.predict;

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
        assertEquals(List.of(new AgentStep("a", Step.OK, "x"), new AgentStep("b", Step.FAILED, "boom"),
                        new AgentStep("c", Step.FAILED, null), new AgentStep(null, Step.ANSWERED, null),
                        new AgentStep(null, Step.ENDED, null)),
                Steps.of(e));
    }
}
