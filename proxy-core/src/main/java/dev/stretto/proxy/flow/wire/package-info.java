/**
 * What a flow puts on the wire and in its log: lookup requests
 * ({@link dev.stretto.proxy.flow.wire.LookupRequest}), their text
 * ({@link dev.stretto.proxy.flow.wire.LookupAnswer}), the item appended to the agent's result
 * ({@link dev.stretto.proxy.flow.wire.Appendix}), and the flow log's lines
 * ({@link dev.stretto.proxy.flow.wire.FlowLogLines}), read back by
 * {@link dev.stretto.proxy.flow.FlowLog}.
 */
package dev.stretto.proxy.flow.wire;
