package dev.stretto.proxy;

/**
 * Makes the configuration of each HTTP session of an {@link McpListener}: called once per
 * session, when the host's {@code initialize} arrives, before anything is started. Each
 * session gets its own {@link ProxyConfig}, so its own server (a child process of its own, or
 * a session of its own with an HTTP server), its own log, its own {@link RecordingSink}s and
 * {@link SessionListener}, and in active mode its own actor.
 *
 * <pre>{@code
 * SessionConfigurer sessions = session -> ProxyConfig.builder(UpstreamSpec.Command.of("npx", "-y", "some-mcp-server"))
 *         .record(Path.of("/var/log/agent/mcp"))               // one log per session, named session.name()
 *         .active(ActiveSettings.builder()
 *                 .guards("retail")
 *                 .context(session.expand(Path.of("/var/run/agent/{session}.chat.jsonl")))
 *                 .build())
 *         .build();
 * }</pre>
 *
 * <p>Called on the thread of the host's request; sessions may be configured concurrently.
 */
@FunctionalInterface
public interface SessionConfigurer {

    /**
     * The configuration of one session.
     *
     * @param session the new session: its name (which the log takes), its ids, its start
     * @return its configuration
     * @throws ProxyStartException when it cannot have one; the host's {@code initialize} is
     *                             answered with the message (which must hold no secret), and
     *                             the session does not start
     */
    ProxyConfig configure(ListenSession session) throws ProxyStartException;
}
