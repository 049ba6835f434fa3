/**
 * The proxy as a Streamable HTTP server for hosts ({@code stretto-proxy --listen}): one
 * endpoint on the JDK's HTTP server, each HTTP session a proxy session of its own whose host
 * side is the HTTP exchanges. {@link dev.stretto.proxy.listen.ListenServer} binds and stops;
 * {@code Endpoint} checks each request ({@code Access}: Host, Origin, bearer token) and turns
 * it into lines for the session ({@code HostFeed}); the session's output comes back line by
 * line ({@code ServerOutput}) into its {@code Outbox}, which routes each message to the event
 * stream or JSON answer it belongs to, numbers the events and keeps the last ones for clients
 * that resume a dropped stream ({@code SseResponse} writes them).
 *
 * <p>Internal: not exported by the module; the API is {@link dev.stretto.proxy.McpListener}
 * and {@link dev.stretto.proxy.ListenConfig}.
 */
package dev.stretto.proxy.listen;
