package dev.stretto.proxy.flow.learn.bindings;

import dev.stretto.trace.episode.Episode;
import dev.stretto.trace.episode.Event;
import dev.stretto.trace.episode.ToolCall;
import dev.stretto.trace.json.CanonicalJson;
import java.util.ArrayList;
import java.util.List;

/** Builds an episode event by event, for binding scenarios. */
final class Story {

    private final List<Event> events = new ArrayList<>();

    static ToolCall call(String id, String tool, String arguments) {
        return new ToolCall(id, tool, CanonicalJson.parse(arguments));
    }

    Story user(String text) {
        events.add(new Event.User(text));
        return this;
    }

    /** One assistant turn with these calls. */
    Story turn(ToolCall... calls) {
        events.add(new Event.Assistant(null, List.of(calls), null));
        return this;
    }

    Story result(String id, String tool, String content) {
        events.add(new Event.ToolResult(id, tool, false, content));
        return this;
    }

    Story failed(String id, String tool, String content) {
        events.add(new Event.ToolResult(id, tool, true, content));
        return this;
    }

    /** A call and its result, in a turn of its own. */
    Story lookup(String id, String tool, String arguments, String content) {
        return turn(call(id, tool, arguments)).result(id, tool, content);
    }

    Episode episode(String id) {
        return new Episode(id, id, 0, "test", "agent", 1.0, events);
    }
}
