/**
 * The System-One oracle ("Jev"): typed {@link dev.stretto.proxy.oracle.Request}s and
 * {@link dev.stretto.proxy.oracle.Response}s written exactly as the reference implementation
 * writes them, the answer cache keyed by the SHA-256 of a request's JSON
 * ({@link dev.stretto.proxy.oracle.OracleCache}), the HTTP client of the service
 * ({@link dev.stretto.proxy.oracle.SystemOneClient}) and the three ways of answering,
 * {@link dev.stretto.proxy.oracle.OracleMode jev, replay and mock}.
 *
 * <p>Nothing here reads the environment: the caller passes the settings in
 * ({@link dev.stretto.proxy.oracle.ServiceSettings}). Asking blocks; the session runs each
 * question on a thread of its own.
 */
package dev.stretto.proxy.oracle;

import dev.stretto.proxy.OracleMode;
