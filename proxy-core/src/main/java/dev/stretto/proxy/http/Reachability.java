package dev.stretto.proxy.http;

import dev.stretto.proxy.redact.Secrets;
import java.io.IOException;
import java.util.function.Consumer;

/**
 * Whether the server can be reached, said on stderr once per change: when an exchange first
 * fails to get any answer (with the reason), and when the server answers again. The requests
 * in between are still answered with the proxy's error lines, but the host's log is not
 * flooded with one warning per request. Both lines go out at the same level, so whoever sees
 * the first also sees the second. Thread-safe: every exchange reports here.
 */
final class Reachability {

    private final String where;
    private final Secrets secrets;
    private final Consumer<String> warn;
    // Guarded by this.
    private boolean unreachable;

    /** @param where the endpoint's log form, as messages name it */
    Reachability(String where, Secrets secrets, Consumer<String> warn) {
        this.where = where;
        this.secrets = secrets;
        this.warn = warn;
    }

    // Each message is said holding the lock, so the lines come out in the order of the changes.

    /** An exchange got no answer at all: {@code failure} came instead of a response. */
    synchronized void failed(IOException failure) {
        if (!unreachable) {
            unreachable = true;
            warn.accept("cannot reach the server at " + where + " (" + Causes.describe(failure, secrets)
                    + "); requests are answered with errors until it answers again");
        }
    }

    /** The server answered (with any status). */
    synchronized void answered() {
        if (unreachable) {
            unreachable = false;
            warn.accept("the server at " + where + " answers again");
        }
    }
}
