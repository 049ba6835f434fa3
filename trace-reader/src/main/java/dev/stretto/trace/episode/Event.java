package dev.stretto.trace.episode;

import java.util.List;
import java.util.Objects;

/**
 * One event of an episode, in time order: something the user said, an assistant turn
 * (text, tool calls or both) or the result of a tool call. The JSON form carries the kind
 * as {@code "kind"}: {@code user}, {@code assistant} or {@code tool_result}.
 */
public sealed interface Event {

    /**
     * A message from the user.
     *
     * @param text what the user said
     */
    record User(String text) implements Event {
        /**
         * Checks the turn.
         *
         * @throws NullPointerException when {@code text} is null
         */
        public User {
            Objects.requireNonNull(text, "text");
        }
    }

    /**
     * An assistant turn.
     *
     * @param text  what the assistant said, or null (a session log never holds the text of a
     *              turn that made calls)
     * @param calls the tool calls of the turn, in the order they were sent; empty for a
     *              message without calls
     * @param usage tokens and cost, or null when unknown
     */
    record Assistant(String text, List<ToolCall> calls, Usage usage) implements Event {
        /**
         * Checks the turn.
         *
         * @throws NullPointerException when {@code calls} is null
         */
        public Assistant {
            calls = List.copyOf(calls);
        }
    }

    /**
     * The result of one tool call.
     *
     * @param callId  the {@link ToolCall#id()} of the call it answers
     * @param name    the tool's name, copied from the call
     * @param error   whether the call failed (a JSON-RPC error or {@code isError: true})
     * @param content the result's text; see {@link Episode#of(dev.stretto.trace.log.SessionLog)}
     */
    record ToolResult(String callId, String name, boolean error, String content) implements Event {
        /**
         * Checks the result.
         *
         * @throws NullPointerException when {@code callId}, {@code name} or {@code content} is null
         */
        public ToolResult {
            Objects.requireNonNull(callId, "callId");
            Objects.requireNonNull(name, "name");
            Objects.requireNonNull(content, "content");
        }
    }
}
