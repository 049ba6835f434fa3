package dev.stretto.proxy.oauth;

import java.io.IOException;

/**
 * Signing in to the server did not work; the message says why in words fit for the host's error
 * line (it never holds a token or secret).
 */
public class AuthorizationFailedException extends IOException {

    /** @param message why, starting with what was tried */
    public AuthorizationFailedException(String message) {
        super(message, null);
    }
}
