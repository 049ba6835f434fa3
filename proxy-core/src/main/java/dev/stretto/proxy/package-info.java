/**
 * The stretto-proxy session runtime as a library: run MCP sessions in your own JVM, each
 * between your streams (the host's side) and a server: a child process ({@link
 * dev.stretto.proxy.UpstreamSpec.Command}), a Streamable HTTP endpoint ({@link
 * dev.stretto.proxy.UpstreamSpec.Http}) or a server in the same JVM ({@link
 * dev.stretto.proxy.UpstreamSpec.Streams}), every line forwarded byte for byte and, if you
 * like, recorded.
 *
 * <pre>{@code
 * MemoryRecording recording = new MemoryRecording();
 * ProxyConfig config = ProxyConfig.builder(UpstreamSpec.Command.of("npx", "-y", "some-mcp-server")
 *                 .withEnvironment(Map.of("SOME_API_KEY", key))
 *                 .withStderr(ServerStderr.appendTo(Path.of("/var/log/agent/servers.err"))))
 *         .record(Path.of("/var/log/agent/mcp"))        // a session log file, or not
 *         .recordTo(recording)                          // and/or a sink of your own
 *         .listener(new SessionListener() {             // each line as it crosses
 *             public void line(long tMs, Source from, byte[] line) { ... }
 *         })
 *         .build();
 * SessionResult result = Proxy.run(config, fromAgent, toAgent);   // blocks until the session ends
 * }</pre>
 *
 * <h2>Requirements</h2>
 * Java 25 with {@code --enable-preview}: each session is a {@code StructuredTaskScope}, a
 * preview API in Java 25. Without the flag, {@link dev.stretto.proxy.Proxy#run} throws a
 * {@link dev.stretto.proxy.ProxyStartException} that says so, before it creates anything. A
 * class built with Java 25's preview features runs on Java 25 only, and JDK 26 changes the
 * API: a later JDK needs a build of proxy-core for it. Only the internal classes that open
 * scopes are marked as using preview features; everything else, trace-reader included, loads
 * anywhere.
 *
 * <h2>API and internals</h2>
 * This package and {@link dev.stretto.proxy.flow} are the API, with trace-reader's {@code
 * dev.stretto.trace.*} packages, whose log model they use (a {@link
 * dev.stretto.proxy.RecordingSink} gets {@code LogEntry}s, a {@link
 * dev.stretto.proxy.MemoryRecording} gives a {@code SessionLog} to make an {@code Episode} of,
 * or to learn a flow from). Every other package of the module is internal: not exported, and
 * free to change; no exported signature names one of their types. The project's own commands
 * use the API alone, so a program on the module path can do whatever they do. Active mode
 * (policy guards, {@code stretto_commit}, the conversation file, a served flow and the
 * confirmation judge) is switched on with {@link dev.stretto.proxy.ActiveSettings}; the
 * System-One {@link dev.stretto.proxy.Oracle} a flow's arbiter and the judge ask is opened with
 * {@link dev.stretto.proxy.OracleSettings}.
 *
 * <h2>Results and stopping</h2>
 * A {@link dev.stretto.proxy.SessionResult} says why the session ended ({@link
 * dev.stretto.proxy.EndReason}) and how the server ended ({@link dev.stretto.proxy.ServerEnd}:
 * by itself, or ended by the proxy, with SIGTERM, SIGKILL or its streams closed). Interrupt the
 * thread running a session to stop it: {@link dev.stretto.proxy.Proxy#run} then throws a
 * {@link dev.stretto.proxy.SessionInterruptedException} carrying the result, once a child
 * server has exited and been reaped.
 *
 * <h2>Surroundings, threads and costs</h2>
 * Nothing here keeps static state (but for the one queue to stderr below), reads {@code System.in} or calls {@code System.exit}; the
 * JVM's environment is read only for a configuration that gives no {@link
 * dev.stretto.proxy.HostEnvironment}. So sessions run side by side in one JVM, thousands at
 * once. Each open session takes, as measured (the project's {@code docs/library.md}), about
 * 270 to 330 KB of heap, three platform threads of its own for the reads and writes of pipes
 * (which cannot unmount a virtual thread; a fourth for a child's stderr given to a stream),
 * virtual threads for the rest, and for a child server two file descriptors and one of the
 * JDK's reaper threads, which stays about 60 s after the child has exited. A {@link
 * dev.stretto.proxy.Subreaper} ends only what descends from a session's own server, and never
 * collects the status of a process the JVM started itself.
 *
 * <h2>Messages</h2>
 * What the proxy says about a session ({@code recording to ...}, a refused call, a server sent
 * SIGTERM) goes to the {@link dev.stretto.proxy.ProxyMessages} handler of its configuration
 * ({@link dev.stretto.proxy.ProxyConfig.Builder#messages}), by default to stderr at INFO, each
 * line starting {@code stretto-proxy: }; never to {@code System.out}, and through no logging
 * framework, whatever is on the class path. The default handler writes from a bounded queue on
 * a thread of its own, so a stderr nobody reads never holds a session up: messages that find
 * the queue full are dropped and counted, and the count is written once stderr takes lines
 * again.
 */
package dev.stretto.proxy;
