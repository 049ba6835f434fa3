package dev.stretto.proxy.flow.run;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.stretto.proxy.flow.wire.RunRecord;
import dev.stretto.proxy.oracle.Request;
import java.util.Objects;

/** What a flow run needs next from its owner. */
public sealed interface RunStep {

    /**
     * Make this lookup: send it as the proxy's next request ({@code stretto-<n>}), then report
     * its response with {@link FlowRun#answered} (or {@link FlowRun#timedOut}).
     *
     * @param tool      the tool
     * @param arguments the arguments
     */
    record Lookup(String tool, ObjectNode arguments) implements RunStep {
        /** Copies the arguments. */
        public Lookup {
            Objects.requireNonNull(tool, "tool");
            arguments = arguments.deepCopy();
        }

        /** The arguments; a copy. */
        @Override
        public ObjectNode arguments() {
            return arguments.deepCopy();
        }
    }

    /**
     * Ask the System-One model this request off the owner's thread, then report the outcome with
     * {@link FlowRun#resume}.
     *
     * @param request the request
     */
    record Ask(Request request) implements RunStep {
        /** Requires the request. */
        public Ask {
            Objects.requireNonNull(request, "request");
        }
    }

    /**
     * The run is over: answer the agent.
     *
     * @param reply  the agent's response with the lookups appended, one line without a newline;
     *               null when no lookup was made, and the original bytes go through unchanged
     * @param record the run as its run line records it
     */
    record Finished(String reply, RunRecord record) implements RunStep {
        /** Requires the record. */
        public Finished {
            Objects.requireNonNull(record, "record");
        }
    }
}
