package dev.stretto.proxy.flow.bind;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Objects;

/** The outcome of binding a lookup's arguments. */
public sealed interface Pick {

    /**
     * The arguments were bound.
     *
     * @param arguments the bound arguments (required ones and constants)
     * @param mention   what the customer had said about the picked values
     * @param chance    how likely these arguments are the agent's own, from what training saw
     * @param saidAs    when every picked value was mentioned: the customer's words that mention
     *                  the first of them (the value, or a sibling of it such as an item's name);
     *                  else null
     */
    record Bound(ObjectNode arguments, Mention mention, double chance, String saidAs) implements Pick {
        /** Copies the arguments. */
        public Bound {
            arguments = arguments.deepCopy();
            Objects.requireNonNull(mention, "mention");
        }

        /** A binding with no record of the words that mentioned it. */
        public Bound(ObjectNode arguments, Mention mention, double chance) {
            this(arguments, mention, chance, null);
        }

        /** The arguments; a copy, since JSON trees are mutable. */
        @Override
        public ObjectNode arguments() {
            return arguments.deepCopy();
        }
    }

    /**
     * No binding: the flow leaves this lookup to the agent.
     *
     * @param why the reason, as the flow log words it ({@code already looked up},
     *            {@code no source for `user_id` (the LLM supplies it)}, ...)
     */
    record Unbound(String why) implements Pick {
        /** Requires a reason. */
        public Unbound {
            Objects.requireNonNull(why, "why");
        }
    }
}
