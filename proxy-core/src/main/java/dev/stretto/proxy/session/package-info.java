/**
 * Internal: one session's threads. {@link dev.stretto.proxy.session.Session} opens the
 * session's {@code StructuredTaskScope} (with {@code TaskForks}, which nests scopes in it, the
 * only classes of the project that use a preview API), forks the pumps that carry lines each
 * way (record, then forward) and decides how the session ends; {@link dev.stretto.proxy.session.HostInput} and {@link
 * dev.stretto.proxy.session.HostOutput} read and write the host's side on platform threads of
 * their own. Not exported by the module; use {@link dev.stretto.proxy.Proxy}.
 */
package dev.stretto.proxy.session;
