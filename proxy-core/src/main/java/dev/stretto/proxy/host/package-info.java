/**
 * Internal: the host's side of a session, read and written on platform threads of their own.
 * {@link dev.stretto.proxy.host.HostInput} reads the host's lines; {@link
 * dev.stretto.proxy.host.HostOutput} queues lines for the host and writes them out. Passive
 * mode's pumps ({@code dev.stretto.proxy.session}) and active mode's actor ({@code
 * dev.stretto.proxy.active}) both use them; neither of those packages is imported here. Not
 * exported by the module.
 */
package dev.stretto.proxy.host;
