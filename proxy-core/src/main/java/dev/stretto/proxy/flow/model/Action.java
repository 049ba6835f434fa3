package dev.stretto.proxy.flow.model;

import java.util.Objects;

/**
 * An entry of a flow's action vocabulary: the agent answering ({@code "Respond"}, id 0) or
 * calling a tool ({@code {"Tool": name}}).
 */
public sealed interface Action {

    /** The agent writes to the user instead of calling a tool. */
    Respond RESPOND = new Respond();

    /** The {@code "Respond"} entry. */
    record Respond() implements Action {
    }

    /**
     * A tool call.
     *
     * @param name the tool's name
     */
    record Tool(String name) implements Action {
        /** Requires a name. */
        public Tool {
            Objects.requireNonNull(name, "name");
        }
    }
}
