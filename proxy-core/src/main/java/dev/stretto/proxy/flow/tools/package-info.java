/**
 * Which tools a flow may actually call: {@link dev.stretto.proxy.flow.tools.ToolGate} over the
 * flow's manifest, the server's live listing ({@link dev.stretto.proxy.flow.tools.LiveTools}),
 * pinned input contracts ({@link dev.stretto.proxy.flow.tools.Contract}) and
 * {@code --flow-tools}.
 */
package dev.stretto.proxy.flow.tools;
