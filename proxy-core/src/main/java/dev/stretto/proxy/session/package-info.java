/**
 * Internal: one session's threads. {@link dev.stretto.proxy.session.Session} opens the
 * session's {@code StructuredTaskScope} (with {@code scope.TaskForks}, which nests scopes in it, the
 * only classes of the project that use a preview API), starts the passing on of lines each way
 * (record, then forward) and decides how the session ends. The host's side is read and written
 * on platform threads of their own ({@code dev.stretto.proxy.host}); in active mode the
 * session runs {@code dev.stretto.proxy.active}'s actor in place of the passive path. Not
 * exported by the module; use {@link dev.stretto.proxy.Proxy}.
 */
package dev.stretto.proxy.session;
