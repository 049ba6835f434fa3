package dev.stretto.proxy;

/**
 * The proxy could not start a session: the session log could not be created, or the server
 * could not be started. No log is left behind. The message is written for the user and
 * contains no secret; the CLI prints it and exits with 125.
 */
public final class ProxyStartException extends Exception {

    /**
     * A failure described by {@code message}.
     *
     * @param message what failed, for the user, without secrets
     * @param cause   what caused it, or null
     */
    public ProxyStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
