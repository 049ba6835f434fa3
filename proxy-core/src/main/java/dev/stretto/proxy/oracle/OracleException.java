package dev.stretto.proxy.oracle;

/**
 * The oracle could not answer a request: the service failed or could not be reached, a
 * replayed answer is missing, a cache entry cannot be read. The message is the reason as it
 * goes into logs (for example {@code replay cache miss for request <key>}); it never holds
 * the API key.
 */
public final class OracleException extends RuntimeException {

    /** @param message the reason, one line */
    public OracleException(String message) {
        super(message);
    }

    /**
     * @param message the reason, one line
     * @param cause   the failure underneath, for debugging (its message is not shown to users)
     */
    public OracleException(String message, Throwable cause) {
        super(message, cause);
    }
}
