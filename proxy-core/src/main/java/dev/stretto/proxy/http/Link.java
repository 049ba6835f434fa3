package dev.stretto.proxy.http;

import dev.stretto.proxy.redact.Secrets;
import java.util.function.Consumer;

/**
 * What every exchange of one upstream shares: the HTTP client, the way to the host, the
 * session's state and pending requests, pacing, secrets to scrub, the warning channel, and
 * the upstream's lifecycle signals. One per {@link HttpUpstream}, built in {@code start}.
 */
record Link(McpHttp http, ServerMessages messages, SessionState state, PendingRequests pending, Tuning tuning,
        Secrets secrets, Consumer<String> warn, Lifecycle lifecycle) {

    /** The upstream's end-of-life signals, as the exchanges need to see them. */
    interface Lifecycle {

        /** The server answered 404 on the session id: the session is over. */
        void sessionEnded();

        /** abort() was called: stop at once and answer nothing. */
        boolean aborted();

        /** The host's input ended and the wait for answers ran out: give up on them. */
        boolean cancelled();
    }

    static final String SESSION_ENDED = "the server ended the MCP session (HTTP 404 on its session id);"
            + " restart the proxy to start a new session";

    static final String STOPPED_WAITING = "the proxy stopped waiting for this answer:"
            + " the host closed its input and the wait for answers ran out";
}
