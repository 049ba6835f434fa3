package dev.stretto.demo.tau2;

/**
 * An exception a τ² tool raises (mostly {@code ValueError}); τ² answers it as the error text
 * {@code Error: <message>}.
 */
final class ToolError extends RuntimeException {
    ToolError(String message) {
        super(message, null, false, false);
    }
}
