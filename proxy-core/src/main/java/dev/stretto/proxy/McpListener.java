package dev.stretto.proxy;

import dev.stretto.proxy.listen.ListenServer;
import dev.stretto.proxy.logging.Logger;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Inet6Address;
import java.net.InetSocketAddress;
import java.net.URI;
import java.util.List;
import java.util.Objects;

/**
 * The proxy as a Streamable HTTP server for hosts, in front of any server: {@code stretto-proxy
 * --listen} as a library. One endpoint ({@code /mcp}) serves the MCP Streamable HTTP transport
 * (revision 2025-06-18, and 2025-11-25); each HTTP session, made by the host's {@code
 * initialize}, is a proxy session of its own, with the configuration its {@link
 * SessionConfigurer} makes: its own server (a child process of its own, or its own session
 * with an HTTP server), its own log, its own actor in active mode.
 *
 * <pre>{@code
 * McpListener listener = McpListener.start(ListenConfig.builder(
 *                 new InetSocketAddress(InetAddress.getLoopbackAddress(), 0),
 *                 session -> ProxyConfig.builder(UpstreamSpec.Command.of("npx", "-y", "some-mcp-server"))
 *                         .record(Path.of("/var/log/agent/mcp"))
 *                         .build())
 *         .token(token)                                       // Authorization: Bearer <token>
 *         .events(new ListenEvents() {
 *             public void ended(ListenSession s, SessionResult r) { ... }
 *         })
 *         .build());
 * URI endpoint = listener.endpoint();                          // http://127.0.0.1:<port>/mcp
 * ...
 * listener.stop();                                            // every session ended, logs complete
 * }</pre>
 *
 * <p>What the transport asks, the listener does: {@code Mcp-Session-Id} assigned on {@code
 * initialize} and required after it; {@code MCP-Protocol-Version} checked; requests answered
 * on an event stream when the client accepts one (progress, log messages and the server's own
 * requests before the answer), else as one JSON answer; notifications and responses get 202;
 * the GET stream carries what the server says of its own accord; DELETE ends the session;
 * every event has an id, and a stream that dropped is resumed from {@code Last-Event-ID}.
 * Hosts other than loopback ones, origins other than loopback ones and requests without the
 * token are refused. The project's {@code docs/listen.md} has the details.
 *
 * <p>Sessions run on the listener's threads; each ends on the host's DELETE, after its idle
 * time, when its server ends, or when the listener stops, its log complete and its server ended
 * as a session of {@link Proxy#run} ends. Nothing here calls {@code System.exit} or writes to
 * {@code System.out}.
 */
public final class McpListener implements AutoCloseable {

    private final ListenServer server;

    private McpListener(ListenServer server) {
        this.server = server;
    }

    /**
     * Binds the configuration's address and starts serving.
     *
     * @param config the listener
     * @return the running listener
     * @throws ListenStartException when the address cannot be bound (in use, not this machine's,
     *                              not allowed), or this JVM cannot run sessions (no {@code
     *                              --enable-preview}); the message says which
     */
    public static McpListener start(ListenConfig config) throws ListenStartException {
        Objects.requireNonNull(config, "config");
        try {
            PreviewCheck.require();
        } catch (ProxyStartException e) {
            throw new ListenStartException(e.getMessage(), e);
        }
        try {
            return Logger.callWith(config.messages(), () -> new McpListener(ListenServer.start(config,
                    McpListener::runSession)));
        } catch (ListenStartException | RuntimeException e) {
            throw e;
        } catch (Exception cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    private static SessionResult runSession(ProxyConfig config, String name, InputStream hostIn, OutputStream hostOut,
                                            Runnable started)
            throws ProxyStartException, SessionInterruptedException {
        try {
            return Logger.callWith(config.messages(), () -> ProxySession.run(config, name, hostIn, hostOut, started));
        } catch (ProxyStartException | SessionInterruptedException | RuntimeException e) {
            throw e;
        } catch (Exception cannotHappen) {
            throw new IllegalStateException(cannotHappen);
        }
    }

    /**
     * The address the listener is bound to, with the port it took when it was given port 0.
     *
     * @return the address
     */
    public InetSocketAddress address() {
        return server.address();
    }

    /**
     * The MCP endpoint's URL, for hosts: {@code http://<address>:<port>/mcp}.
     *
     * @return the URL
     */
    public URI endpoint() {
        InetSocketAddress a = server.address();
        String host = a.getAddress() instanceof Inet6Address ? "[" + a.getAddress().getHostAddress() + "]"
                : a.getAddress().getHostAddress();
        return URI.create("http://" + host + ":" + a.getPort() + server.path());
    }

    /**
     * The sessions hosts may use now (those ended, but whose server is still being ended, are
     * not among them).
     *
     * @return the sessions, in no particular order
     */
    public List<ListenSession> sessions() {
        return server.sessions();
    }

    /**
     * Stops the listener: no new request is served, every session is stopped as an
     * interrupted {@link Proxy#run} stops (the log written out, the server ended), and the
     * port is closed. Returns once every session is over (or has taken 30 s). Does nothing
     * the second time.
     */
    public void stop() {
        server.stop();
    }

    /** {@link #stop()}. */
    @Override
    public void close() {
        stop();
    }
}
