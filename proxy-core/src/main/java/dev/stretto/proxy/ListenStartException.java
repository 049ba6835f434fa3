package dev.stretto.proxy;

/**
 * An {@link McpListener} could not start: its address cannot be bound (in use, not one of this
 * machine's, not allowed), or this JVM cannot run sessions. The message is written for the
 * user; the CLI prints it and exits with 125.
 */
public final class ListenStartException extends Exception {

    /**
     * A failure described by {@code message}.
     *
     * @param message what failed, for the user
     * @param cause   what caused it, or null
     */
    public ListenStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
