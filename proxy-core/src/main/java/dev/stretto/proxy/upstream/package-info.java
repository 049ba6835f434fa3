/**
 * Internal: the server end of a session. {@link dev.stretto.proxy.upstream.Upstream} is what
 * the session drives; {@link dev.stretto.proxy.upstream.ChildProcessUpstream} runs a child on
 * stdio and ends it and everything it started ({@link dev.stretto.proxy.upstream.ChildReaper}
 * finds orphans when the JVM is a child subreaper), {@link
 * dev.stretto.proxy.upstream.StreamUpstream} talks to a server in the same JVM. The server's
 * output is read on platform threads ({@link dev.stretto.proxy.upstream.OutputReader}) that
 * hand each line to the session's bounded queue. Not exported by the module; the API is {@link
 * dev.stretto.proxy.UpstreamSpec}. The Streamable HTTP upstream is in {@code http}.
 */
package dev.stretto.proxy.upstream;
