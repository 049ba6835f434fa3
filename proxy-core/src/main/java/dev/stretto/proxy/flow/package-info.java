/**
 * Flows as a library: what {@code stretto learn}, {@code promote}, {@code evaluate}, {@code
 * flow} and {@code flow-show} do, in a program's own JVM. A {@link dev.stretto.proxy.flow.Flow}
 * is read and written with {@link dev.stretto.proxy.flow.FlowFiles}, learned from recorded
 * sessions with {@link dev.stretto.proxy.flow.Learning}, promoted from its shadow runs with
 * {@link dev.stretto.proxy.flow.Promotion}, and shown as data with {@link
 * dev.stretto.proxy.flow.FlowView}; a session serves one with {@code
 * dev.stretto.proxy.FlowSettings}. The decisions a served flow logged are read back with {@link
 * dev.stretto.proxy.flow.FlowLog}, and other deciding rules estimated from them with {@link
 * dev.stretto.proxy.flow.Evaluation}.
 *
 * <pre>{@code
 * List<SessionLog> sessions = new ArrayList<>();
 * for (...) {                                        // each session recorded in memory
 *     MemoryRecording recording = new MemoryRecording();
 *     Proxy.run(ProxyConfig.builder(server).recordTo(recording).build(), fromAgent, toAgent);
 *     sessions.add(recording.sessionLog());
 * }
 * Flow flow = Learning.fromSessions(sessions).domain("retail").learn().flow();
 * ActiveSettings serving = ActiveSettings.builder()
 *         .flow(FlowSettings.builder(flow, "retail flow").build())
 *         .build();
 * }</pre>
 *
 * <p>The files are the reference implementation's, byte for byte: a flow learned here is the one
 * {@code stretto learn} writes from the same logs (its compile time aside). The project's {@code
 * docs/flows.md} and {@code docs/learn.md} describe them.
 */
package dev.stretto.proxy.flow;
