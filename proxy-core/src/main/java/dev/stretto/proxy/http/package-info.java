/**
 * The Streamable HTTP server end of a session ({@code --upstream URL}): {@link
 * dev.stretto.proxy.http.HttpUpstream} POSTs each line the host writes to the MCP endpoint and
 * turns what comes back (a JSON body or an event stream) into lines for the host, keeps the
 * server's session id and the negotiated protocol version, listens on the server's own GET
 * stream, and ends the session with a DELETE.
 *
 * <p>Everything else here is package-private plumbing: the event-stream parser, the small
 * JSON peek that reads only a message's method and id, and the bookkeeping of requests that
 * still wait for their answer.
 *
 * <p>Internal: not exported by the module; the API is {@link
 * dev.stretto.proxy.UpstreamSpec.Http} and {@link dev.stretto.proxy.HeaderSpec}.
 */
package dev.stretto.proxy.http;
