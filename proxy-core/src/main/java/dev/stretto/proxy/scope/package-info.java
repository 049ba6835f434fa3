/**
 * Internal: scopes nested in a session's {@code StructuredTaskScope} that threads outside
 * them hand work to ({@link dev.stretto.proxy.scope.TaskForks}): the actor's slow work, the
 * upstream's own, each HTTP exchange. With {@code dev.stretto.proxy.session.Session}, the only
 * code of the project that uses a preview API. Not exported by the module.
 */
package dev.stretto.proxy.scope;
