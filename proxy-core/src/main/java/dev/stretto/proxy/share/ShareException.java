package dev.stretto.proxy.share;

import java.io.IOException;

/**
 * A file that redaction needs cannot be used: a rules file that is not valid, a key file that
 * is too short or readable by others. The message names the file and says what is wrong.
 */
public final class ShareException extends IOException {

    private static final long serialVersionUID = 1L;

    /**
     * An error with its message.
     *
     * @param message what is wrong, naming the file
     */
    public ShareException(String message) {
        super(message);
    }

    /**
     * An error with its message and cause.
     *
     * @param message what is wrong, naming the file
     * @param cause   what failed
     */
    public ShareException(String message, Throwable cause) {
        super(message, cause);
    }
}
