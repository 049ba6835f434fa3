package dev.stretto.demo;

/**
 * What one incoming JSON-RPC message asks of a transport. {@link McpHandler} decides it
 * without knowing the transport; stdio and HTTP then differ only in how they deliver it.
 */
sealed interface Inbound {

    /** Not a JSON-RPC message at all (-32700 or -32600); HTTP answers it with status 400. */
    record Rejected(String errorJson) implements Inbound {
    }

    /** A notification, or a response to a request the server never sent: nothing to answer. */
    record Accepted() implements Inbound {
    }

    /** An {@code initialize} request: its answer and the protocol version it agreed. */
    record Initialize(String answerJson, String protocolVersion) implements Inbound {
    }

    /** Any other request answered at once (including JSON-RPC errors). */
    record Answer(String json) implements Inbound {
    }

    /**
     * A {@code tools/call}. {@link #answer()} waits for {@code delayMillis} first, so a
     * transport that must not hold up later messages runs it on a thread of its own.
     *
     * @param tool the name the client called (known or not)
     */
    record ToolCall(String tool, long delayMillis, Work work) implements Inbound {

        /** Waits out the delay, then returns the answer's JSON. */
        String answer() throws InterruptedException {
            return work.answer();
        }
    }

    /** The deferred part of a tool call. */
    @FunctionalInterface
    interface Work {
        String answer() throws InterruptedException;
    }
}
