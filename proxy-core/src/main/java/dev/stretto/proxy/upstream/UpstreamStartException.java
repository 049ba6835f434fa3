package dev.stretto.proxy.upstream;

import java.io.IOException;

/** The server could not be started (command not found, not executable) or reached at all. */
public final class UpstreamStartException extends IOException {

    /** A failure described by {@code message}, which is shown to the user as it is. */
    public UpstreamStartException(String message, Throwable cause) {
        super(message, cause);
    }
}
