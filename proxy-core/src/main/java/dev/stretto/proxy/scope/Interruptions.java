package dev.stretto.proxy.scope;

/**
 * Whether a failure is an interruption: a fork whose scope was cancelled (or whose thread was
 * interrupted otherwise) often fails with an {@link java.io.IOException} that wraps the {@link
 * InterruptedException}, or with one that says only that a channel closed. Such a failure is the
 * end the scope asked for, not something to report or to try again.
 */
public final class Interruptions {

    private Interruptions() {
    }

    /**
     * True when the calling thread is interrupted, or {@code failure} has an {@link
     * InterruptedException} among its causes.
     *
     * @param failure what was thrown
     * @return whether it is an interruption
     */
    public static boolean isInterruption(Throwable failure) {
        if (Thread.currentThread().isInterrupted()) {
            return true;
        }
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InterruptedException) {
                return true;
            }
        }
        return false;
    }
}
